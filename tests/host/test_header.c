// SPDX-License-Identifier: GPL-2.0
/*
 * printk_kv.h on the host: the exact record text of every macro and type,
 * against tests/host/shim (a model of printk()), and a round trip through
 * the reader's parser. Built three times: PKV_MODE_DYNDBG (dynamic debug),
 * PKV_MODE_DEBUG (-DDEBUG) and PKV_MODE_OFF (pr_debug compiled out).
 *
 * This file includes the header first; test_header_order.c includes it
 * after <linux/printk.h> and with a custom prefix and static fields.
 */
#define KBUILD_MODNAME "kvtest"
#if defined(PKV_MODE_DYNDBG)
#define CONFIG_DYNAMIC_DEBUG 1
#elif defined(PKV_MODE_DEBUG)
#define DEBUG 1
#endif
#include <linux/printk_kv.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pkvkmsg.h"
#include "kvtest.h"

#define S(x) __stringify(x)

static void expect_text(int i, int level, const char *want)
{
	assert_true(i < shim_nlog);
	assert_int_equal(shim_log[i].level, level);
	assert_string_equal(shim_log[i].text, want);
}

static void test_pr_fmt_static_fields(void **state)
{
	(void)state;
	shim_reset();
	pr_info("hello %d", 5);
	pr_emerg("e"); pr_alert("a"); pr_crit("c"); pr_err("x"); pr_warn("w"); pr_notice("n");
	assert_int_equal(shim_nlog, 7);
	{
		char want[128];

		snprintf(want, sizeof(want), "kvtest: [kv mod=kvtest] hello 5");
		expect_text(0, 6, want);
		snprintf(want, sizeof(want), "kvtest: [kv mod=kvtest] w");
		expect_text(5, 4, want);
	}
	for (int i = 1; i < 7; i++)
		assert_int_equal(shim_log[i].level, i - 1);
}

/* printk_kv(): the level is the caller's, the call is built in every mode. */
static void test_printk_kv_level(void **state)
{
	(void)state;
	shim_reset();
	printk_kv(KERN_DEBUG, KV_MSG("card %d", 2), KV_U32(id, 0x12));
	printk_kv(KERN_NOTICE, "n", KV_BOOL(up, true));
	assert_int_equal(shim_nlog, 2);
	expect_text(0, 7, "kvtest: [kv mod=kvtest id=18] card 2");
	expect_text(1, 5, "kvtest: [kv mod=kvtest up=true] n");
}

static void test_pr_fmt_once_ratelimited(void **state)
{
	(void)state;
	shim_reset();
	for (int i = 0; i < 3; i++)
		pr_info_once("only once %d", i);
	for (int i = 0; i < 25; i++)
		pr_err_ratelimited("limited %d", i);
	assert_int_equal(shim_nlog, 1 + 10);
	assert_non_null(strstr(shim_log[0].text, "] only once 0"));
	assert_non_null(strstr(shim_log[10].text, "] limited 9"));
}

#define WANT_TEXT(buf, rest) \
	snprintf(buf, sizeof(buf), "kvtest: [kv mod=kvtest%s", rest)

static void test_every_type(void **state)
{
	char want[512];

	(void)state;
	shim_reset();
	pr_warn_kv("types", KV_U32(u32, 4294967295u), KV_S32(s32, -2147483647 - 1),
		   KV_U64(u64, 18446744073709551615ull), KV_S64(s64, -9223372036854775807ll - 1),
		   KV_HEX(hex, 0), KV_HEX64(hex64, 0xdeadbeefcafef00dull), KV_BOOL(yes, 42),
		   KV_BOOL(no, 0), KV_STR(str, "plain"), KV_STR(empty, ""), KV_STR(nul, NULL),
		   KV_ERR(err, -22));
	WANT_TEXT(want, " u32=4294967295 s32=-2147483648 u64=18446744073709551615"
		  " s64=-9223372036854775808 hex=0x0 hex64=0xdeadbeefcafef00d yes=true no=false"
		  " str=\"plain\" empty=\"\" nul=null err=-EINVAL] types");
	expect_text(0, 4, want);
}

