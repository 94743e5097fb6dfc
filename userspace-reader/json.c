// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * JSON output, one object per record. Strings that are not valid UTF-8 are
 * written as arrays of byte values, as journalctl -o json writes binary
 * fields, so every output line is valid JSON and every byte survives.
 *
 * The writer owns its output buffer: objects are appended to it with
 * plain stores, and it goes to the sink (a write(2) loop on an fd, or the
 * caller's function) in blocks of PKV_JSON_BLOCK bytes, between objects.
 * Strings are escaped in one pass, eight bytes at a time while they hold
 * nothing to escape and no byte >= 0x80, which is most kernel text.
 */
#include "internal.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Output is handed to the sink in blocks of about this size. */
#define PKV_JSON_BLOCK	(64u << 10)

struct pkv_json {
	pkv_json_sink sink;
	void *ctx;
	int fd;
	unsigned int flags;
	char *buf;		/* the output not yet given to the sink */
	size_t len, cap;
	char *obj;		/* pretty: the compact object, then re-indented */
	size_t obj_len, obj_cap;
	int err;		/* the first failure, sticky */
	bool have_boot;		/* "time" from the boot's wall-clock time */
	int64_t boot_usec;
	uint32_t select;	/* record members kept (MEMBER_*); 0: all */
};

/* A record object's members, for pkv_json_select(). */
static const char *const member_names[] = {
	"seq", "ts_usec", "time", "facility", "level", "cont", "caller", "structured",
	"kv", "prefix", "msg", "fields", "cut", "truncated", "kv_error", "dict_agrees",
	"dict_mismatch", "dict", "dict_dropped", "text",
};
#define N_MEMBERS	(sizeof(member_names) / sizeof(member_names[0]))

/* The sink of pkv_json_new(): all of it to the fd, waiting when it is full. */
static int fd_sink(void *ctx, const char *p, size_t n)
{
	int fd = *(const int *)ctx;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w > 0) {
			p += w;
			n -= (size_t)w;
		} else if (w < 0 && errno == EAGAIN) {
			/* An inherited non-blocking descriptor: its flags are the caller's. */
			struct pollfd pfd = { .fd = fd, .events = POLLOUT };

			if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
				return -errno;
		} else if (w < 0 && errno != EINTR) {
			return -errno;
		} else if (w == 0) {
			return -EIO;
		}
	}
	return 0;
}

int pkv_json_new_sink(struct pkv_json **jp, pkv_json_sink sink, void *ctx,
		      unsigned int flags)
{
	struct pkv_json *j;

	*jp = NULL;
	if (!sink || (flags & ~(PKV_JSON_PRETTY | PKV_JSON_SEQ)) ||
	    (flags & PKV_JSON_PRETTY && flags & PKV_JSON_SEQ))
		return -EINVAL;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->cap = 2 * PKV_JSON_BLOCK;
	j->buf = malloc(j->cap);
	if (!j->buf) {
		free(j);
		return -ENOMEM;
	}
	j->sink = sink;
	j->ctx = ctx;
	j->fd = -1;
	j->flags = flags;
	*jp = j;
	return 0;
}

int pkv_json_new(struct pkv_json **jp, int fd, unsigned int flags)
{
	int err;

	if (fd < 0) {
		*jp = NULL;
		return -EBADF;
	}
	err = pkv_json_new_sink(jp, fd_sink, NULL, flags);
	if (err)
		return err;
	(*jp)->fd = fd;
	(*jp)->ctx = &(*jp)->fd;
	return 0;
}

void pkv_json_free(struct pkv_json *j)
{
	if (!j)
		return;
	free(j->buf);
	free(j->obj);
	free(j);
}

int pkv_json_flush(struct pkv_json *j)
{
	if (!j->err && j->len) {
		j->err = j->sink(j->ctx, j->buf, j->len);
		if (j->err > 0)
			j->err = -EIO;
	}
	j->len = 0;
	return j->err;
}

/*
 * Room for @n more bytes at the end of the buffer. Grows it for an object
 * larger than the block (a record has a bounded size), or fails sticky.
 */
