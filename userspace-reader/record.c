// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One /dev/kmsg record: "prio,seq,ts_usec,flags[,key=value...];text\n" and
 * its dictionary lines " KEY=value\n" (Documentation/ABI/testing/dev-kmsg).
 * The kernel writes bytes < 0x20, >= 0x7f and '\' of text and values as
 * \xNN; nothing else is escaped, so every other backslash is an error.
 */
#include "internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(struct pkv_record *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct pkv_record *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

int pkv_record_new(struct pkv_record **rp, size_t record_max)
{
	struct pkv_record *r;

	*rp = NULL;
	if (!record_max)
		record_max = PKV_RECORD_MAX;
	if (record_max < 64 || record_max > SIZE_MAX / 4)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->version = PKV_RECORD_VERSION;
	r->record_max = record_max;
	/*
	 * The copy of the record (and a word), the lines decoded out of it
	 * (never longer), and the block's values: decoding never grows a
	 * span, but the block's hex numbers become up to 21 bytes each.
	 */
	r->store_size = 4 * record_max + 8;
	r->store = malloc(r->store_size);
	r->dict = calloc(PKV_MAX_DICT, sizeof(*r->dict));
	r->fields = calloc(PKV_MAX_FIELDS, sizeof(*r->fields));
	if (!r->store || !r->dict || !r->fields) {
		pkv_record_free(r);
		return -ENOMEM;
	}
	*rp = r;
	return 0;
}

void pkv_record_free(struct pkv_record *r)
{
	if (!r)
		return;
	free(r->store);
	free(r->dict);
	free(r->fields);
	free(r);
}

/* /dev/kmsg writes \\xNN in lowercase; either case is read. */
static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long pkv_unescape_kmsg(char *dst, const char *src, size_t n, size_t *bad)
{
	size_t i = 0, o = 0;

	while (i < n) {
		const char *bs = memchr(src + i, '\\', n - i);
		size_t run = bs ? (size_t)(bs - (src + i)) : n - i;
		int hi, lo;

		/* Runs without escapes are most of every record: copy them whole. */
		memcpy(dst + o, src + i, run);
		o += run;
		i += run;
		if (i == n)
			break;
		if (n - i < 4) {
			*bad = i;
			return -EINVAL;
		}
		hi = hexval(src[i + 2]);
		lo = hexval(src[i + 3]);
		if (src[i + 1] != 'x' || hi < 0 || lo < 0) {
			*bad = i;
			return -EINVAL;
		}
		dst[o++] = (char)(hi << 4 | lo);
		i += 4;
	}
	return (long)o;
}