static void test_optional_fields(void **state)
{
	char want[512];

	(void)state;
	shim_reset();
	pr_err_kv("opt", KV_U32(a, 1), KV_U64_NZ(ino, 0), KV_ERR_NZ(err, 0), KV_U32(z, 2));
	pr_err_kv("opt", KV_U32(a, 1), KV_U64_NZ(ino, 18446744073709551615ull), KV_ERR_NZ(err, -117),
		  KV_U32(z, 2));
	pr_err_kv("opt", KV_U64_NZ(a_very_long_key_of_32_bytes_xyzw, 1), KV_ERR_NZ(e, -4095),
		  KV_ERR_NZ(f, 4096));
	WANT_TEXT(want, " a=1 z=2] opt");
	expect_text(0, 3, want);
	WANT_TEXT(want, " a=1 ino=18446744073709551615 err=-EUCLEAN z=2] opt");
	expect_text(1, 3, want);
	WANT_TEXT(want, " a_very_long_key_of_32_bytes_xyzw=1 e=-4095 f=4096] opt");
	expect_text(2, 3, want);
}

static void test_errno_rendering(void **state)
{
	char want[256];

	(void)state;
	shim_reset();
	pr_err_kv("errs", KV_ERR(a, -1), KV_ERR(b, -524), KV_ERR(c, 0), KV_ERR(d, 5),
		  KV_ERR(e, -4096), KV_ERR(f, -4095), KV_ERR(g, -2147483647 - 1));
	/* -4095 is a valid ERR_PTR with no name: %pe prints it in decimal. */
	WANT_TEXT(want, " a=-EPERM b=-ENOTSUPP c=0 d=5 e=-4096 f=-4095 g=-2147483648] errs");
	expect_text(0, 3, want);
}

static void test_hostile_strings(void **state)
{
	char want[512];

	(void)state;
	shim_reset();
	pr_notice_kv("hostile", KV_STR(q, "a\"b\\c]d=e [kv x=1]"),
		     KV_STR(ctl, "\x01\t\n\r\x1b[31m\x7f"), KV_STR(utf8, "\xc3\xa9\xff"));
	WANT_TEXT(want, " q=\"a\\\"b\\\\c]d=e [kv x=1]\" ctl=\"\\x01\\t\\n\\x0d\\x1b[31m\\x7f\""
		  " utf8=\"\\xc3\\xa9\\xff\"] hostile");
	expect_text(0, 5, want);
}

static void test_long_string_cut(void **state)
{
	char big[300], want[512];

	(void)state;
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	shim_reset();
	pr_info_kv("cut", KV_STR(s, big));
	/* PKV_STR_MAX - 5 bytes of quote and content, then quote, cut mark, NUL. */
	snprintf(want, sizeof(want), "kvtest: [kv mod=kvtest s=\"%.*s\"...] cut",
		 PKV_STR_MAX - 6, big);
	expect_text(0, 6, want);

	/* An escape that does not fit whole is left out whole. */
	memset(big, '\x01', sizeof(big) - 1);
	shim_reset();
	pr_info_kv("cut", KV_STR(s, big));
	assert_non_null(strstr(shim_log[0].text, "\\x01\"...] cut"));
	assert_int_equal(strlen(strstr(shim_log[0].text, "s=\"")) - strlen("s=\"\"...] cut"),
			 (PKV_STR_MAX - 6) / 4 * 4);
}

static void test_twelve_fields(void **state)
{
	char want[512];

	(void)state;
	shim_reset();
	pr_info_kv("twelve", KV_U32(f1, 1), KV_U32(f2, 2), KV_U32(f3, 3), KV_U32(f4, 4),
		   KV_U32(f5, 5), KV_U32(f6, 6), KV_U32(f7, 7), KV_U32(f8, 8), KV_U32(f9, 9),
		   KV_U32(f10, 10), KV_U32(f11, 11), KV_U32(a_very_long_key_of_32_bytes_xyzw, 12));
	WANT_TEXT(want, " f1=1 f2=2 f3=3 f4=4 f5=5 f6=6 f7=7 f8=8 f9=9 f10=10 f11=11"
		  " a_very_long_key_of_32_bytes_xyzw=12] twelve");
	expect_text(0, 6, want);
}

static void test_once_ratelimited_kv(void **state)
{
	(void)state;
	shim_reset();
	for (unsigned int i = 0; i < 4; i++)
		pr_warn_kv_once("once", KV_U32(i, i));
	for (unsigned int i = 0; i < 30; i++)
		pr_info_kv_ratelimited("rl", KV_U32(i, i));
	assert_int_equal(shim_nlog, 11);
	assert_non_null(strstr(shim_log[0].text, " i=0] once"));
	assert_non_null(strstr(shim_log[10].text, " i=9] rl"));
}

