// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of libpkvkmsg and the kmsg2json filters. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "pkvkmsg.h"
#include "../../userspace-reader/filter.h"

/* The record the tests parse into (pkv_record_new() in main()). */
static struct pkv_record *rec;

/*
 * Most tests are of the block's grammar: they take fields from unmarked
 * text as well (kmsg2json --unmarked). test_trust() is of the trust rule.
 */
static struct pkv_record *parse(const char *raw)
{
	int rc = pkv_record_parse_flags(rec, raw, strlen(raw), PKV_PARSE_UNMARKED);

	if (rc)
		fail_msg("parse of '%s' failed: %s", raw, rec->why);
	return rec;
}

/* A record whose text is @text, escaped as devkmsg_read() escapes it. */
static struct pkv_record *parse_text(const char *text)
{
	static char raw[PKV_RECORD_MAX];
	size_t o = (size_t)snprintf(raw, sizeof(raw), "6,1,2,-;");

	for (; *text; text++) {
		unsigned char c = (unsigned char)*text;

		if (c < ' ' || c >= 127 || c == '\\')
			o += (size_t)snprintf(raw + o, sizeof(raw) - o, "\\x%02x", c);
		else
			raw[o++] = (char)c;
	}
	raw[o] = '\0';
	return parse(raw);
}

static void parse_fails(const char *raw, size_t len, const char *why)
{
	int rc = pkv_record_parse(rec, raw, len);

	if (rc == 0)
		fail_msg("'%s' parsed, expected failure '%s'", raw, why);
	/* The two codes of a bad record: too long, or malformed. */
	if (rc != (len > rec->record_max ? -EMSGSIZE : -EBADMSG))
		fail_msg("'%s': returned %d, not -EMSGSIZE or -EBADMSG", raw, rc);
	if (!strstr(rec->why, why))
		fail_msg("'%s': reason '%s' does not contain '%s'", raw, rec->why, why);
}

static void span_is(struct pkv_span s, const char *want)
{
	if (s.n != strlen(want) || memcmp(s.p, want, s.n))
		fail_msg("got '%.*s', want '%s'", (int)s.n, s.p, want);
}

/* The JSON writer into memory: a sink that appends, NUL-terminated. */
struct membuf {
	char *p;
	size_t n;
};

static int mem_sink(void *ctx, const char *p, size_t n)
{
	struct membuf *m = ctx;
	char *q = realloc(m->p, m->n + n + 1);

	if (!q)
		return -ENOMEM;
	memcpy(q + m->n, p, n);
	m->n += n;
	q[m->n] = '\0';
	m->p = q;
	return 0;
}

static struct pkv_json *mem_json(struct membuf *m, unsigned int flags)
{
	struct pkv_json *j;

	assert_int_equal(pkv_json_new_sink(&j, mem_sink, m, flags), 0);
	return j;
}

/* Flush and free the writer; the text written so far ("" if none). */
static char *mem_done(struct pkv_json *j, struct membuf *m)
{
	assert_int_equal(pkv_json_flush(j), 0);
	pkv_json_free(j);
	if (!m->p)
		m->p = calloc(1, 1);
	return m->p;
}

static void test_header(void **state)
{
	struct pkv_record *r;

	(void)state;
	r = parse("30,18446744073709551615,123456,c,caller=T42,future=x;hello\n");
	assert_int_equal(r->facility, 3);
	assert_int_equal(r->level, 6);
	assert_true(r->seq == UINT64_MAX);
	assert_int_equal(r->ts_usec, 123456);
	assert_true(r->cont);
	span_is(r->caller, "T42");
	span_is(r->text, "hello");
	assert_false(r->structured);
	span_is(r->msg, "hello");

	r = parse("6,1,2,-;no newline at end");
	assert_false(r->cont);
	assert_int_equal(r->caller.n, 0);
	span_is(r->text, "no newline at end");
	r = parse("6,1,2,-;");
	assert_int_equal(r->text.n, 0);
}

/* The kernel's facility is a u8: (255 << 3) | 7 is the largest priority. */
static void test_header_priority(void **state)
{
	struct pkv_record *r;

	(void)state;
	r = parse("2047,1,2,-;t\n");
	assert_int_equal(r->facility, 255);
	assert_int_equal(r->level, 7);
	r = parse("1024,1,2,-;t\n");
	assert_int_equal(r->facility, 128);
	assert_int_equal(r->level, 0);
}

static void test_header_errors(void **state)
{
	(void)state;
	parse_fails("6,1,2,-", 7, "no ';'");
	parse_fails("x,1,2,-;t\n", 10, "priority");
	parse_fails("2048,1,2,-;t\n", 13, "priority");
	parse_fails("6,,2,-;t\n", 9, "sequence");
	parse_fails("6,18446744073709551616,2,-;t\n", 29, "sequence");
	parse_fails("6,1,x,-;t\n", 10, "timestamp");
	parse_fails("6,1,2,;t\n", 9, "flags");
	parse_fails("6,1,2,-;a\0b\n", 12, "NUL byte at offset 9");
	parse_fails("6,1\n,2,-;t\n", 11, "no ';'");
	{
		static char big[PKV_RECORD_MAX + 2];

		memset(big, 'a', sizeof(big));
		memcpy(big, "6,1,2,-;", 8);
		parse_fails(big, sizeof(big), "longer than");
	}
}

/*
 * The parser scans a copy of the record a word at a time: every length
 * around the word size, from a buffer of exactly the record's size (an
 * over-read is ASan's to see), with and without the final newline.
 */