static char *grow(struct pkv_json *j, size_t n)
{
	size_t cap = j->cap;
	char *p;

	while (cap - j->len < n)
		cap *= 2;
	p = realloc(j->buf, cap);
	if (!p) {
		j->err = -ENOMEM;
		return NULL;
	}
	j->buf = p;
	j->cap = cap;
	return j->buf + j->len;
}

PKV_INLINE char *room(struct pkv_json *j, size_t n)
{
	if (__builtin_expect(j->cap - j->len >= n, 1))
		return j->buf + j->len;
	return grow(j, n);
}

PKV_INLINE void put(struct pkv_json *j, const char *p, size_t n)
{
	char *o = room(j, n);

	if (!o)
		return;
	pkv_copy(o, p, n);
	j->len += n;
}

#define PUT_LIT(j, s)	put(j, s, sizeof(s) - 1)

PKV_INLINE void put_c(struct pkv_json *j, char c)
{
	char *o = room(j, 1);

	if (!o)
		return;
	*o = c;
	j->len++;
}

/* Decimal digits of @v, two at a time. */
PKV_INLINE void put_u64(struct pkv_json *j, uint64_t v)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	/* The digits end at buf + 20; the fixed copy below reads 20 from them. */
	char buf[40], *p = buf + 20, *o = room(j, 20);

	if (!o)
		return;
	memset(buf + 20, 0, 20);	/* copied, never kept: defined for valgrind */
	while (v >= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	/* At most 20 digits: a fixed-size copy, what follows them overwritten later. */
	memcpy(o, p, 20);
	j->len += (size_t)(buf + 20 - p);
}


/* Bytes a JSON string must escape: controls, '"', '\\', and DEL for readability. */
static const unsigned char json_escape[256] = {
	[0 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1, [0x7f] = 1,
};

/* Room for a string of @n bytes: each may take six, and a word is stored whole. */
#define ROOM(n)	(6 * (n) + 2 + 8)

/*
 * The last @left (< 8) bytes of a string at @p as a word, padded with a
 * byte that needs no care; without a call. @behind: the 8 bytes before
 * @p + @left are the string's, so one load ends at its last byte.
 */
static inline uint64_t load_tail(const unsigned char *p, size_t left, bool behind)
{
	uint64_t w, pad = ~0ull << (8 * left);

	if (behind) {
		memcpy(&w, p + left - 8, 8);
		w >>= 8 * (8 - left);
	} else if (left >= 4) {
		uint32_t a, b;

		memcpy(&a, p, 4);
		memcpy(&b, p + left - 4, 4);
		w = a | (uint64_t)b << (8 * (left - 4));
	} else if (left) {
		/* Bytes 0, left / 2 and left - 1 are all of one to three. */
		w = p[0] | (uint64_t)p[left / 2] << (8 * (left / 2)) |
		    (uint64_t)p[left - 1] << (8 * (left - 1));
	} else {
		w = 0;
	}
	return (w & ~pad) | (ONES * 'a' & pad);
}

/*
 * Write @n bytes as the inside of a JSON string at @o, which has room for
 * ROOM(@n). Returns the end, or NULL at the first byte that is not part of
 * valid UTF-8 (nothing of it is then to be kept).
 */
PKV_INLINE char *json_chars_inline(char *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		unsigned char c;

		uint64_t w, care;
		size_t safe, left = n - i;

		if (__builtin_expect(left >= 8, 1))
			memcpy(&w, p + i, 8);
		else
			w = load_tail(p + i, left, n >= 8);
		care = word_needs_care(w);
		/* Copy all eight; keep those below the first to look at. */
		memcpy(o, &w, 8);
		safe = care ? (size_t)__builtin_ctzll(care) / 8 : 8;
		if (safe >= left) {
			o += left;
			break;
		}
		o += safe;
		i += safe;
		if (safe == 8)
			continue;
		c = p[i];
		if (c >= 0x80) {
			size_t l = pkv_utf8_seq(p + i, n - i, NULL);

			if (!l)
				return NULL;
			memcpy(o, p + i, l);
			o += l;
			i += l;
			continue;
		}
		i++;
		if (!json_escape[c]) {
			*o++ = (char)c;
			continue;
		}
		*o++ = '\\';
		switch (c) {
		case '"':
		case '\\':
			*o++ = (char)c;
			break;
		case '\n':
			*o++ = 'n';
			break;
		case '\t':
			*o++ = 't';
			break;
		case '\r':
			*o++ = 'r';
			break;
		default:
			memcpy(o, "u00", 3);
			o[3] = hex[c >> 4];
			o[4] = hex[c & 0xf];
			o += 5;
		}
	}
	return o;
}