static int evaluated;

static unsigned int side_effect(void)
{
	return ++evaluated;
}

static void test_debug(void **state)
{
	(void)state;
	shim_reset();
	evaluated = 0;
	pr_debug_kv("dbg", KV_U32(n, side_effect()));
	pr_debug("plain dbg");
	shim_dyndbg_on = true;
	pr_debug_kv("dbg", KV_U32(n, side_effect()));
	pr_debug("plain dbg");
	for (int i = 0; i < 15; i++)
		pr_debug_kv_ratelimited("rl", KV_S32(i, i));
	shim_dyndbg_on = false;
	for (int i = 0; i < 15; i++)
		pr_debug_kv_ratelimited("rl", KV_S32(i, i));
#if defined(PKV_MODE_OFF)
	/* Compiled out: type-checked (see compile-fail.sh), never evaluated. */
	assert_int_equal(shim_nlog, 0);
	assert_int_equal(evaluated, 0);
#elif defined(PKV_MODE_DEBUG)
	/* Each call site has its own rate limit, as in the kernel: 10 + 10. */
	assert_int_equal(shim_nlog, 4 + 20);
	assert_int_equal(evaluated, 2);
#else
	/* Only the calls made while dyndbg enabled them print or evaluate. */
	/* 10 of the 15 enabled ratelimited calls, none of the disabled ones. */
	assert_int_equal(shim_nlog, 2 + 10);
	assert_int_equal(evaluated, 1);
	assert_non_null(strstr(shim_log[11].text, " i=9] rl"));
	assert_int_equal(shim_log[0].level, 7);
	assert_non_null(strstr(shim_log[0].text, " n=1] dbg"));
	assert_int_equal(strncmp(shim_log[0].text, "kvtest: [kv ", 12), 0);
#endif
}

static void test_dev_netdev(void **state)
{
	struct device dev = {
		.name = "cs89x0.0\"x", .driver = "cs89x0", .subsystem = "platform",
		.devid = "+platform:cs89x0.0",
	};
	struct net_device nd = {
		.name = "eth]0", .ifindex = 3, .registered = 1,
		.dev = { .name = "eth]0", .subsystem = "net", .devid = "n3" },
	};
	struct net_device child = {
		.name = "eth1", .ifindex = 4,
		.dev = { .name = "eth1", .subsystem = "net", .devid = "n4", .parent = &dev },
	};
	char want[256];

	(void)state;
	shim_reset();
	/* The text after the block is dev_printk()'s and netdev_printk()'s. */
	dev_err_kv(&dev, "wrong chip signature", KV_HEX(sig, 0x1234));
	netdev_info_kv(&nd, "link up", KV_U32(speed, 100));
	netdev_warn_kv(&child, KV_MSG("tx timeout %d", 5), KV_U32(queue, 0));
	snprintf(want, sizeof(want), "[kv mod=kvtest drv=\"cs89x0\""
		 " dev=\"cs89x0.0\\\"x\" sig=0x1234] cs89x0 cs89x0.0\"x: wrong chip signature");
	expect_text(0, 3, want);
	assert_string_equal(shim_log[0].subsystem, "platform");
	assert_string_equal(shim_log[0].device, "+platform:cs89x0.0");
	snprintf(want, sizeof(want), "[kv mod=kvtest netdev=\"eth]0\""
		 " ifindex=3 speed=100] eth]0: link up");
	expect_text(1, 6, want);
	assert_string_equal(shim_log[1].device, "n3");
	snprintf(want, sizeof(want), "[kv mod=kvtest netdev=\"eth1\""
		 " ifindex=4 queue=0] cs89x0 cs89x0.0\"x eth1 (unregistered): tx timeout 5");
	expect_text(2, 4, want);
	/* dev_printk()'s words for a NULL device, and null names: no oops. */
	dev_warn_kv((struct device *)NULL, "no device", KV_U32(n, 1));
	snprintf(want, sizeof(want), "[kv mod=kvtest drv=null dev=null n=1]"
		 " (NULL device *): no device");
	expect_text(3, 4, want);
	assert_string_equal(shim_log[3].device, "");
}

/* Escape as devkmsg_read() does, and wrap in a /dev/kmsg record. */
static size_t kmsg_record(char *out, size_t n, int level, const char *text, size_t len)
{
	size_t o = (size_t)snprintf(out, n, "%d,1,0,-;", level);

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c < ' ' || c >= 127 || c == '\\')
			o += (size_t)snprintf(out + o, n - o, "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	out[o++] = '\n';
	return o;
}

