// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * JSON output, one object per record. Strings that are not valid UTF-8 are
 * written as arrays of byte values, as journalctl -o json writes binary
 * fields, so every output line is valid JSON and every byte survives.
 */
#define _GNU_SOURCE	/* fwrite_unlocked, fputs_unlocked: one writer per FILE */
#include "pkvkmsg.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Decimal digits of @v, without printf's format parsing (the hot path). */
static void put_u64(FILE *out, uint64_t v)
{
	char buf[20], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - p), out);
}

/* Length of the valid UTF-8 sequence at p (RFC 3629), or 0. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned char c = p[0];
	size_t len, i;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/* No byte >= 0x80: eight bytes at a time, since most text is ASCII. */
static bool ascii_only(const unsigned char *p, size_t n)
{
	uint64_t acc = 0, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		acc |= w;
	}
	for (; i < n; i++)
		acc |= p[i];
	return !(acc & 0x8080808080808080ull);
}

static bool utf8_valid(const unsigned char *p, size_t n)
{
	size_t i = 0;

	if (ascii_only(p, n))
		return true;

	while (i < n) {
		size_t l;

		if (p[i] < 0x80) {
			i++;
			continue;
		}
		l = utf8_seq(p + i, n - i);
		if (!l)
			return false;
		i += l;
	}
	return true;
}

/* Bytes a JSON string must escape: controls, '"', '\\', and DEL for readability. */
static const unsigned char json_escape[256] = {
	[0 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1, [0x7f] = 1,
};

/* The inside of a JSON string for @n bytes of valid UTF-8. */
static void json_chars(FILE *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i, run = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (!json_escape[c])
			continue;
		fwrite_unlocked(s + run, 1, i - run, out);
		run = i + 1;
		putc_unlocked('\\', out);
		switch (c) {
		case '"':
		case '\\':
			putc_unlocked(c, out);
			break;
		case '\n':
			putc_unlocked('n', out);
			break;
		case '\t':
			putc_unlocked('t', out);
			break;
		case '\r':
			putc_unlocked('r', out);
			break;
		default:
			fputs_unlocked("u00", out);
			putc_unlocked(hex[c >> 4], out);
			putc_unlocked(hex[c & 0xf], out);
		}
	}
	fwrite_unlocked(s + run, 1, n - run, out);
}

void pkv_json_string(FILE *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	if (!utf8_valid(p, n)) {
		putc_unlocked('[', out);
		for (i = 0; i < n; i++) {
			if (i)
				putc_unlocked(',', out);
			put_u64(out, p[i]);
		}
		putc_unlocked(']', out);
		return;
	}
	putc_unlocked('"', out);
	json_chars(out, s, n);
	putc_unlocked('"', out);
}

/*
 * An object key is always a string, one key per byte string: a byte that is
 * not part of valid UTF-8, and the backslash, are written as the four
 * characters \xNN (so the bytes \xff and the byte 0xff stay two keys).
 */
static void json_key(FILE *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;

	if (!memchr(s, '\\', n) && utf8_valid(p, n)) {
		pkv_json_string(out, s, n);
		return;
	}
	putc_unlocked('"', out);
	while (i < n) {
		size_t l = p[i] == '\\' ? 0 : utf8_seq(p + i, n - i);

		if (l) {
			i += l;
			continue;
		}
		json_chars(out, s + run, i - run);
		fputs_unlocked("\\\\x", out);
		putc_unlocked(hex[p[i] >> 4], out);
		putc_unlocked(hex[p[i] & 0xf], out);
		run = ++i;
	}
	json_chars(out, s + run, n - run);
	putc_unlocked('"', out);
}

static bool span_eq(struct pkv_span a, struct pkv_span b)
{
	return a.n == b.n && !memcmp(a.p, b.p, a.n);
}

/*
 * The dictionary as an object; a key that repeats gets an array of its
 * values in their order, as journalctl -o json writes repeated fields.
 */