static void test_scan_edges(void **state)
{
	(void)state;
	for (size_t k = 0; k <= 24; k++) {
		for (int nl = 0; nl < 2; nl++) {
			char want[32], want_v[32];
			size_t len;
			char *raw;

			memset(want, 'a', k);
			want[k] = '\0';
			memset(want_v, 'b', k);
			want_v[k] = '\0';
			len = 8 + k + 4 + k + (size_t)nl;
			raw = malloc(len);
			assert_non_null(raw);
			memcpy(raw, "6,1,2,-;", 8);
			memcpy(raw + 8, want, k);
			memcpy(raw + 8 + k, "\n X=", 4);
			memcpy(raw + 12 + k, want_v, k);
			if (nl)
				raw[len - 1] = '\n';
			if (pkv_record_parse(rec, raw, len))
				fail_msg("%zu-byte text, %zu-byte value: %s", k, k, rec->why);
			span_is(rec->text, want);
			assert_int_equal(rec->ndict, 1);
			span_is(rec->dict[0].value, want_v);
			/* The text alone, ending anywhere in a word. */
			if (pkv_record_parse(rec, raw, 8 + k))
				fail_msg("%zu-byte text alone: %s", k, rec->why);
			span_is(rec->text, want);
			free(raw);
		}
	}
	/* Only a newline ends a line; the other controls are the text's. */
	span_is(parse("6,1,2,-;a\rb\tc\n X=1\r\n")->text, "a\rb\tc");
	span_is(pkv_dict_get(rec, "X")->value, "1");
	/* A backslash of the header is not an escape. */
	span_is(parse("6,1,2,-,x=\\q;t\n")->text, "t");
	/* NUL is reported first, wherever it is: the stream is damaged. */
	parse_fails("6,1,2,-,caller=T\0;t\n", 20, "NUL byte at offset 16");
	parse_fails("6,1,2,-;t\nX=1\n Y=\0\n", 19, "NUL byte at offset 17");
	parse_fails("6,1,2,-;\\q\n Y=\0\n", 16, "NUL byte at offset 14");
	parse_fails("6,1,2,-;t\nX=1\n Y=1\n", 19, "neither");
	{
		/*
		 * The most a record can ask of the storage: every byte of the
		 * text and of a line escaped, a quoted value the rest of it.
		 */
		static char raw[PKV_RECORD_MAX + 1];
		size_t n = (size_t)snprintf(raw, sizeof(raw), "6,1,2,-;[kv h=0x1 q=\"");
		size_t half = (PKV_RECORD_MAX - n - 16) / 2 / 4 * 4, v;

		for (size_t i = 0; i < half; i += 4)
			memcpy(raw + n + i, "\\x41", 4);
		n += half;
		n += (size_t)snprintf(raw + n, sizeof(raw) - n, "\"] m\n X=");
		for (v = n; n + 4 <= PKV_RECORD_MAX; n += 4)
			memcpy(raw + n, "\\x42", 4);
		assert_int_equal(pkv_record_parse_flags(rec, raw, n, PKV_PARSE_UNMARKED), 0);
		assert_int_equal(rec->nfields, 2);
		assert_int_equal(pkv_field_get(rec, "q")->value.n, half / 4);
		span_is(pkv_field_get(rec, "h")->value, "1");
		assert_int_equal(pkv_dict_get(rec, "X")->value.n, (n - v) / 4);
	}
}

static void test_unescape(void **state)
{
	struct pkv_record *r;

	(void)state;
	r = parse("6,1,2,-;a\\x5cb\\x0a\\x00\\xFF\n");
	assert_int_equal(r->text.n, 6);
	assert_memory_equal(r->text.p, "a\\b\n\0\xff", 6);
	parse_fails("6,1,2,-;a\\qb\n", 13, "invalid escape in text at byte 9");
	parse_fails("6,1,2,-;a\\x4\n", 13, "invalid escape");
	parse_fails("6,1,2,-;a\\x4g\n", 14, "invalid escape");
	parse_fails("6,1,2,-;a\\", 10, "invalid escape");
}

/* Errors are negative errno values, and objects come from their *_new(). */
static void test_error_codes(void **state)
{
	struct pkv_record *r;
	struct pkv_input *in;
	struct pkv_json *j;
	char dst[8];
	size_t bad;

	(void)state;
	assert_int_equal(pkv_record_new(&r, 63), -EINVAL);
	assert_null(r);
	assert_int_equal(pkv_record_new(&r, 64), 0);
	assert_int_equal(r->version, PKV_RECORD_VERSION);
	assert_int_equal(r->record_max, 64);
	/* The limit is the record's own: 65 bytes are too long for it. */
	assert_int_equal(pkv_record_parse(r, "6,1,2,-;aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
					  65), -EMSGSIZE);
	assert_int_equal(pkv_record_parse(r, "6,1,2,-;a\n", 10), 0);
	pkv_record_free(r);
	pkv_record_free(NULL);
	assert_int_equal(pkv_unescape_kmsg(dst, "a\\xzz", 5, &bad), -EINVAL);
	assert_int_equal(bad, 1);
	assert_int_equal(pkv_input_new(&in, -1, 0, 0), -EINVAL);
	assert_int_equal(pkv_input_new(&in, 0, 0x80, 0), -EINVAL);
	assert_int_equal(pkv_input_new(&in, 0, 0, 10), -EINVAL);
	assert_null(in);
	assert_int_equal(pkv_json_new(&j, -1, 0), -EBADF);
	assert_int_equal(pkv_json_new(&j, 1, 0x80), -EINVAL);
	assert_null(j);
}