/* @n bytes that are not valid UTF-8, as an array of their values. */
static void put_byte_array(struct pkv_json *j, const unsigned char *p, size_t n)
{
	char *o = room(j, 4 * n + 2), *start = o;
	size_t i;

	if (!o)
		return;
	*o++ = '[';
	for (i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (i)
			*o++ = ',';
		if (c >= 100)
			*o++ = (char)('0' + c / 100);
		if (c >= 10)
			*o++ = (char)('0' + c / 10 % 10);
		*o++ = (char)('0' + c % 10);
	}
	*o++ = ']';
	j->len += (size_t)(o - start);
}

/* The same, out of line, for the rare paths. */
static char *json_chars(char *o, const char *s, size_t n)
{
	return json_chars_inline(o, s, n);
}

PKV_INLINE void put_string(struct pkv_json *j, const char *s, size_t n)
{
	char *o = room(j, ROOM(n)), *end;

	if (!o)
		return;
	*o = '"';
	end = json_chars_inline(o + 1, s, n);
	if (!end) {
		put_byte_array(j, (const unsigned char *)s, n);
		return;
	}
	*end++ = '"';
	j->len += (size_t)(end - o);
}

int pkv_json_string(struct pkv_json *j, const char *s, size_t n)
{
	put_string(j, s, n);
	return j->err;
}

/*
 * An object key is always a string, one key per byte string: a byte that is
 * not part of valid UTF-8, and the backslash, are written as the four
 * characters \xNN (so the bytes \xff and the byte 0xff stay two keys).
 */
PKV_INLINE void put_key(struct pkv_json *j, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	char *o, *start;
	size_t i = 0, run = 0;

	if (find_byte(s, s + n, '\\') == s + n) {
		o = room(j, ROOM(n));
		if (!o)
			return;
		*o = '"';
		start = json_chars_inline(o + 1, s, n);
		if (start) {
			*start++ = '"';
			j->len += (size_t)(start - o);
			return;
		}
	}
	o = start = room(j, ROOM(n));
	if (!o)
		return;
	*o++ = '"';
	while (i < n) {
		size_t l = p[i] == '\\' ? 0 : pkv_utf8_seq(p + i, n - i, NULL);

		if (l) {
			i += l;
			continue;
		}
		o = json_chars(o, s + run, i - run);
		memcpy(o, "\\\\x", 3);
		o[3] = hex[p[i] >> 4];
		o[4] = hex[p[i] & 0xf];
		o += 5;
		run = ++i;
	}
	o = json_chars(o, s + run, n - run);
	*o++ = '"';
	j->len += (size_t)(o - start);
}

PKV_INLINE void span(struct pkv_json *j, struct pkv_span s)
{
	put_string(j, s.p, s.n);
}

/*
 * A string the block's grammar holds to printable ASCII without '"' or
 * '\\' (a field key, a bare value): nothing to escape or to check.
 */
PKV_INLINE void plain_span(struct pkv_json *j, struct pkv_span s)
{
	char *o = room(j, s.n + 2);

	if (!o)
		return;
	o[0] = '"';
	pkv_copy(o + 1, s.p, s.n);
	o[s.n + 1] = '"';
	j->len += s.n + 2;
}

PKV_INLINE bool span_eq(struct pkv_span a, struct pkv_span b)
{
	return a.n == b.n && pkv_equal(a.p, b.p, a.n);
}

/* Where a string went in the output, to be copied instead of escaped again. */
struct written {
	size_t at, len;
};

PKV_INLINE struct written put_span_at(struct pkv_json *j, struct pkv_span s)
{
	struct written w = { .at = j->len };

	put_string(j, s.p, s.n);
	w.len = j->len - w.at;
	return w;
}