static struct pkv_record *parse_last(void)
{
	static char raw[4 * LOG_LINE_MAX + 32];
	static struct pkv_record *r;
	const struct shim_record *s = &shim_log[shim_nlog - 1];
	size_t n = kmsg_record(raw, sizeof(raw), s->level, s->text, s->len);

	if (!r)
		assert_int_equal(pkv_record_new(&r, 0), 0);
	assert_int_equal(pkv_record_parse_flags(r, raw, n, PKV_PARSE_UNMARKED), 0);
	return r;
}

static void expect_field(const struct pkv_record *r, const char *key, enum pkv_type t,
			 const char *val, size_t vlen)
{
	const struct pkv_field *f = pkv_field_get(r, key);

	if (!f)
		fail_msg("field %s missing in '%.*s'", key, (int)r->text.n, r->text.p);
	assert_int_equal(f->type, t);
	assert_int_equal(f->value.n, vlen);
	assert_memory_equal(f->value.p, val, vlen);
}

static void test_truncated_record(void **state)
{
	char big[200];
	struct pkv_record *r;

	(void)state;
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	shim_reset();
	pr_info_kv("never seen", KV_STR(a, big), KV_STR(b, big), KV_STR(c, big), KV_STR(d, big),
		   KV_STR(e, big), KV_STR(f, big), KV_STR(g, big), KV_STR(h, big), KV_U32(n, 1234));
	/* vprintk_store() keeps LOG_LINE_MAX - 1 bytes with the level prefix. */
	assert_int_equal(shim_log[0].len, LOG_LINE_MAX - 1 - 2);
	r = parse_last();
	assert_true(r->structured);
	assert_true(r->truncated);
	assert_int_equal(r->msg.n, 0);
	/* Seven whole strings survive; the eighth was cut and is not reported. */
	assert_non_null(pkv_field_get(r, "g"));
	assert_null(pkv_field_get(r, "h"));
	assert_null(pkv_field_get(r, "n"));
	assert_true(pkv_field_get(r, "g")->cut);
}

static void test_parse_back(void **state)
{
	struct pkv_record *r;

	(void)state;
	shim_reset();
	pr_crit_kv("parsed", KV_U32(u, 7), KV_S64(s, -5ll), KV_HEX(h, 255), KV_BOOL(b, 1),
		   KV_STR(str, "x\"] y=2"), KV_STR(n, NULL), KV_ERR(e, -2));
	r = parse_last();
	assert_true(r->structured);
	assert_false(r->truncated);
	assert_int_equal(r->level, 2);
	assert_int_equal(r->prefix.n, strlen("kvtest: "));
	assert_int_equal(r->msg.n, strlen("parsed"));
	assert_memory_equal(r->msg.p, "parsed", 6);
	expect_field(r, "mod", PKV_STRING, "kvtest", 6);
	expect_field(r, "u", PKV_NUMBER, "7", 1);
	expect_field(r, "s", PKV_NUMBER, "-5", 2);
	expect_field(r, "h", PKV_NUMBER, "255", 3);
	expect_field(r, "b", PKV_BOOL, "true", 4);
	expect_field(r, "str", PKV_STRING, "x\"] y=2", 7);
	expect_field(r, "n", PKV_NULL, "null", 4);
	expect_field(r, "e", PKV_STRING, "-ENOENT", 7);
	assert_int_equal(r->nfields, 8);
}

/* Helpers in the shape of ext4's __ext4_error(): the caller's message through %pV. */

static __printf(4, 5) void vaf_helper(const char *kern, const char *fs, unsigned int line,
				      const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	printk_kv_vaf(kern, "error: ", &vaf, KV_STR(fs, fs), KV_U32(line, line));
	va_end(args);
}

static __printf(1, 2) void vaf_twelve(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	printk_kv_vaf(KERN_ERR, "", &vaf, KV_U32(f1, 1), KV_U32(f2, 2),
		      KV_U32(f3, 3), KV_U32(f4, 4), KV_U32(f5, 5),
		      KV_U32(f6, 6), KV_U32(f7, 7), KV_U32(f8, 8),
		      KV_U32(f9, 9), KV_U32(f10, 10), KV_U32(f11, 11),
		      KV_U32(f12, 12));
	va_end(args);
}