static void test_dict(void **state)
{
	struct pkv_record *r;

	(void)state;
	r = parse("6,1,2,-;t\r\n SUBSYSTEM=net\r\n DEVICE=n2\n X=a\\x3db=c\n");
	span_is(r->text, "t");
	assert_int_equal(r->ndict, 3);
	span_is(pkv_dict_get(r, "SUBSYSTEM")->value, "net");
	span_is(pkv_dict_get(r, "DEVICE")->value, "n2");
	span_is(pkv_dict_get(r, "X")->value, "a=b=c");
	assert_null(pkv_dict_get(r, "Y"));
	parse_fails("6,1,2,-;t\nX=1\n", 14, "neither");
	parse_fails("6,1,2,-;t\n X1\n", 14, "no KEY=");
	parse_fails("6,1,2,-;t\n =1\n", 14, "no KEY=");
	parse_fails("6,1,2,-;t\n X=\\q\n", 16, "invalid escape in dictionary value");
	{
		/* As many lines as journald takes, and one more. */
		char raw[2048];
		size_t n = (size_t)snprintf(raw, sizeof(raw), "6,1,2,-;t\n");

		for (int i = 0; i < PKV_MAX_DICT; i++)
			n += (size_t)snprintf(raw + n, sizeof(raw) - n, " K%d=%d\n", i, i);
		assert_int_equal(pkv_record_parse(rec, raw, n), 0);
		assert_int_equal(rec->ndict, 64);
		/* Past them: the record and its text stay, the excess is counted. */
		n += (size_t)snprintf(raw + n, sizeof(raw) - n, " K64=64\n K65=65\n");
		assert_int_equal(pkv_record_parse(rec, raw, n), 0);
		assert_int_equal(rec->ndict, 64);
		assert_int_equal(rec->dict_dropped, 2);
		span_is(rec->text, "t");
		span_is(rec->dict[63].value, "63");
		{
			struct membuf m = { 0 };
			struct pkv_json *j = mem_json(&m, 0);
			char *buf;

			assert_int_equal(pkv_json_record(j, rec), 0);
			buf = mem_done(j, &m);
			if (!strstr(buf, "\"K63\":\"63\"},\"dict_dropped\":2,\"text\":\"t\"}"))
				fail_msg("record with 66 dictionary lines written as: %s", buf);
			free(buf);
		}
		/* A malformed line past them still makes the record malformed. */
		n += (size_t)snprintf(raw + n, sizeof(raw) - n, " K66\n");
		parse_fails(raw, n, "no KEY=");
	}
}

static void test_block(void **state)
{
	struct pkv_record *r;
	const struct pkv_field *f;

	(void)state;
	r = parse_text("l2tp: [kv mod=l2tp_core src=l2tp_core.c:12 t=4 s=\"a b\\\"]\" "
		       "x=\"\\x01\\t\\n\\\\\"...] bad cookie [kv forged=1]");
	assert_true(r->structured);
	assert_false(r->truncated);
	assert_null(r->kv_error);
	span_is(r->prefix, "l2tp: ");
	span_is(r->msg, "bad cookie [kv forged=1]");
	assert_int_equal(r->nfields, 5);
	span_is(pkv_field_get(r, "src")->value, "l2tp_core.c:12");
	f = pkv_field_get(r, "s");
	span_is(f->value, "a b\"]");
	assert_false(f->cut);
	f = pkv_field_get(r, "x");
	span_is(f->value, "\x01\t\n\\");
	assert_true(f->cut);
	assert_null(pkv_field_get(r, "forged"));

	/* Empty message, no prefix. */
	r = parse("6,1,2,-;[kv a=1]\n");
	assert_true(r->structured);
	assert_int_equal(r->prefix.n, 0);
	assert_int_equal(r->msg.n, 0);

	/* Not a block: first '[' is something else, or no "[kv ". */
	r = parse("6,1,2,-;x [drm] [kv a=1] y\n");
	assert_false(r->structured);
	assert_null(r->kv_error);
	span_is(r->msg, "x [drm] [kv a=1] y");
	r = parse("6,1,2,-;[kva=1]\n");
	assert_false(r->structured);
}

static void test_block_malformed(void **state)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "[kv ]", "key does not start" },
		{ "[kv a=1  b=2]", "key does not start" },
		{ "[kv a=1,b=2]", "bare value" },
		{ "[kv A=1]", "key does not start" },
		{ "[kv a-b=1]", "followed by '='" },
		{ "[kv a=]", "empty value" },
		{ "[kv a=1 a=2]", "duplicate" },
		{ "[kv a=\"x\\q\"]", "unknown escape" },
		{ "[kv a=\"x\\xg0\"]", "bad \\x escape" },
		{ "[kv a=\"x\ty\"]", "unescaped byte" },
		{ "[kv a=\"x\"..]", "stray '.'" },
		{ "[kv a=\"x\"b]", "separated" },
		{ "[kv a=1]x", "no space after" },
		{ "[kv a_very_long_key_of_33_bytes_xyzwv=1]", "longer than 32" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char raw[128];
		struct pkv_record *r;

		snprintf(raw, sizeof(raw), "p: %s", cases[i].text);
		r = parse_text(raw);
		if (r->structured || !r->kv_error || !strstr(r->kv_error, cases[i].why))
			fail_msg("'%s': structured=%d kv_error='%s', want '%s'", cases[i].text,
				 r->structured, r->kv_error ? r->kv_error : "", cases[i].why);
		assert_int_equal(r->nfields, 0);
		/* A rejected block is message text, whole. */
		snprintf(raw, sizeof(raw), "p: %s", cases[i].text);
		span_is(r->msg, raw);
	}
}

static void test_block_cut(void **state)
{
	static const char *const cases[] = {
		"p: [kv a=1 b=2", "p: [kv a=1 b=", "p: [kv a=1 b", "p: [kv a=1 ",
		"p: [kv a=1 b=\"xy", "p: [kv a=1 b=\"xy\\", "p: [kv a=1 b=\"xy\\x4",
		"p: [kv a=1 b=\"xy\"", "p: [kv a=1 b=\"xy\".", "p: [kv a=1 b=\"xy\"..",
		"p: [kv a=1 b=\"xy\"...",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pkv_record *r = parse_text(cases[i]);

		if (!r->structured || !r->truncated || r->nfields != 1)
			fail_msg("'%s': structured=%d truncated=%d nfields=%zu", cases[i],
				 r->structured, r->truncated, r->nfields);
		span_is(r->fields[0].value, "1");
		assert_int_equal(r->msg.n, 0);
	}
}