/* The inside of a string written at @w; false when it went out as bytes. */
static bool inside(const struct pkv_json *j, struct written w, struct written *in)
{
	if (w.len < 2 || j->buf[w.at] != '"')
		return false;
	in->at = w.at + 1;
	in->len = w.len - 2;
	return true;
}

/*
 * The dictionary as an object; a key that repeats gets an array of its
 * values in their order, as journalctl -o json writes repeated fields.
 */
static void write_dict(struct pkv_json *j, const struct pkv_record *r,
		       struct written *mark)
{
	static const struct pkv_span printk_kv = { "PRINTK_KV", 9 };
	uint32_t sig[PKV_MAX_DICT];
	size_t i, k;
	bool first = true, dup = false;

	/* Keys compared as length and end bytes first: most differ there. */
	for (i = 0; i < r->ndict; i++) {
		struct pkv_span key = r->dict[i].key;

		sig[i] = key.n ? (uint32_t)key.n << 16 | (unsigned char)key.p[0] << 8 |
				 (unsigned char)key.p[key.n - 1] : 0;
	}
	for (i = 1; i < r->ndict && !dup; i++)
		for (k = 0; k < i && !dup; k++)
			dup = sig[k] == sig[i];
	put_c(j, '{');
	/* The usual dictionary: no key twice. */
	for (i = 0; i < r->ndict && !dup; i++) {
		struct pkv_span key = r->dict[i].key;

		if (i)
			put_c(j, ',');
		put_key(j, key.p, key.n);
		put_c(j, ':');
		if (span_eq(key, printk_kv))
			*mark = put_span_at(j, r->dict[i].value);
		else
			span(j, r->dict[i].value);
	}
	for (i = 0; i < r->ndict && dup; i++) {
		struct pkv_span key = r->dict[i].key;
		size_t more = 0;

		for (k = 0; k < i && !(sig[k] == sig[i] && span_eq(r->dict[k].key, key)); k++)
			;
		if (k < i)	/* written with its first occurrence */
			continue;
		for (k = i + 1; k < r->ndict; k++)
			more += sig[k] == sig[i] && span_eq(r->dict[k].key, key);
		if (!first)
			put_c(j, ',');
		first = false;
		put_key(j, key.p, key.n);
		put_c(j, ':');
		if (!more) {
			if (span_eq(key, printk_kv))
				*mark = put_span_at(j, r->dict[i].value);
			else
				span(j, r->dict[i].value);
			continue;
		}
		put_c(j, '[');
		for (k = i; k < r->ndict; k++) {
			if (sig[k] != sig[i] || !span_eq(r->dict[k].key, key))
				continue;
			if (k > i)
				put_c(j, ',');
			span(j, r->dict[k].value);
		}
		put_c(j, ']');
	}
	put_c(j, '}');
}

/* Append output bytes written before (an offset: room() may move them). */
PKV_INLINE void copy_inside(struct pkv_json *j, struct written in)
{
	char *o = room(j, in.len);

	if (o) {
		pkv_copy(o, j->buf + in.at, in.len);
		j->len += in.len;
	}
}

/*
 * The record's text. It is made of what was escaped already: all of it is
 * the msg of a record without a block; a marked block's text is its
 * prefix, "[kv ", the block (the same bytes as PRINTK_KV), "]", and a
 * space and the msg. Escaping works byte by byte on valid UTF-8, so the
 * pieces' escapes, copied, are the text's; a piece written as bytes (not
 * UTF-8) or a text of another shape is escaped whole.
 */
static inline void put_text(struct pkv_json *j, const struct pkv_record *r,
		     struct written prefix, struct written msg, struct written mark)
{
	const char *t = r->text.p, *b = t + r->prefix.n + 4, *after;
	struct written pi, mi, ki;
	size_t rest;