/* ext4's __ext4_error() keeps its own words before the caller's message. */
static __printf(4, 5) void vaf_msg_helper(const char *kern, const char *fs, unsigned int line,
					  const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	printk_kv_vaf(kern, KV_MSG("FS error (device %s): line %u: ", fs, line),
		      &vaf, KV_STR(fs, fs), KV_U32(line, line));
	va_end(args);
}

static void test_vaf(void **state)
{
	struct pkv_record *r;
	char want[512];

	(void)state;
	shim_reset();
	vaf_helper(KERN_CRIT, "vda", 42, "bad %s %d", "x] y=\"1\"", 7);
	WANT_TEXT(want, " fs=\"vda\" line=42] error: bad x] y=\"1\" 7");
	expect_text(0, 2, want);
	/* The level may come at run time, or not at all (printk's default). */
	vaf_helper(KERN_DEBUG, "vdb", 1, "%s", "");
	WANT_TEXT(want, " fs=\"vdb\" line=1] error: ");
	expect_text(1, 7, want);
	vaf_helper("", "v]dc", 2, "k=v");
	assert_int_equal(shim_log[2].level, LOGLEVEL_INFO);
	/* The message after the block adds no field: fields come from the block only. */
	r = parse_last();
	assert_true(r->structured);
	expect_field(r, "fs", PKV_STRING, "v]dc", 4);
	assert_null(pkv_field_get(r, "k"));
	assert_int_equal(r->nfields, 3);
	vaf_twelve("%d%%", 100);
	WANT_TEXT(want, " f1=1 f2=2 f3=3 f4=4 f5=5 f6=6 f7=7 f8=8 f9=9 f10=10 f11=11"
		  " f12=12] 100%");
	expect_text(3, 3, want);
	vaf_msg_helper(KERN_WARNING, "vd%", 7, "bad %s", "x");
	WANT_TEXT(want, " fs=\"vd%\" line=7] FS error (device vd%): line 7: bad x");
	expect_text(4, 4, want);
	vaf_msg_helper("", "vde", 8, "k=%d", 1);
	r = parse_last();
	assert_int_equal(r->nfields, 3);
	assert_null(pkv_field_get(r, "k"));
	assert_int_equal(r->msg.n, strlen("FS error (device vde): line 8: k=1"));
}

/*
 * KV_MSG(): a message with arguments beside the fields, as a converted call
 * keeps the text it printed before. The message's arguments come after the
 * items' in the argument list, and -Wformat checks both.
 */
static void test_kv_msg(void **state)
{
	struct device dev = { .name = "eth0", .driver = "drv", .subsystem = "net", .devid = "n2" };
	struct pkv_record *r;
	char want[512];

	(void)state;
	shim_reset();
	pr_warn_kv(KV_MSG("%s: session %u not found (%d%%)", "tunl 4", 7u, -1),
		   KV_U32(tunnel, 4), KV_U32(session, 7));
	WANT_TEXT(want, " tunnel=4 session=7] tunl 4: session 7 not found (-1%)");
	expect_text(0, 4, want);
	r = parse_last();
	assert_int_equal(r->nfields, 3);
	assert_int_equal(r->msg.n, strlen("tunl 4: session 7 not found (-1%)"));
	/* A message without arguments, and a message that looks like a block. */
	pr_info_kv(KV_MSG("plain"), KV_U32(a, 1));
	pr_err_kv(KV_MSG("%s", "[kv x=1] y=2"), KV_U32(a, 2));
	WANT_TEXT(want, " a=1] plain");
	expect_text(1, 6, want);
	r = parse_last();
	assert_int_equal(r->nfields, 2);
	assert_null(pkv_field_get(r, "x"));
	assert_null(pkv_field_get(r, "y"));
	/* Twelve items and a message. */
	pr_notice_kv(KV_MSG("%u-%u", 1u, 2u), KV_U32(f1, 1), KV_U32(f2, 2),
		     KV_U32(f3, 3), KV_U32(f4, 4), KV_U32(f5, 5), KV_U32(f6, 6),
		     KV_U32(f7, 7), KV_U32(f8, 8), KV_U32(f9, 9), KV_U32(f10, 10),
		     KV_U32(f11, 11), KV_U32(f12, 12));
	WANT_TEXT(want, " f1=1 f2=2 f3=3 f4=4 f5=5 f6=6 f7=7 f8=8 f9=9 f10=10 f11=11 f12=12]"
		  " 1-2");
	expect_text(3, 5, want);
	dev_warn_kv(&dev, KV_MSG("link %s", "down"), KV_BOOL(up, 0));
	snprintf(want, sizeof(want), "[kv mod=kvtest drv=\"drv\" dev=\"eth0\""
		 " up=false] drv eth0: link down");
	expect_text(4, 4, want);
	pr_info_kv_once(KV_MSG("once %d", 1), KV_U32(a, 1));
	pr_debug_kv(KV_MSG("dbg %d", 2), KV_U32(a, 2));
	assert_non_null(strstr(shim_log[5].text, " a=1] once 1"));
#if defined(PKV_MODE_DEBUG)
	assert_int_equal(shim_nlog, 7);
	assert_non_null(strstr(shim_log[6].text, " a=2] dbg 2"));
#else
	assert_int_equal(shim_nlog, 6);
#endif
}