static void test_typing(void **state)
{
	static const struct {
		const char *v;
		enum pkv_type t;
		const char *decoded;
	} cases[] = {
		{ "0", PKV_NUMBER, "0" }, { "-1", PKV_NUMBER, "-1" },
		{ "18446744073709551615", PKV_NUMBER, "18446744073709551615" },
		{ "007", PKV_STRING, "007" }, { "-0", PKV_STRING, "-0" }, { "-", PKV_STRING, "-" },
		{ "0x0", PKV_NUMBER, "0" }, { "0xff", PKV_NUMBER, "255" },
		{ "0xffffffffffffffff", PKV_NUMBER, "18446744073709551615" },
		{ "0x1ffffffffffffffff", PKV_STRING, "0x1ffffffffffffffff" },
		{ "0xFF", PKV_STRING, "0xFF" }, { "0x", PKV_STRING, "0x" },
		{ "true", PKV_BOOL, "true" }, { "false", PKV_BOOL, "false" },
		{ "True", PKV_STRING, "True" }, { "null", PKV_NULL, "null" },
		{ "-EINVAL", PKV_STRING, "-EINVAL" }, { "a.c:12", PKV_STRING, "a.c:12" },
		{ "\"12\"", PKV_STRING, "12" }, { "\"true\"", PKV_STRING, "true" },
		{ "\"\"", PKV_STRING, "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char raw[96];
		struct pkv_record *r;

		snprintf(raw, sizeof(raw), "6,1,2,-;[kv v=%s] m\n", cases[i].v);
		r = parse(raw);
		assert_true(r->structured);
		if (r->fields[0].type != cases[i].t)
			fail_msg("'%s' typed %d, want %d", cases[i].v, r->fields[0].type, cases[i].t);
		span_is(r->fields[0].value, cases[i].decoded);
	}
}

static void test_many_fields(void **state)
{
	char raw[PKV_RECORD_MAX];
	size_t n;
	struct pkv_record *r;

	(void)state;
	n = (size_t)snprintf(raw, sizeof(raw), "6,1,2,-;[kv");
	for (int i = 0; i < PKV_MAX_FIELDS; i++)
		n += (size_t)snprintf(raw + n, sizeof(raw) - n, " k%d=%d", i, i);
	snprintf(raw + n, sizeof(raw) - n, "] m\n");
	r = parse(raw);
	assert_true(r->structured);
	assert_int_equal(r->nfields, PKV_MAX_FIELDS);
	n = (size_t)snprintf(raw, sizeof(raw), "6,1,2,-;[kv");
	for (int i = 0; i <= PKV_MAX_FIELDS; i++)
		n += (size_t)snprintf(raw + n, sizeof(raw) - n, " k%d=%d", i, i);
	snprintf(raw + n, sizeof(raw) - n, "] m\n");
	r = parse(raw);
	assert_false(r->structured);
	assert_non_null(strstr(r->kv_error, "more fields"));
}

/* Feed @data to a stream reader through a pipe, collect events. */
struct collected {
	enum pkv_event ev[16];
	char raw[16][64];
	size_t len[16], total[16];
	int n;
};

static void collect(const char *data, size_t len, struct collected *c)
{
	char path[] = "/tmp/pkv-test-XXXXXX";
	int fd = mkstemp(path);
	struct pkv_input *in;

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	lseek(fd, 0, SEEK_SET);
	assert_int_equal(pkv_input_new(&in, fd, 0, 0), 0);
	memset(c, 0, sizeof(*c));
	for (;;) {
		struct pkv_chunk ch;

		pkv_input_next(in, &ch);
		if (ch.ev == PKV_EV_END)
			break;
		assert_true(c->n < 16);
		c->ev[c->n] = ch.ev;
		c->len[c->n] = ch.len;
		c->total[c->n] = ch.total;
		memcpy(c->raw[c->n], ch.raw, ch.len < 63 ? ch.len : 63);
		c->n++;
	}
	pkv_input_free(in);
	close(fd);
}

static void test_stream_split(void **state)
{
	static const char data[] = "6,1,2,-;a\n SUBSYSTEM=x\n\n6,2,2,-;b\r\n\r\n6,3,2,-;c";
	struct collected c;

	(void)state;
	collect(data, sizeof(data) - 1, &c);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.raw[0], "6,1,2,-;a\n SUBSYSTEM=x\n");
	assert_string_equal(c.raw[1], "6,2,2,-;b\r\n");
	assert_string_equal(c.raw[2], "6,3,2,-;c");
}

static void test_stream_overlong(void **state)
{
	/*
	 * One record just over PKV_RECORD_MAX, one over the 1 MiB buffer,
	 * and two whose newline is the last byte of a full buffer: the
	 * record after them is still a record of its own.
	 */
	size_t sizes[] = { PKV_RECORD_MAX + 1, (3u << 20) + 5, 1u << 20, 2u << 20 };

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k] + 20;
		char *d = malloc(n);
		struct collected c;

		assert_non_null(d);
		memset(d, 'x', n);
		memcpy(d, "6,1,2,-;", 8);
		d[sizes[k] - 1] = '\n';
		memcpy(d + sizes[k], "6,2,2,-;after\n", 14);
		collect(d, sizes[k] + 14, &c);
		assert_int_equal(c.n, 2);
		assert_int_equal(c.ev[0], PKV_EV_OVERLONG);
		assert_int_equal(c.total[0], sizes[k]);
		assert_int_equal(c.len[0], PKV_RECORD_MAX);
		assert_memory_equal(c.raw[0], "6,1,2,-;xx", 10);
		assert_int_equal(c.ev[1], PKV_EV_RECORD);
		assert_string_equal(c.raw[1], "6,2,2,-;after\n");
		free(d);
	}
	/* The last record, over-long and unterminated, ending on the buffer's end. */
	{
		size_t n = 1u << 20;
		char *d = malloc(n);
		struct collected c;

		assert_non_null(d);
		memset(d, 'x', n);
		memcpy(d, "6,1,2,-;", 8);
		collect(d, n, &c);
		assert_int_equal(c.n, 1);
		assert_int_equal(c.ev[0], PKV_EV_OVERLONG);
		assert_int_equal(c.total[0], n);
		free(d);
	}
}