	if (j->err)
		return;
	if (r->msg.p == t && r->msg.n == r->text.n && inside(j, msg, &mi)) {
		put_c(j, '"');
		copy_inside(j, mi);
		put_c(j, '"');
		return;
	}
	after = b + r->block.n;
	if (r->kv_source != PKV_KV_TEXT || r->truncated || !mark.len ||
	    r->prefix.p != t || r->block.p != b || after >= t + r->text.n || *after != ']')
		goto whole;
	rest = (size_t)(t + r->text.n - after - 1);
	if (rest ? after[1] != ' ' || r->msg.p != after + 2 || r->msg.n != rest - 1 : r->msg.n != 0)
		goto whole;
	if (!inside(j, prefix, &pi) || !inside(j, mark, &ki) || !inside(j, msg, &mi))
		goto whole;
	put_c(j, '"');
	copy_inside(j, pi);
	PUT_LIT(j, "[kv ");
	copy_inside(j, ki);
	if (rest)
		PUT_LIT(j, "] ");
	else
		put_c(j, ']');
	copy_inside(j, mi);
	put_c(j, '"');
	return;
whole:
	span(j, r->text);
}

/* ,"time":"2026-12-07T10:11:12.123456Z": UTC, to the microsecond. */
static void put_time(struct pkv_json *j, int64_t usec)
{
	time_t s = (time_t)(usec / 1000000);
	struct tm tm;
	char buf[64], *o;
	size_t n;

	if (!gmtime_r(&s, &tm))
		return;
	n = strftime(buf, sizeof(buf), ",\"time\":\"%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, sizeof(buf) - n, ".%06lldZ\"", (long long)(usec % 1000000));
	/* What snprintf() kept: a year of many digits is cut, never overread. */
	n = strlen(buf);
	o = room(j, n);
	if (o) {
		memcpy(o, buf, n);
		j->len += n;
	}
}

int pkv_json_set_boot_time(struct pkv_json *j, int64_t boot_usec)
{
	j->have_boot = true;
	j->boot_usec = boot_usec;
	return 0;
}

int pkv_json_select(struct pkv_json *j, const char *members)
{
	uint32_t mask = 0;
	const char *p = members;

	while (*p) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p), i;

		for (i = 0; i < N_MEMBERS; i++)
			if (strlen(member_names[i]) == n && !memcmp(member_names[i], p, n))
				break;
		if (i == N_MEMBERS)
			return -EINVAL;
		mask |= 1u << i;
		p += n + (e != NULL);
	}
	if (!mask)
		return -EINVAL;
	j->select = mask;
	return 0;
}

/* Is the member @key (@n bytes, unquoted) of a record object kept? */
static bool member_kept(const struct pkv_json *j, const char *key, size_t n)
{
	size_t i;

	for (i = 0; i < N_MEMBERS; i++)
		if (strlen(member_names[i]) == n && !memcmp(member_names[i], key, n))
			return j->select & (1u << i);
	return true;
}

/*
 * Keep only the selected members of the compact record object written
 * at @start: its top-level "key":value pairs are found by their commas
 * outside strings and brackets.
 */
static void select_members(struct pkv_json *j, size_t start)
{
	char *b = j->buf, *end = j->buf + j->len, *p = b + start + 1, *o = p;
	bool first = true;

	while (p < end && *p == '"') {
		char *key = p + 1, *k_end = memchr(key, '"', (size_t)(end - key)), *v;
		int depth = 0;
		bool in_str = false;

		if (!k_end)
			return;
		for (v = k_end + 2; v < end; v++) {
			if (in_str) {
				if (*v == '\\')
					v++;
				else if (*v == '"')
					in_str = false;
			} else if (*v == '"') {
				in_str = true;
			} else if (*v == '{' || *v == '[') {
				depth++;
			} else if (*v == '}' || *v == ']') {
				if (!depth)
					break;
				depth--;
			} else if (*v == ',' && !depth) {
				break;
			}
		}
		if (member_kept(j, key, (size_t)(k_end - key))) {
			if (!first)
				*o++ = ',';
			memmove(o, p, (size_t)(v - p));
			o += v - p;
			first = false;
		}
		p = v + (v < end && *v == ',');
	}
	*o++ = '}';
	j->len = (size_t)(o - b);
}