/* Parse a decimal u64 from [p, end); returns the end of the digits or NULL. */
static inline __attribute__((always_inline))
const char *parse_u64(const char *p, const char *end, uint64_t *v)
{
	const char *s = p;
	uint64_t x = 0;

	for (; p < end; p++) {
		unsigned int d = (unsigned char)(*p - '0');

		if (d > 9)
			break;
		/* Nineteen digits cannot overflow; past them, check. */
		if (__builtin_expect(p - s >= 19, 0) && x > (UINT64_MAX - d) / 10)
			return NULL;
		x = x * 10 + d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

/* Decode the escapes of [p, p + n) into the record's storage. */
static int unescape(struct pkv_record *r, const char *p, size_t n,
		    struct pkv_span *out, const char *what, size_t base)
{
	char *dst = pkv_take(r, n);
	size_t bad;
	long len;

	if (!dst)
		return fail(r, "record too large to decode");
	len = pkv_unescape_kmsg(dst, p, n, &bad);
	if (len < 0)
		return fail(r, "invalid escape in %s at byte %zu", what, base + bad);
	r->used -= n - (size_t)len;
	out->p = dst;
	out->n = (size_t)len;
	return 0;
}

static int parse_header(struct pkv_record *r, const char *p, const char *end)
{
	uint64_t prio;
	const char *q;

	q = parse_u64(p, end, &prio);
	/* The kernel writes (facility << 3) | level, its facility a u8. */
	if (!q || q == end || *q != ',' || prio > 2047)
		return fail(r, "bad priority field");
	r->facility = (unsigned int)(prio >> 3);
	r->level = (unsigned int)(prio & 7);
	q = parse_u64(q + 1, end, &r->seq);
	if (!q || q == end || *q != ',')
		return fail(r, "bad sequence number");
	q = parse_u64(q + 1, end, &r->ts_usec);
	if (!q || q == end || *q != ',')
		return fail(r, "bad timestamp");
	p = q + 1;
	q = find_byte(p, end, ',');
	if (q == p)
		return fail(r, "empty flags field");
	r->cont = find_byte(p, q, 'c') != q;
	/* Later fields are key=value; unknown ones are ignored, as the ABI asks. */
	while (q < end) {
		const char *f = q + 1, *fe = find_byte(f, end, ',');

		if (fe - f > 7 && !memcmp(f, "caller=", 7)) {
			r->caller.p = f + 7;
			r->caller.n = (size_t)(fe - f - 7);
		}
		q = fe;
	}
	return 0;
}

/*
 * The bytes of a little-endian word that stop a scan of the record: the
 * controls (the kernel escapes all but the newline that ends a line; NUL
 * is damage) and @c. Exact below the lowest; bytes >= 0x80 never stop it.
 */
static inline uint64_t word_stops(uint64_t w, char c)
{
	return ((w - ONES * 0x20) | ((w ^ ONES * (unsigned char)c) - ONES)) & ~w & HIGHS;
}

/* The first control or @c at or after @p; the copy's sentinel ends it. */
static inline const char *next_stop(const char *p, char c)
{
	for (;; p += 8) {
		uint64_t w, m;

		memcpy(&w, p, 8);
		m = word_stops(w, c);
		if (m)
			return p + __builtin_ctzll(m) / 8;
	}
}

/*
 * The record failed at a line: a NUL byte later on is the error to report,
 * as the stream is damaged rather than the record malformed.
 */
static int line_failed(struct pkv_record *r, const char *copy, const char *p,
		       const char *end)
{
	const char *nul = memchr(p, '\0', (size_t)(end - p));

	if (nul)
		return fail(r, "NUL byte at offset %zu", (size_t)(nul - copy));
	return -EBADMSG;
}

/* A dictionary line " KEY=value" in [ls, le), escaped or not. */
static int dict_line(struct pkv_record *r, const char *copy, const char *ls,
		     const char *le, bool escaped)
{
	const char *eq = find_byte(ls, le, '=');
	struct pkv_dict_entry *d, spare;
	size_t used = r->used;

	if (*ls != ' ')
		return fail(r, "line at byte %zu is neither the record text nor a dictionary line",
			    (size_t)(ls - copy));
	if (eq == le || eq == ls + 1)
		return fail(r, "dictionary line at byte %zu has no KEY=", (size_t)(ls - copy));
	/*
	 * journald keeps 64 too: the record stays, the excess is counted
	 * (and checked as the kept lines are, then its bytes given back).
	 */
	d = r->ndict < PKV_MAX_DICT ? &r->dict[r->ndict] : &spare;
	if (!escaped) {
		d->key.p = ls + 1;
		d->key.n = (size_t)(eq - ls - 1);
		d->value.p = eq + 1;
		d->value.n = (size_t)(le - eq - 1);
	} else if (unescape(r, ls + 1, (size_t)(eq - ls - 1), &d->key, "dictionary key",
			    (size_t)(ls + 1 - copy)) ||
		   unescape(r, eq + 1, (size_t)(le - eq - 1), &d->value, "dictionary value",
			    (size_t)(eq + 1 - copy))) {
		return -EBADMSG;
	}
	if (d == &spare) {
		r->used = used;
		r->dict_dropped++;
	} else {
		r->ndict++;
	}
	return 0;
}

int pkv_record_parse(struct pkv_record *r, const char *raw, size_t len)
{
	return pkv_record_parse_flags(r, raw, len, 0);
}

int pkv_record_parse_flags(struct pkv_record *r, const char *raw, size_t len,
			   unsigned int flags)
{
	const char *end, *semi, *p, *line, *nul = NULL;
	char *copy;

	r->have_seq = false;
	r->used = 0;
	r->ndict = 0;
	r->dict_dropped = 0;
	r->nfields = 0;
	r->caller.n = 0;
	r->caller.p = NULL;
	r->structured = r->truncated = false;
	r->kv_source = PKV_KV_NONE;
	r->kv_error = NULL;
	r->why[0] = '\0';

	if (len > r->record_max) {
		fail(r, "record of %zu bytes is longer than %zu", len, r->record_max);
		return -EMSGSIZE;
	}
	if (len && raw[len - 1] == '\n')
		len--;
	/*
	 * One copy of the record holds every span that needs no decoding. A
	 * newline word after it ends the scans below without a length check.
	 */
	copy = pkv_take(r, len + 8);
	if (!copy)
		return fail(r, "record too large to decode");
	memcpy(copy, raw, len);
	memset(copy + len, '\n', 8);
	end = copy + len;
	for (semi = copy;; semi++) {
		semi = next_stop(semi, ';');
		if (*semi == ';' || *semi == '\n')
			break;
		if (!*semi && !nul)
			nul = semi;
	}
	if (*semi != ';')
		return fail(r, "no ';' ends the record header");
	if (parse_header(r, copy, semi))
		return -EBADMSG;
	r->have_seq = true;
	/* The kernel writes NUL as \x00; a raw one means the stream is damaged. */
	if (nul)
		return fail(r, "NUL byte at offset %zu", (size_t)(nul - copy));
	/*
	 * Line by line: the text, then " KEY=value" dictionary lines. Most
	 * lines hold no backslash and stay in the copy; the others are decoded.
	 */
	for (line = p = semi + 1;; line = p = p + 1) {
		const char *le;
		bool escaped = false;

		for (;; p++) {
			p = next_stop(p, '\\');
			if (*p == '\n')
				break;
			if (*p == '\\')
				escaped = true;
			else if (!*p)
				return fail(r, "NUL byte at offset %zu", (size_t)(p - copy));
		}
		le = p;
		if (le > line && le[-1] == '\r')
			le--;
		if (line == semi + 1) {
			r->text.p = line;
			r->text.n = (size_t)(le - line);
			if (escaped && unescape(r, line, r->text.n, &r->text, "text",
						(size_t)(line - copy)))
				return line_failed(r, copy, p, end);
		} else if (le > line && dict_line(r, copy, line, le, escaped)) {
			return line_failed(r, copy, p, end);
		}
		if (p >= end)
			break;
	}
	pkv_fields_resolve(r, flags);
	return 0;
}

PKV_INLINE bool span_is(struct pkv_span s, const char *str)
{
	size_t n = strlen(str);

	return s.n == n && pkv_equal(s.p, str, n);
}

const struct pkv_field *pkv_field_get(const struct pkv_record *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nfields; i++)
		if (span_is(r->fields[i].key, key))
			return &r->fields[i];
	return NULL;
}

const struct pkv_dict_entry *pkv_dict_get(const struct pkv_record *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->ndict; i++)
		if (span_is(r->dict[i].key, key))
			return &r->dict[i];
	return NULL;
}