static void test_seq_gap(void **state)
{
	struct pkv_seqtrack t = { 0 };
	uint64_t lost;

	(void)state;
	assert_int_equal(pkv_seq_step(&t, 10, &lost), PKV_SEQ_FIRST);
	assert_int_equal(pkv_seq_step(&t, 11, &lost), PKV_SEQ_NEXT);
	assert_int_equal(pkv_seq_step(&t, 15, &lost), PKV_SEQ_GAP);
	assert_int_equal(lost, 3);
	assert_int_equal(pkv_seq_step(&t, 15, &lost), PKV_SEQ_SAME);
	/* Going back (a new boot) moves the tracker: its gaps are found. */
	assert_int_equal(pkv_seq_step(&t, 2, &lost), PKV_SEQ_BACK);
	assert_int_equal(pkv_seq_step(&t, 3, &lost), PKV_SEQ_NEXT);
	assert_int_equal(pkv_seq_step(&t, 7, &lost), PKV_SEQ_GAP);
	assert_int_equal(lost, 3);
	/* Near and past 2^63 and at UINT64_MAX: no overflow, no sign. */
	assert_int_equal(pkv_seq_step(&t, (1ull << 63) + 12, &lost), PKV_SEQ_GAP);
	assert_true(lost == (1ull << 63) + 4);
	assert_int_equal(pkv_seq_step(&t, UINT64_MAX, &lost), PKV_SEQ_GAP);
	assert_true(lost == UINT64_MAX - ((1ull << 63) + 12) - 1);
	assert_int_equal(pkv_seq_step(&t, 3, &lost), PKV_SEQ_BACK);
	assert_int_equal(lost, 0);
}

/* Resuming: records up to the resume point are skipped, losses after it are a gap. */
static void test_seq_resume(void **state)
{
	struct pkv_seqtrack t = { 0 };
	struct pkv_seq_event ev;
	struct pkv_gap g;

	(void)state;
	pkv_seq_resume(&t, 9, true);
	assert_int_equal(pkv_seq_record(&t, 4, &ev), PKV_SEQ_OLD);
	assert_int_equal(pkv_seq_record(&t, 9, &ev), PKV_SEQ_OLD);
	assert_int_equal(pkv_seq_record(&t, 10, &ev), PKV_SEQ_NEXT);
	assert_false(ev.gap || ev.new_boot);
	/* Once past it, a lower seq is a new boot, not an old record. */
	assert_int_equal(pkv_seq_record(&t, 2, &ev), PKV_SEQ_BACK);
	assert_true(ev.new_boot);
	assert_int_equal(ev.boot_after, 10);

	/* Records after the resume point were overwritten before the read. */
	memset(&t, 0, sizeof(t));
	pkv_seq_resume(&t, 9, true);
	assert_int_equal(pkv_seq_record(&t, 15, &ev), PKV_SEQ_GAP);
	assert_true(ev.gap && ev.g.lost_known && ev.g.have_after);
	assert_int_equal(ev.g.lost, 5);
	assert_int_equal(ev.g.after_seq, 9);
	assert_string_equal(ev.g.reason, "seq");

	/* Another boot's cursor: the first record is a new boot, nothing skipped. */
	memset(&t, 0, sizeof(t));
	pkv_seq_resume(&t, 900, false);
	assert_int_equal(pkv_seq_record(&t, 0, &ev), PKV_SEQ_BACK);
	assert_true(ev.new_boot && !ev.gap);
	assert_int_equal(ev.boot_after, 900);
	memset(&t, 0, sizeof(t));
	pkv_seq_resume(&t, 3, false);
	assert_int_equal(pkv_seq_record(&t, 50, &ev), PKV_SEQ_BACK);
	assert_true(ev.new_boot && !ev.gap);

	/* An overrun: reported with the next record, or at the end. */
	memset(&t, 0, sizeof(t));
	assert_int_equal(pkv_seq_record(&t, 1, &ev), PKV_SEQ_FIRST);
	pkv_seq_overrun(&t);
	assert_int_equal(pkv_seq_record(&t, 8, &ev), PKV_SEQ_GAP);
	assert_string_equal(ev.g.reason, "overrun");
	assert_int_equal(ev.g.lost, 6);
	assert_false(pkv_seq_end(&t, &g));
	pkv_seq_overrun(&t);
	assert_true(pkv_seq_end(&t, &g));
	assert_true(g.have_after && !g.have_next && !g.lost_known);
	assert_int_equal(g.after_seq, 8);
	/* Before the first record: neither count nor seq before is known. */
	memset(&t, 0, sizeof(t));
	pkv_seq_overrun(&t);
	assert_int_equal(pkv_seq_record(&t, 40, &ev), PKV_SEQ_FIRST);
	assert_true(ev.gap && !ev.g.lost_known && !ev.g.have_after);
}