static void write_record(struct pkv_json *j, const struct pkv_record *r)
{
#define SOURCE(s)	{ s, sizeof(s) - 1 }
	static const struct {
		const char *s;
		size_t n;
	} source[] = {
		[PKV_KV_NONE] = SOURCE(",\"structured\":false,\"prefix\":"),
		[PKV_KV_TEXT] = SOURCE(",\"structured\":true,\"kv\":\"text\",\"prefix\":"),
		[PKV_KV_DICT] = SOURCE(",\"structured\":true,\"kv\":\"dict\",\"prefix\":"),
		[PKV_KV_UNMARKED] = SOURCE(",\"structured\":true,\"kv\":\"unmarked\",\"prefix\":"),
	};
#undef SOURCE
	struct written prefix, msg, mark = { 0 };
	struct pkv_span keys[8];
	size_t i;
	bool any = false;
	int bad;

	PUT_LIT(j, "{\"seq\":");
	put_u64(j, r->seq);
	PUT_LIT(j, ",\"ts_usec\":");
	put_u64(j, r->ts_usec);
	if (j->have_boot)
		put_time(j, j->boot_usec + (int64_t)r->ts_usec);
	PUT_LIT(j, ",\"facility\":");
	if (r->facility < 10)
		put_c(j, (char)('0' + r->facility));
	else
		put_u64(j, r->facility);
	PUT_LIT(j, ",\"level\":");
	put_c(j, (char)('0' + (r->level & 7)));
	if (r->cont)
		PUT_LIT(j, ",\"cont\":true");
	else
		PUT_LIT(j, ",\"cont\":false");
	if (r->caller.n) {
		PUT_LIT(j, ",\"caller\":");
		span(j, r->caller);
	}
	put(j, source[r->kv_source].s, source[r->kv_source].n);
	prefix = put_span_at(j, r->prefix);
	PUT_LIT(j, ",\"msg\":");
	msg = put_span_at(j, r->msg);
	PUT_LIT(j, ",\"fields\":{");
	for (i = 0; i < r->nfields; i++) {
		const struct pkv_field *f = &r->fields[i];

		if (i)
			put_c(j, ',');
		plain_span(j, f->key);
		put_c(j, ':');
		if (f->type == PKV_STRING && f->quoted)
			span(j, f->value);
		else if (f->type == PKV_STRING)
			plain_span(j, f->value);
		else
			put(j, f->value.p, f->value.n);
	}
	put_c(j, '}');
	for (i = 0; i < r->nfields; i++) {
		if (!r->fields[i].cut)
			continue;
		if (any)
			put_c(j, ',');
		else
			PUT_LIT(j, ",\"cut\":[");
		span(j, r->fields[i].key);
		any = true;
	}
	if (any)
		put_c(j, ']');
	if (r->truncated)
		PUT_LIT(j, ",\"truncated\":true");
	if (r->kv_error) {
		PUT_LIT(j, ",\"kv_error\":");
		put_string(j, r->kv_error, strlen(r->kv_error));
	}
	/* Not over a dictionary cut short: its missing lines would differ. */
	bad = r->dict_dropped ? -1 : pkv_dict_compare(r, keys, 8);
	if (bad == 0)
		PUT_LIT(j, ",\"dict_agrees\":true");
	else if (bad > 0)
		PUT_LIT(j, ",\"dict_agrees\":false");
	for (int k = 0; k < bad && k < 8; k++) {
		if (k)
			put_c(j, ',');
		else
			PUT_LIT(j, ",\"dict_mismatch\":[");
		span(j, keys[k]);
	}
	if (bad > 0)
		put_c(j, ']');
	PUT_LIT(j, ",\"dict\":");
	write_dict(j, r, &mark);
	if (r->dict_dropped) {
		PUT_LIT(j, ",\"dict_dropped\":");
		put_u64(j, r->dict_dropped);
	}
	PUT_LIT(j, ",\"text\":");
	put_text(j, r, prefix, msg, mark);
	put_c(j, '}');
}