/* Dictionary keys that are not a field's line. */
PKV_INLINE bool is_device_key(struct pkv_span k)
{
	if (k.n == 6)
		return !memcmp(k.p, "DEVICE", 6);
	if (k.n != 9)
		return false;
	return (k.p[0] == 'S' && !memcmp(k.p, "SUBSYSTEM", 9)) ||
	       (k.p[0] == 'P' && !memcmp(k.p, "PRINTK_KV", 9));
}

/* Does dictionary key @d name field key @f (its ASCII upper case)? */
PKV_INLINE bool dict_names(struct pkv_span d, struct pkv_span f)
{
	size_t i;

	if (d.n != f.n)
		return false;
	/* Keys are [a-z0-9_]: upper case is clearing bit 5 of the letters. */
	for (i = 0; i < d.n; i++) {
		unsigned char c = (unsigned char)f.p[i];

		if ((unsigned char)(c - 'a') < 26)
			c &= (unsigned char)~0x20;
		if ((unsigned char)d.p[i] != c)
			return false;
	}
	return true;
}

PKV_INLINE bool field_has_line(const struct pkv_field *f)
{
	return !span_is(f->key, "subsystem") && !span_is(f->key, "device");
}

PKV_INLINE bool line_agrees(const struct pkv_dict_entry *d, const struct pkv_field *f)
{
	return d->value.n == f->raw.n && pkv_equal(d->value.p, f->raw.p, f->raw.n);
}

/*
 * The kernel writes the lines in the fields' order: one pass over both.
 * Returns the count of disagreeing values, -2 when there is no field line,
 * or -1 when the lines are not one per field in that order (then each field
 * is looked for in all lines).
 */
static int compare_in_order(const struct pkv_record *r, struct pkv_span *keys, size_t max)
{
	size_t i, k = 0, lines = 0;
	int bad = 0;

	for (i = 0; i < r->nfields; i++) {
		const struct pkv_field *f = &r->fields[i];

		if (!field_has_line(f))
			continue;
		while (k < r->ndict && is_device_key(r->dict[k].key))
			k++;
		if (k == r->ndict || !dict_names(r->dict[k].key, f->key))
			return -1;
		if (!line_agrees(&r->dict[k], f)) {
			if ((size_t)bad < max)
				keys[bad] = f->key;
			bad++;
		}
		k++;
		lines++;
	}
	for (; k < r->ndict; k++)
		if (!is_device_key(r->dict[k].key))
			return -1;
	/* No field line at all: an unpatched kernel, nothing to compare. */
	return lines ? bad : -2;
}

int pkv_dict_compare(const struct pkv_record *r, struct pkv_span *keys, size_t max)
{
	size_t i, j, nkv = 0;
	int bad = 0;

	if (!r->structured)
		return -ENODATA;
	bad = compare_in_order(r, keys, max);
	if (bad >= 0)
		return bad;
	if (bad == -2)
		return -ENODATA;
	for (i = 0; i < r->ndict; i++)
		nkv += !is_device_key(r->dict[i].key);
	if (!nkv)
		return -ENODATA;
	bad = 0;
	/* Every field has its line with the same value ... */
	for (i = 0; i < r->nfields; i++) {
		const struct pkv_field *f = &r->fields[i];
		const struct pkv_dict_entry *d = NULL;

		if (!field_has_line(f))
			continue;
		for (j = 0; j < r->ndict && !d; j++)
			if (dict_names(r->dict[j].key, f->key))
				d = &r->dict[j];
		if (d && line_agrees(d, f))
			continue;
		if ((size_t)bad < max)
			keys[bad] = f->key;
		bad++;
	}
	/* ... and every line other than SUBSYSTEM and DEVICE has its field. */
	for (j = 0; j < r->ndict; j++) {
		bool found = false;

		if (is_device_key(r->dict[j].key))
			continue;
		for (i = 0; i < r->nfields && !found; i++)
			found = dict_names(r->dict[j].key, r->fields[i].key);
		if (found)
			continue;
		if ((size_t)bad < max)
			keys[bad] = r->dict[j].key;
		bad++;
	}
	return bad;
}