static void test_cursor(void **state)
{
	static const char *const bad[] = {
		"", "s=", "b=0123456789abcdef0123456789abcdef", "s=1;", ";s=1", "s=-1",
		"s=18446744073709551616", "s=1;s=2", "x=1", "s=1 ", "s=1\nb=",
		"b=0123456789abcdef0123456789abcde;s=1", "b=0123456789abcdef0123456789abcdef0;s=1",
		"b=0123456789abcdef0123456789abcdeg;s=1", "b=01234567-89ab-cdef-0123-456789abcdef-;s=1",
	};
	struct pkv_cursor c;
	char buf[PKV_CURSOR_MAX], boot[PKV_BOOT_ID_LEN + 1];
	const char *s;

	(void)state;
	s = "b=01234567-89AB-cdef-0123-456789abcdef;s=18446744073709551615\n";
	assert_int_equal(pkv_cursor_parse(&c, s, strlen(s)), 0);
	assert_true(c.have_boot);
	assert_string_equal(c.boot, "0123456789abcdef0123456789abcdef");
	assert_true(c.seq == UINT64_MAX);
	assert_int_equal(pkv_cursor_format(&c, buf, sizeof(buf)),
			 strlen("b=0123456789abcdef0123456789abcdef;s=18446744073709551615"));
	assert_string_equal(buf, "b=0123456789abcdef0123456789abcdef;s=18446744073709551615");
	assert_int_equal(pkv_cursor_format(&c, buf, 20), -ENOSPC);
	s = "s=7";
	assert_int_equal(pkv_cursor_parse(&c, s, strlen(s)), 0);
	assert_false(c.have_boot);
	assert_int_equal(c.seq, 7);
	assert_int_equal(pkv_cursor_format(&c, buf, sizeof(buf)), 3);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (pkv_cursor_parse(&c, bad[i], strlen(bad[i])) != -EINVAL)
			fail_msg("cursor '%s' accepted", bad[i]);
	}
	/* This machine's boot id has 32 hex digits (Linux only). */
	assert_int_equal(pkv_boot_id(boot), 0);
	assert_int_equal(strspn(boot, "0123456789abcdef"), PKV_BOOT_ID_LEN);
}

static void test_json_strings(void **state)
{
	struct membuf m = { 0 };
	struct pkv_json *j = mem_json(&m, 0);
	char *out;

	(void)state;
	assert_int_equal(pkv_json_string(j, "a\"\\\n\t\r\x01\x7f\xc3\xa9", 10), 0);
	pkv_json_string(j, "a\xff", 2);
	pkv_json_string(j, "\xed\xa0\x80", 3);	/* a UTF-16 surrogate: invalid */
	pkv_json_string(j, "\xf0\x9f\x98\x80", 4);
	out = mem_done(j, &m);
	assert_string_equal(out, "\"a\\\"\\\\\\n\\t\\r\\u0001\\u007f\xc3\xa9\"[97,255][237,160,128]"
			       "\"\xf0\x9f\x98\x80\"");
	free(out);
}

/* The escaping of one byte, as JSON wants it (the reference below). */
static size_t ref_escape(char *o, unsigned char c)
{
	switch (c) {
	case '"':
		return (size_t)sprintf(o, "\\\"");
	case '\\':
		return (size_t)sprintf(o, "\\\\");
	case '\n':
		return (size_t)sprintf(o, "\\n");
	case '\t':
		return (size_t)sprintf(o, "\\t");
	case '\r':
		return (size_t)sprintf(o, "\\r");
	}
	if (c < 0x20 || c == 0x7f)
		return (size_t)sprintf(o, "\\u%04x", c);
	*o = (char)c;
	return 1;
}

/*
 * The writer loads strings a word at a time, their last bytes without a
 * call: every length around the word size, each byte that needs care at
 * every position, from a buffer of exactly the string (ASan sees an
 * over-read), against a byte-by-byte reference.
 */
static void test_json_lengths(void **state)
{
	static const unsigned char special[] = { '"', '\\', '\n', '\t', 0x01, 0x7f, 'z' };

	(void)state;
	for (size_t n = 0; n <= 24; n++) {
		for (size_t k = 0; k < (n ? n : 1); k++) {
			for (size_t c = 0; c < sizeof(special); c++) {
				struct membuf m = { 0 };
				struct pkv_json *j = mem_json(&m, 0);
				char *s = malloc(n ? n : 1), want[200], *out;
				size_t o = 0;

				assert_non_null(s);
				memset(s, 'a', n);
				if (n)
					s[k] = (char)special[c];
				want[o++] = '"';
				for (size_t i = 0; i < n; i++)
					o += ref_escape(want + o, (unsigned char)s[i]);
				want[o++] = '"';
				want[o] = '\0';
				assert_int_equal(pkv_json_string(j, s, n), 0);
				out = mem_done(j, &m);
				if (strcmp(out, want))
					fail_msg("%zu bytes, 0x%02x at %zu: got %s, want %s",
						 n, special[c], k, out, want);
				free(out);
				free(s);
			}
		}
	}
}

static void test_json_record(void **state)
{
	struct membuf m = { 0 };
	struct pkv_json *j = mem_json(&m, 0);
	char *buf;

	(void)state;
	parse("3,7,9,-,caller=C1;p: [kv a=1 b=\"x\"... c=true] m\n DEVICE=n1\n");
	assert_int_equal(pkv_json_record(j, rec), 0);
	mem_done(j, &m);
	j = mem_json(&m, PKV_JSON_PRETTY);
	{
		struct pkv_gap g = { .reason = "overrun", .lost_known = true, .lost = 4,
				     .have_after = true, .after_seq = 7,
				     .have_next = true, .next_seq = 12 };

		assert_int_equal(pkv_json_gap(j, &g), 0);
	}
	buf = mem_done(j, &m);
	assert_string_equal(buf,
		"{\"seq\":7,\"ts_usec\":9,\"facility\":0,\"level\":3,\"cont\":false,\"caller\":\"C1\","
		"\"structured\":true,\"kv\":\"unmarked\",\"prefix\":\"p: \",\"msg\":\"m\",\"fields\":{\"a\":1,\"b\":\"x\","
		"\"c\":true},\"cut\":[\"b\"],\"dict\":{\"DEVICE\":\"n1\"},"
		"\"text\":\"p: [kv a=1 b=\\\"x\\\"... c=true] m\"}\n"
		"{\n  \"gap\": true,\n  \"reason\": \"overrun\",\n  \"lost\": 4,\n"
		"  \"after_seq\": 7,\n  \"next_seq\": 12\n}\n");
	free(buf);
}

/*
 * Dictionary keys are always JSON strings (a byte that is not UTF-8 as
 * \\xNN), and a repeated key gets an array of its values, in order.
 */