static void write_dict(FILE *o, const struct pkv_record *r)
{
	size_t i, j;
	bool first = true;

	putc_unlocked('{', o);
	for (i = 0; i < r->ndict; i++) {
		struct pkv_span key = r->dict[i].key;
		size_t more = 0;

		for (j = 0; j < i && !span_eq(r->dict[j].key, key); j++)
			;
		if (j < i)	/* written with its first occurrence */
			continue;
		for (j = i + 1; j < r->ndict; j++)
			more += span_eq(r->dict[j].key, key);
		if (!first)
			putc_unlocked(',', o);
		first = false;
		json_key(o, key.p, key.n);
		putc_unlocked(':', o);
		if (!more) {
			pkv_json_string(o, r->dict[i].value.p, r->dict[i].value.n);
			continue;
		}
		putc_unlocked('[', o);
		for (j = i; j < r->ndict; j++) {
			if (!span_eq(r->dict[j].key, key))
				continue;
			if (j > i)
				putc_unlocked(',', o);
			pkv_json_string(o, r->dict[j].value.p, r->dict[j].value.n);
		}
		putc_unlocked(']', o);
	}
	putc_unlocked('}', o);
}

static void span(FILE *out, struct pkv_span s)
{
	pkv_json_string(out, s.p, s.n);
}

static void write_record(FILE *o, const struct pkv_record *r)
{
	size_t i;
	bool any = false;

	fputs_unlocked("{\"seq\":", o);
	put_u64(o, r->seq);
	fputs_unlocked(",\"ts_usec\":", o);
	put_u64(o, r->ts_usec);
	fputs_unlocked(",\"facility\":", o);
	put_u64(o, r->facility);
	fputs_unlocked(",\"level\":", o);
	put_u64(o, r->level);
	fputs_unlocked(r->cont ? ",\"cont\":true" : ",\"cont\":false", o);
	if (r->caller.n) {
		fputs_unlocked(",\"caller\":", o);
		span(o, r->caller);
	}
	{
		static const char *const source[] = {
			[PKV_KV_NONE] = ",\"structured\":false,\"prefix\":",
			[PKV_KV_TEXT] = ",\"structured\":true,\"kv\":\"text\",\"prefix\":",
			[PKV_KV_DICT] = ",\"structured\":true,\"kv\":\"dict\",\"prefix\":",
			[PKV_KV_UNMARKED] = ",\"structured\":true,\"kv\":\"unmarked\",\"prefix\":",
		};

		fputs_unlocked(source[r->kv_source], o);
	}
	span(o, r->prefix);
	fputs_unlocked(",\"msg\":", o);
	span(o, r->msg);
	fputs_unlocked(",\"fields\":{", o);
	for (i = 0; i < r->nfields; i++) {
		const struct pkv_field *f = &r->fields[i];

		if (i)
			putc_unlocked(',', o);
		span(o, f->key);
		putc_unlocked(':', o);
		if (f->type == PKV_STRING)
			span(o, f->value);
		else
			fwrite_unlocked(f->value.p, 1, f->value.n, o);
	}
	putc_unlocked('}', o);
	for (i = 0; i < r->nfields; i++) {
		if (!r->fields[i].cut)
			continue;
		fputs_unlocked(any ? "," : ",\"cut\":[", o);
		span(o, r->fields[i].key);
		any = true;
	}
	if (any)
		putc_unlocked(']', o);
	if (r->truncated)
		fputs_unlocked(",\"truncated\":true", o);
	if (r->kv_error) {
		fputs_unlocked(",\"kv_error\":", o);
		pkv_json_string(o, r->kv_error, strlen(r->kv_error));
	}
	{
		struct pkv_span keys[8];
		/* Not over a dictionary cut short: its missing lines would differ. */
		int bad = r->dict_dropped ? -1 : pkv_dict_compare(r, keys, 8);

		if (bad >= 0)
			fputs_unlocked(bad ? ",\"dict_agrees\":false" : ",\"dict_agrees\":true", o);
		for (int k = 0; k < bad && k < 8; k++) {
			fputs_unlocked(k ? "," : ",\"dict_mismatch\":[", o);
			span(o, keys[k]);
		}
		if (bad > 0)
			putc_unlocked(']', o);
	}
	fputs_unlocked(",\"dict\":", o);
	write_dict(o, r);
	if (r->dict_dropped) {
		fputs_unlocked(",\"dict_dropped\":", o);
		put_u64(o, r->dict_dropped);
	}
	fputs_unlocked(",\"text\":", o);
	span(o, r->text);
	putc_unlocked('}', o);
}