/* Re-indent the compact JSON of @s into @j (strings are copied untouched). */
static void pretty_copy(struct pkv_json *j, const char *s, size_t n)
{
	int depth = 0;
	bool in_str = false;
	size_t i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (in_str) {
			put_c(j, c);
			if (c == '\\' && i + 1 < n)
				put_c(j, s[++i]);
			else if (c == '"')
				in_str = false;
			continue;
		}
		switch (c) {
		case '"':
			in_str = true;
			put_c(j, c);
			break;
		case '{':
		case '[':
			if (i + 1 < n && (s[i + 1] == '}' || s[i + 1] == ']')) {
				put_c(j, c);
				put_c(j, s[++i]);
				break;
			}
			put_c(j, c);
			put_c(j, '\n');
			depth++;
			for (int k = 0; k < 2 * depth; k++)
				put_c(j, ' ');
			break;
		case '}':
		case ']':
			put_c(j, '\n');
			depth--;
			for (int k = 0; k < 2 * depth; k++)
				put_c(j, ' ');
			put_c(j, c);
			break;
		case ',':
			put_c(j, ',');
			put_c(j, '\n');
			for (int k = 0; k < 2 * depth; k++)
				put_c(j, ' ');
			break;
		case ':':
			PUT_LIT(j, ": ");
			break;
		default:
			put_c(j, c);
		}
	}
}

/*
 * Start an object: with PRETTY it is written compact at the buffer's end,
 * then moved out and re-indented in end_object().
 */
static size_t begin_object(struct pkv_json *j)
{
	/* RFC 7464: each text after a record separator. */
	if (j->flags & PKV_JSON_SEQ)
		put_c(j, '\x1e');
	return j->len;
}

static int end_object(struct pkv_json *j, size_t start)
{
	if (j->err) {
		j->len = start;
		return j->err;
	}
	if (j->flags & PKV_JSON_PRETTY) {
		size_t n = j->len - start;

		if (j->obj_cap < n) {
			char *p = realloc(j->obj, n);

			if (!p) {
				j->len = start;
				return j->err = -ENOMEM;
			}
			j->obj = p;
			j->obj_cap = n;
		}
		memcpy(j->obj, j->buf + start, n);
		j->len = start;
		pretty_copy(j, j->obj, n);
	}
	put_c(j, '\n');
	if (j->len >= PKV_JSON_BLOCK)
		pkv_json_flush(j);
	return j->err;
}

int pkv_json_record(struct pkv_json *j, const struct pkv_record *r)
{
	size_t at = begin_object(j);

	write_record(j, r);
	if (j->select && !j->err)
		select_members(j, at);
	return end_object(j, at);
}

int pkv_json_malformed(struct pkv_json *j, const char *why, const char *raw,
		       size_t len, size_t total)
{
	size_t at = begin_object(j);

	PUT_LIT(j, "{\"error\":");
	put_string(j, why, strlen(why));
	PUT_LIT(j, ",\"raw\":");
	put_string(j, raw, len);
	PUT_LIT(j, ",\"raw_bytes\":");
	put_u64(j, total);
	if (total > len)
		PUT_LIT(j, ",\"raw_truncated\":true");
	put_c(j, '}');
	return end_object(j, at);
}

static void put_u64_or_null(struct pkv_json *j, bool known, uint64_t v)
{
	if (known)
		put_u64(j, v);
	else
		PUT_LIT(j, "null");
}

int pkv_json_gap(struct pkv_json *j, const struct pkv_gap *g)
{
	size_t at = begin_object(j);

	PUT_LIT(j, "{\"gap\":true,\"reason\":");
	put_string(j, g->reason, strlen(g->reason));
	PUT_LIT(j, ",\"lost\":");
	put_u64_or_null(j, g->lost_known, g->lost);
	PUT_LIT(j, ",\"after_seq\":");
	put_u64_or_null(j, g->have_after, g->after_seq);
	PUT_LIT(j, ",\"next_seq\":");
	put_u64_or_null(j, g->have_next, g->next_seq);
	put_c(j, '}');
	return end_object(j, at);
}

int pkv_json_seq_back(struct pkv_json *j, uint64_t after_seq, uint64_t next_seq)
{
	size_t at = begin_object(j);

	PUT_LIT(j, "{\"new_boot\":true,\"after_seq\":");
	put_u64(j, after_seq);
	PUT_LIT(j, ",\"next_seq\":");
	put_u64(j, next_seq);
	put_c(j, '}');
	return end_object(j, at);
}

int pkv_json_seq_event(struct pkv_json *j, const struct pkv_seq_event *ev, uint64_t seq)
{
	int err = 0;

	if (ev->new_boot)
		err = pkv_json_seq_back(j, ev->boot_after, seq);
	if (!err && ev->gap)
		err = pkv_json_gap(j, &ev->g);
	return err;
}