static void test_json_dict(void **state)
{
	struct membuf m = { 0 };
	struct pkv_json *j = mem_json(&m, 0);
	char *buf;

	(void)state;
	/* The bytes "\\xff" (a backslash, escaped as the kernel does) and the byte 0xff. */
	parse("6,0,0,-;x\n \xff=1\n A=1\n a\xc3\xa9\xfe=2\n A=2\n B=3\n A=\xff\n \\x5cxff=4\n");
	assert_int_equal(pkv_json_record(j, rec), 0);
	buf = mem_done(j, &m);
	if (!strstr(buf, ",\"dict\":{\"\\\\xff\":\"1\",\"A\":[\"1\",\"2\",[255]],"
			 "\"a\xc3\xa9\\\\xfe\":\"2\",\"B\":\"3\",\"\\\\x5cxff\":\"4\"},"))
		fail_msg("dictionary written as: %s", buf);
	free(buf);
}

/* A gap past 2^63 is written with its exact digits; unknowns are null. */
static void test_json_gap(void **state)
{
	struct membuf m = { 0 };
	struct pkv_json *j = mem_json(&m, 0);
	char *buf;
	struct pkv_gap big = { .reason = "seq", .lost_known = true, .lost = (1ull << 63) + 10,
			       .have_after = true, .after_seq = 9,
			       .have_next = true, .next_seq = (1ull << 63) + 20 };
	struct pkv_gap end = { .reason = "overrun", .have_after = true, .after_seq = UINT64_MAX };

	(void)state;
	assert_int_equal(pkv_json_gap(j, &big), 0);
	assert_int_equal(pkv_json_gap(j, &end), 0);
	assert_int_equal(pkv_json_seq_back(j, 12, 3), 0);
	buf = mem_done(j, &m);
	assert_string_equal(buf,
		"{\"gap\":true,\"reason\":\"seq\",\"lost\":9223372036854775818,"
		"\"after_seq\":9,\"next_seq\":9223372036854775828}\n"
		"{\"gap\":true,\"reason\":\"overrun\",\"lost\":null,"
		"\"after_seq\":18446744073709551615,\"next_seq\":null}\n"
		"{\"new_boot\":true,\"after_seq\":12,\"next_seq\":3}\n");
	free(buf);
}

static void test_dict_compare(void **state)
{
	struct pkv_span keys[4];
	struct pkv_record *r;

	(void)state;
	/* No field line: an unpatched kernel. */
	r = parse("6,1,2,-;p: [kv a=1] m\n SUBSYSTEM=net\n");
	assert_int_equal(pkv_dict_compare(r, keys, 4), -ENODATA);
	r = parse("6,1,2,-;plain\n A=1\n");
	assert_int_equal(pkv_dict_compare(r, keys, 4), -ENODATA);
	/* Agreement: bare values as written, strings decoded. */
	r = parse("6,1,2,-;p: [kv a=0x1f s=\"x y\\x5c\"\" long_key=-EINVAL] m\n"
		  " DEVICE=n1\n A=0x1f\n S=x y\"\n LONG_KEY=-EINVAL\n");
	assert_true(r->structured);
	assert_int_equal(pkv_dict_compare(r, keys, 4), 0);
	/* A changed value, a missing line and an extra line: three reported. */
	r = parse("6,1,2,-;p: [kv a=1 b=2] m\n A=2\n C=3\n");
	assert_int_equal(pkv_dict_compare(r, keys, 4), 3);
	span_is(keys[0], "a");
	span_is(keys[1], "b");
	span_is(keys[2], "C");
}

/* Fields only from records the kernel marked with PRINTK_KV (FORMAT.md). */
static void test_trust(void **state)
{
	struct pkv_span keys[4];
	struct pkv_record *r = rec;
	const char *raw;

	(void)state;
	/* Unmarked: the block is text, whatever it looks like. */
	raw = "6,1,2,-;p: [kv a=1] m\n";
	assert_int_equal(pkv_record_parse(r, raw, strlen(raw)), 0);
	assert_false(r->structured);
	assert_int_equal(r->kv_source, PKV_KV_NONE);
	assert_int_equal(r->nfields, 0);
	assert_non_null(strstr(r->kv_error, "not marked"));
	span_is(r->msg, "p: [kv a=1] m");
	/* printk.kv=text: the text's block, the mark equal to its fields. */
	raw = "6,1,2,-;p: [kv a=1 b=\"x y\"] m\n PRINTK_KV=a=1 b=\"x y\"\n A=1\n B=x y\n";
	assert_int_equal(pkv_record_parse(r, raw, strlen(raw)), 0);
	assert_int_equal(r->kv_source, PKV_KV_TEXT);
	assert_int_equal(r->nfields, 2);
	span_is(r->prefix, "p: ");
	span_is(r->msg, "m");
	assert_int_equal(pkv_dict_compare(r, keys, 4), 0);
	/* printk.kv=dict: fields from the mark; a block in the message is text. */
	raw = "6,1,2,-;p: m [kv c=3] x\n PRINTK_KV=a=1 b=\"x y\"\n A=1\n B=x y\n";
	assert_int_equal(pkv_record_parse(r, raw, strlen(raw)), 0);
	assert_int_equal(r->kv_source, PKV_KV_DICT);
	assert_int_equal(r->nfields, 2);
	span_is(r->fields[1].value, "x y");
	assert_null(pkv_field_get(r, "c"));
	span_is(r->prefix, "");
	span_is(r->msg, "p: m [kv c=3] x");
	assert_null(r->kv_error);
	assert_int_equal(pkv_dict_compare(r, keys, 4), 0);
	/* A mark that is not the text's block: the mark's fields, not the text's. */
	raw = "6,1,2,-;p: [kv a=1] m\n PRINTK_KV=a=2\n";
	assert_int_equal(pkv_record_parse(r, raw, strlen(raw)), 0);
	assert_int_equal(r->kv_source, PKV_KV_DICT);
	span_is(r->fields[0].value, "2");
	/* Cut by printk: complete fields, flagged. */
	raw = "6,1,2,-;p:\n PRINTK_KV=a=1 b=\"z\"... ...\n";
	assert_int_equal(pkv_record_parse(r, raw, strlen(raw)), 0);
	assert_int_equal(r->kv_source, PKV_KV_DICT);
	assert_int_equal(r->nfields, 2);
	assert_true(r->truncated);
	assert_true(r->fields[1].cut);
	raw = "6,1,2,-;p: [kv a=1 b=2 c=\n PRINTK_KV=a=1 b=2 ...\n";
	assert_int_equal(pkv_record_parse(r, raw, strlen(raw)), 0);
	assert_int_equal(r->kv_source, PKV_KV_TEXT);
	assert_true(r->truncated);
	/* User space (facility > 0) never has fields, marked or not. */
	raw = "14,1,2,-;p: [kv a=1] m\n PRINTK_KV=a=1\n";
	assert_int_equal(pkv_record_parse_flags(r, raw, strlen(raw), PKV_PARSE_UNMARKED), 0);
	assert_false(r->structured);
	assert_int_equal(r->nfields, 0);
	/* A malformed mark gives no field. */
	static const char *const bad[] = {
		"a=1  b=2", "a=", "a=1 ", " a=1", "a=\"x", "A=1", "a=1]", "...", "a=1 a=2",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char buf[64];

		snprintf(buf, sizeof(buf), "6,1,2,-;m\n PRINTK_KV=%s\n", bad[i]);
		assert_int_equal(pkv_record_parse(r, buf, strlen(buf)), 0);
		if (r->structured || !r->kv_error)
			fail_msg("PRINTK_KV=%s was taken", bad[i]);
	}
}