/* xorshift64*: reproducible random values without global state in the code under test. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static void test_round_trip_random(void **state)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int cuts = 0;

	(void)state;
	for (int it = 0; it < 20000; it++) {
		char s1[64], s2[24], num[32];
		size_t l1 = rnd(&seed) % sizeof(s1), l2 = rnd(&seed) % sizeof(s2);
		u64 v64 = rnd(&seed);
		s32 v32 = (s32)rnd(&seed);
		struct pkv_record *r;

		for (size_t i = 0; i < l1; i++)
			s1[i] = (char)(rnd(&seed) % 255 + 1);	/* any byte but NUL */
		s1[l1] = '\0';
		for (size_t i = 0; i < l2; i++)
			s2[i] = "\"\\] =[kv\n\t"[rnd(&seed) % 10];
		s2[l2] = '\0';
		shim_reset();
		pr_info_kv("r", KV_STR(a, s1), KV_U64(b, v64), KV_S32(c, v32), KV_STR(d, s2),
			   KV_HEX64(e, v64));
		r = parse_last();
		assert_true(r->structured);
		assert_false(r->truncated);
		{
			/* A value over PKV_STR_MAX is cut, flagged, and an exact prefix. */
			const struct pkv_field *f = pkv_field_get(r, "a");

			assert_non_null(f);
			if (f->cut) {
				assert_true(f->value.n < l1);
				assert_memory_equal(f->value.p, s1, f->value.n);
				cuts++;
			} else {
				expect_field(r, "a", PKV_STRING, s1, l1);
			}
		}
		expect_field(r, "d", PKV_STRING, s2, l2);
		snprintf(num, sizeof(num), "%llu", v64);
		expect_field(r, "b", PKV_NUMBER, num, strlen(num));
		expect_field(r, "e", PKV_NUMBER, num, strlen(num));
		snprintf(num, sizeof(num), "%d", v32);
		expect_field(r, "c", PKV_NUMBER, num, strlen(num));
		assert_int_equal(r->nfields, 6);
		assert_memory_equal(r->msg.p, "r", 1);
	}
	/* Both paths were taken. */
	assert_true(cuts > 1000 && cuts < 19000);
}

static void test_custom_prefix_order(void **state)
{
	char want[256];

	(void)state;
	shim_reset();
	kvtest_order_emit();
	snprintf(want, sizeof(want),
		 "EXT4-fs: [kv mod=kvtest subsys=ext4 layer=core] classic %s", "x");
	expect_text(0, 6, want);
	snprintf(want, sizeof(want),
		 "EXT4-fs: [kv mod=kvtest subsys=ext4 layer=core ino=12] typed");
	expect_text(1, 3, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pr_fmt_static_fields),
		cmocka_unit_test(test_printk_kv_level),
		cmocka_unit_test(test_pr_fmt_once_ratelimited),
		cmocka_unit_test(test_every_type),
		cmocka_unit_test(test_optional_fields),
		cmocka_unit_test(test_errno_rendering),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_long_string_cut),
		cmocka_unit_test(test_twelve_fields),
		cmocka_unit_test(test_once_ratelimited_kv),
		cmocka_unit_test(test_debug),
		cmocka_unit_test(test_dev_netdev),
		cmocka_unit_test(test_truncated_record),
		cmocka_unit_test(test_parse_back),
		cmocka_unit_test(test_vaf),
		cmocka_unit_test(test_kv_msg),
		cmocka_unit_test(test_round_trip_random),
		cmocka_unit_test(test_custom_prefix_order),
	};

	return cmocka_run_group_tests_name("printk_kv.h (" S(PKV_MODE) ")", tests, NULL, NULL);
}