/* Re-indent compact JSON (strings are copied untouched). */
static void pretty_copy(FILE *out, const char *s, size_t n)
{
	int depth = 0;
	bool in_str = false;
	size_t i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (in_str) {
			putc_unlocked(c, out);
			if (c == '\\' && i + 1 < n)
				putc_unlocked(s[++i], out);
			else if (c == '"')
				in_str = false;
			continue;
		}
		switch (c) {
		case '"':
			in_str = true;
			putc_unlocked(c, out);
			break;
		case '{':
		case '[':
			if (i + 1 < n && (s[i + 1] == '}' || s[i + 1] == ']')) {
				putc_unlocked(c, out);
				putc_unlocked(s[++i], out);
				break;
			}
			fprintf(out, "%c\n%*s", c, 2 * ++depth, "");
			break;
		case '}':
		case ']':
			fprintf(out, "\n%*s%c", 2 * --depth, "", c);
			break;
		case ',':
			fprintf(out, ",\n%*s", 2 * depth, "");
			break;
		case ':':
			fputs(": ", out);
			break;
		default:
			putc_unlocked(c, out);
		}
	}
}

/* Write one object through @fn, compact or pretty, then a newline. */
static int emit(struct pkv_json *j, void (*fn)(FILE *, const void *), const void *arg)
{
	if (j->pretty) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (!m)
			return -1;
		fn(m, arg);
		if (fclose(m)) {
			free(buf);
			return -1;
		}
		pretty_copy(j->out, buf, len);
		free(buf);
	} else {
		fn(j->out, arg);
	}
	putc_unlocked('\n', j->out);
	return ferror(j->out) ? -1 : 0;
}

static void record_fn(FILE *o, const void *arg)
{
	write_record(o, arg);
}

int pkv_json_record(struct pkv_json *j, const struct pkv_record *r)
{
	return emit(j, record_fn, r);
}

struct malformed {
	const char *why, *raw;
	size_t len, total;
};

static void malformed_fn(FILE *o, const void *arg)
{
	const struct malformed *m = arg;

	fputs("{\"error\":", o);
	pkv_json_string(o, m->why, strlen(m->why));
	fputs(",\"raw\":", o);
	pkv_json_string(o, m->raw, m->len);
	fprintf(o, ",\"raw_bytes\":%zu", m->total);
	if (m->total > m->len)
		fputs(",\"raw_truncated\":true", o);
	putc_unlocked('}', o);
}

int pkv_json_malformed(struct pkv_json *j, const char *why, const char *raw,
		       size_t len, size_t total)
{
	struct malformed m = { why, raw, len, total };

	return emit(j, malformed_fn, &m);
}

static void gap_fn(FILE *o, const void *arg)
{
	const struct pkv_gap *g = arg;

	fputs("{\"gap\":true,\"reason\":", o);
	pkv_json_string(o, g->reason, strlen(g->reason));
	if (g->lost_known)
		fprintf(o, ",\"lost\":%" PRIu64, g->lost);
	else
		fputs(",\"lost\":null", o);
	if (g->have_after)
		fprintf(o, ",\"after_seq\":%" PRIu64, g->after_seq);
	if (g->have_next)
		fprintf(o, ",\"next_seq\":%" PRIu64 "}", g->next_seq);
	else
		fputs(",\"next_seq\":null}", o);
}

int pkv_json_gap(struct pkv_json *j, const struct pkv_gap *g)
{
	return emit(j, gap_fn, g);
}

static void back_fn(FILE *o, const void *arg)
{
	const struct pkv_gap *g = arg;

	fprintf(o, "{\"new_boot\":true,\"after_seq\":%" PRIu64 ",\"next_seq\":%" PRIu64 "}",
		g->after_seq, g->next_seq);
}

int pkv_json_seq_back(struct pkv_json *j, uint64_t after_seq, uint64_t next_seq)
{
	struct pkv_gap g = { .after_seq = after_seq, .next_seq = next_seq };

	return emit(j, back_fn, &g);
}

int pkv_json_seq_event(struct pkv_json *j, const struct pkv_seq_event *ev, uint64_t seq)
{
	if (ev->new_boot && pkv_json_seq_back(j, ev->boot_after, seq))
		return -1;
	if (ev->gap && pkv_json_gap(j, &ev->g))
		return -1;
	return 0;
}