static void test_filters(void **state)
{
	struct filter f = { 0 };
	char why[160];

	(void)state;
	assert_int_equal(filter_add_levels(&f, "err+", why, sizeof(why)), 0);
	assert_int_equal(f.levels, 0x0f);
	f.levels = 0;
	assert_int_equal(filter_add_levels(&f, "+notice,0", why, sizeof(why)), 0);
	assert_int_equal(f.levels, 0xe1);
	assert_int_equal(filter_add_levels(&f, "loud", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "unknown level 'loud'"));
	assert_int_equal(filter_add_facilities(&f, "kern,user", why, sizeof(why)), 0);
	assert_true(f.facilities[0] == 3 && !f.facilities[1] && !f.facilities[3]);
	assert_int_equal(filter_add_facilities(&f, "256", why, sizeof(why)), -1);
	{
		/* Past syslog's 23 the kernel's facility goes on to 255. */
		struct filter g = { 0 };

		assert_int_equal(filter_add_facilities(&g, "200", why, sizeof(why)), 0);
		parse("1607,1,2,-;x\n");			/* (200 << 3) | 7 */
		assert_true(filter_pass(&g, rec));
		parse("1615,1,2,-;x\n");			/* 201 */
		assert_false(filter_pass(&g, rec));
	}
	assert_int_equal(filter_add_match(&f, "tunnel=4", why, sizeof(why)), 0);
	assert_int_equal(filter_add_match(&f, "novalue", why, sizeof(why)), -1);
	assert_int_equal(filter_add_match(&f, "prefix=l2tp", why, sizeof(why)), 0);

	parse("6,1,2,-;l2tp: [kv tunnel=4] m\n");
	assert_true(filter_pass(&f, rec));
	parse("6,1,2,-;l2tp: [kv tunnel=5] m\n");
	assert_false(filter_pass(&f, rec));
	parse("2,1,2,-;l2tp: [kv tunnel=4] m\n");		/* level 2 not chosen */
	assert_false(filter_pass(&f, rec));
	parse("14,1,2,-;l2tp: [kv tunnel=4] m\n");		/* user: never fields */
	assert_false(filter_pass(&f, rec));
	parse("22,1,2,-;l2tp: [kv tunnel=4] m\n");		/* mail */
	assert_false(filter_pass(&f, rec));

	for (size_t i = 0; i < f.nmatch; i++)
		free((char *)f.match[i].key);
	memset(&f, 0, sizeof(f));
	assert_int_equal(filter_add_match(&f, "SUBSYSTEM=net", why, sizeof(why)), 0);
	f.structured_only = true;
	parse("6,5,2,-;[kv a=1] m\n SUBSYSTEM=net\n");
	assert_true(filter_pass(&f, rec));
	parse("6,4,2,-;[kv a=1] m\n SUBSYSTEM=usb\n");
	assert_false(filter_pass(&f, rec));
	parse("6,6,2,-;m\n SUBSYSTEM=net\n");
	assert_false(filter_pass(&f, rec));
	for (size_t i = 0; i < f.nmatch; i++)
		free((char *)f.match[i].key);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_header_priority),
		cmocka_unit_test(test_header_errors),
		cmocka_unit_test(test_scan_edges),
		cmocka_unit_test(test_unescape),
		cmocka_unit_test(test_error_codes),
		cmocka_unit_test(test_dict),
		cmocka_unit_test(test_block),
		cmocka_unit_test(test_block_malformed),
		cmocka_unit_test(test_block_cut),
		cmocka_unit_test(test_typing),
		cmocka_unit_test(test_many_fields),
		cmocka_unit_test(test_stream_split),
		cmocka_unit_test(test_stream_overlong),
		cmocka_unit_test(test_seq_gap),
		cmocka_unit_test(test_seq_resume),
		cmocka_unit_test(test_cursor),
		cmocka_unit_test(test_json_strings),
		cmocka_unit_test(test_json_lengths),
		cmocka_unit_test(test_json_record),
		cmocka_unit_test(test_json_dict),
		cmocka_unit_test(test_json_gap),
		cmocka_unit_test(test_dict_compare),
		cmocka_unit_test(test_trust),
		cmocka_unit_test(test_filters),
	};

	if (pkv_record_new(&rec, 0))
		return 1;
	return cmocka_run_group_tests_name("libpkvkmsg", tests, NULL, NULL);
}
