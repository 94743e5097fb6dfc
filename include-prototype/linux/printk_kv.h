/* SPDX-License-Identifier: GPL-2.0 */
/*
 * printk_kv.h - key/value fields on pr_*() records, through pr_fmt
 *
 * Including this header gives every pr_*() call of the file one field block
 * after its prefix, with the module and the call site, at no cost to the call
 * sites:
 *
 *	l2tp_core: [kv mod=l2tp_core src=l2tp_core.c:812] tunnel destroyed
 *
 * pr_<level>_kv() adds typed per-call fields to the same block:
 *
 *	pr_warn_kv("session not found", KV_U32(tunnel, tid), KV_U32(session, sid));
 *	l2tp_core: [kv mod=l2tp_core src=l2tp_core.c:930 tunnel=4 session=7] session not found
 *
 * Each call is one printk() with one format string: -Wformat checks every
 * field, printk index lists the format with its keys, and one event is one
 * record. The grammar of the block, the escaping and the typing rules are in
 * Documentation/core-api/printk-kv.rst (docs/FORMAT.md in the prototype).
 *
 * Before including this header a file may define:
 *
 *	PKV_PREFIX	the human prefix, default KBUILD_MODNAME ": "; it must
 *			not contain '['
 *	PKV_STATIC	static fields of the file, written with PKV_FIELD()
 *
 * The header replaces pr_fmt(), so it works whether it comes before or after
 * the other includes; a file converted to it drops its own pr_fmt() define.
 */
#ifndef _LINUX_PRINTK_KV_H
#define _LINUX_PRINTK_KV_H

#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/stringify.h>
#include <linux/compiler.h>
#include <linux/err.h>

#ifndef PKV_PREFIX
#define PKV_PREFIX KBUILD_MODNAME ": "
#endif

#ifndef PKV_STATIC
#define PKV_STATIC ""
#endif

#ifdef __FILE_NAME__
#define __PKV_FILE __FILE_NAME__
#else
#define __PKV_FILE __FILE__
#endif

/* Bytes of one escaped string value, quotes and cut mark included. */
#define PKV_STR_MAX	128
/* Bytes of one rendered errno value ("-EPROTONOSUPPORT" and the like). */
#define PKV_ERR_MAX	24

/**
 * PKV_FIELD - a static field for PKV_STATIC
 * @key: field name, [a-z][a-z0-9_]*
 * @value: bare value, characters [A-Za-z0-9_.:/+-]
 *
 * Example: ``#define PKV_STATIC PKV_FIELD(subsys, ext4)``.
 */
#define PKV_FIELD(key, value) " " #key "=" #value

/* The block opening: prefix, marker, module, call site, static fields. */
#define __PKV_OPEN							\
	PKV_PREFIX "[kv mod=" KBUILD_MODNAME				\
	" src=" __PKV_FILE ":" __stringify(__LINE__) PKV_STATIC

#undef pr_fmt
#define pr_fmt(fmt) __PKV_OPEN "] " fmt

/*
 * Per-call items are (key, format fragment, argument) triples; the lists
 * below expand them into the format string, the argument list and the key
 * checks of one call. Up to 12 items.
 */
#define __PKV_KEY(k, f, a)	k
#define __PKV_FMT(k, f, a)	f
#define __PKV_ARG(k, f, a)	, a

#define __PKV_NARGS(...)						\
	__PKV_NARGS_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define __PKV_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12,	\
		     n, ...) n
#define __PKV_MAP(m, ...)						\
	__PKV_PASTE(__PKV_MAP_, __PKV_NARGS(__VA_ARGS__))(m, __VA_ARGS__)
#define __PKV_PASTE(a, b)	__PKV_PASTE_(a, b)
#define __PKV_PASTE_(a, b)	a##b
#define __PKV_MAP_1(m, x)	m x
#define __PKV_MAP_2(m, x, ...)	m x __PKV_MAP_1(m, __VA_ARGS__)
#define __PKV_MAP_3(m, x, ...)	m x __PKV_MAP_2(m, __VA_ARGS__)
#define __PKV_MAP_4(m, x, ...)	m x __PKV_MAP_3(m, __VA_ARGS__)
#define __PKV_MAP_5(m, x, ...)	m x __PKV_MAP_4(m, __VA_ARGS__)
#define __PKV_MAP_6(m, x, ...)	m x __PKV_MAP_5(m, __VA_ARGS__)
#define __PKV_MAP_7(m, x, ...)	m x __PKV_MAP_6(m, __VA_ARGS__)
#define __PKV_MAP_8(m, x, ...)	m x __PKV_MAP_7(m, __VA_ARGS__)
#define __PKV_MAP_9(m, x, ...)	m x __PKV_MAP_8(m, __VA_ARGS__)
#define __PKV_MAP_10(m, x, ...)	m x __PKV_MAP_9(m, __VA_ARGS__)
#define __PKV_MAP_11(m, x, ...)	m x __PKV_MAP_10(m, __VA_ARGS__)
#define __PKV_MAP_12(m, x, ...)	m x __PKV_MAP_11(m, __VA_ARGS__)

/*
 * Keys are checked when the call is compiled, as BUILD_BUG_ON() checks its
 * condition: [a-z][a-z0-9_]*, at most 32 bytes, and none of the keys the
 * header itself writes.
 */
#define __PKV_KC(c)							\
	(((c) >= 'a' && (c) <= 'z') || ((c) >= '0' && (c) <= '9') ||	\
	 (c) == '_')
#define __PKV_KI(s, i)	(sizeof(s) <= (i) + 1 || __PKV_KC(s[i]))
#define __PKV_KEY_CHARS(s)						\
	(s[0] >= 'a' && s[0] <= 'z' && sizeof(s) <= 33 &&		\
	 __PKV_KI(s, 1) && __PKV_KI(s, 2) && __PKV_KI(s, 3) &&		\
	 __PKV_KI(s, 4) && __PKV_KI(s, 5) && __PKV_KI(s, 6) &&		\
	 __PKV_KI(s, 7) && __PKV_KI(s, 8) && __PKV_KI(s, 9) &&		\
	 __PKV_KI(s, 10) && __PKV_KI(s, 11) && __PKV_KI(s, 12) &&	\
	 __PKV_KI(s, 13) && __PKV_KI(s, 14) && __PKV_KI(s, 15) &&	\
	 __PKV_KI(s, 16) && __PKV_KI(s, 17) && __PKV_KI(s, 18) &&	\
	 __PKV_KI(s, 19) && __PKV_KI(s, 20) && __PKV_KI(s, 21) &&	\
	 __PKV_KI(s, 22) && __PKV_KI(s, 23) && __PKV_KI(s, 24) &&	\
	 __PKV_KI(s, 25) && __PKV_KI(s, 26) && __PKV_KI(s, 27) &&	\
	 __PKV_KI(s, 28) && __PKV_KI(s, 29) && __PKV_KI(s, 30) &&	\
	 __PKV_KI(s, 31))
#define __PKV_KEY_FREE(s)						\
	(__builtin_strcmp(s, "mod") && __builtin_strcmp(s, "src") &&	\
	 __builtin_strcmp(s, "drv") && __builtin_strcmp(s, "dev") &&	\
	 __builtin_strcmp(s, "netdev") && __builtin_strcmp(s, "ifindex") && \
	 __builtin_strcmp(s, "subsystem") && __builtin_strcmp(s, "device"))
#define __PKV_CHECK(k, f, a)						\
	compiletime_assert(__PKV_KEY_CHARS(#k) && __PKV_KEY_FREE(#k),	\
			   "printk_kv: key '" #k "' is reserved or not [a-z][a-z0-9_]*");

#define __PKV_PREFIX_CHECK						\
	compiletime_assert(!__builtin_strchr(PKV_PREFIX, '['),		\
			   "printk_kv: PKV_PREFIX must not contain '['")

/*
 * Render @s as a quoted, escaped value into @buf (PKV_STR_MAX bytes): '"'
 * and '\' are backslash-escaped, tab and newline become \t and \n, every
 * other byte outside 0x20..0x7e becomes \xNN. A value that does not fit is
 * cut on an escape boundary and marked with "..." after the closing quote.
 * A NULL @s renders as the bare word null.
 *
 * string_escape_mem() was the first choice, but under ESCAPE_NP a printable
 * '\' passes unescaped, and into a short buffer it writes half an escape
 * sequence; either makes the value ambiguous.
 */
static noinline __maybe_unused const char *__pkv_str(char *buf, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	/* Keep room for the closing quote, the cut mark and the NUL. */
	const char *end = buf + PKV_STR_MAX - 5;
	char *p = buf;

	if (!s)
		return "null";
	*p++ = '"';
	for (; *s; s++) {
		unsigned char c = *s;

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			if (p + 1 > end)
				break;
			*p++ = c;
			continue;
		}
		if (p + (c == '"' || c == '\\' || c == '\n' || c == '\t' ? 2 : 4) > end)
			break;
		*p++ = '\\';
		if (c == '"' || c == '\\') {
			*p++ = c;
		} else if (c == '\n') {
			*p++ = 'n';
		} else if (c == '\t') {
			*p++ = 't';
		} else {
			*p++ = 'x';
			*p++ = hex[c >> 4];
			*p++ = hex[c & 0xf];
		}
	}
	*p++ = '"';
	if (*s) {
		*p++ = '.';
		*p++ = '.';
		*p++ = '.';
	}
	*p = '\0';
	return buf;
}

/*
 * Render errno @err into @buf (PKV_ERR_MAX bytes): symbolically through %pe
 * for -MAX_ERRNO..-1 ("-EINVAL"), in decimal otherwise, since %pe prints a
 * non-error value as a pointer.
 */
static noinline __maybe_unused const char *__pkv_err(char *buf, int err)
{
	if (err < 0 && err >= -MAX_ERRNO)
		snprintf(buf, PKV_ERR_MAX, "%pe", ERR_PTR(err));
	else
		snprintf(buf, PKV_ERR_MAX, "%d", err);
	return buf;
}

/**
 * KV_U32 - an unsigned 32-bit field, in decimal
 * @key: field name, [a-z][a-z0-9_]*
 * @v: value; -Wformat rejects a wider type
 */
#define KV_U32(key, v)		(key, " " #key "=%u", (v))
/**
 * KV_S32 - a signed 32-bit field, in decimal
 * @key: field name
 * @v: value
 */
#define KV_S32(key, v)		(key, " " #key "=%d", (v))
/**
 * KV_U64 - an unsigned 64-bit field, in decimal
 * @key: field name
 * @v: value of type u64 (unsigned long long)
 */
#define KV_U64(key, v)		(key, " " #key "=%llu", (v))
/**
 * KV_S64 - a signed 64-bit field, in decimal
 * @key: field name
 * @v: value of type s64 (long long)
 */
#define KV_S64(key, v)		(key, " " #key "=%lld", (v))
/**
 * KV_HEX - an unsigned 32-bit field, in hexadecimal (0x1f)
 * @key: field name
 * @v: value
 */
#define KV_HEX(key, v)		(key, " " #key "=0x%x", (v))
/**
 * KV_HEX64 - an unsigned 64-bit field, in hexadecimal
 * @key: field name
 * @v: value of type u64
 */
#define KV_HEX64(key, v)	(key, " " #key "=0x%llx", (v))
/**
 * KV_BOOL - a boolean field, true or false
 * @key: field name
 * @v: any scalar; non-zero is true
 */
#define KV_BOOL(key, v)		(key, " " #key "=%s", (v) ? "true" : "false")
/**
 * KV_STR - a string field, quoted and escaped (see __pkv_str())
 * @key: field name
 * @s: NUL-terminated string, or NULL; evaluated once
 *
 * Uses PKV_STR_MAX bytes of stack in the calling block.
 */
#define KV_STR(key, s)							\
	(key, " " #key "=%s", __pkv_str((char [PKV_STR_MAX]){ 0 }, (s)))
/**
 * KV_ERR - an errno field, rendered symbolically (-EINVAL)
 * @key: field name
 * @err: int, a negative errno; 0 and other values print in decimal
 */
#define KV_ERR(key, err)						\
	(key, " " #key "=%s", __pkv_err((char [PKV_ERR_MAX]){ 0 }, (err)))

/* Format of a call: prefix, block with static and per-call fields, message. */
#define __PKV_FORMAT(extra, msg, ...)					\
	__PKV_OPEN extra __PKV_MAP(__PKV_FMT, __VA_ARGS__) "] " msg "\n"

#define __PKV_CALL(pfn, lvl, msg, ...)					\
do {									\
	__PKV_PREFIX_CHECK;						\
	__PKV_MAP(__PKV_CHECK, __VA_ARGS__)				\
	pfn(lvl __PKV_FORMAT("", msg, __VA_ARGS__)			\
	    __PKV_MAP(__PKV_ARG, __VA_ARGS__));				\
} while (0)

/**
 * pr_emerg_kv - print an emergency-level record with typed fields
 * @msg: the human message, a string literal without conversions
 * @...: one to twelve KV_*() items
 *
 * Expands to one printk() whose format is the file's prefix, the field
 * block (static fields, then the items in order) and @msg. The other levels
 * are alike: pr_alert_kv(), pr_crit_kv(), pr_err_kv(), pr_warn_kv(),
 * pr_notice_kv(), pr_info_kv(), pr_debug_kv(); each has an _once and a
 * _ratelimited form that behave as printk_once() and printk_ratelimited().
 */
#define pr_emerg_kv(msg, ...)	__PKV_CALL(printk, KERN_EMERG, msg, __VA_ARGS__)
#define pr_alert_kv(msg, ...)	__PKV_CALL(printk, KERN_ALERT, msg, __VA_ARGS__)
#define pr_crit_kv(msg, ...)	__PKV_CALL(printk, KERN_CRIT, msg, __VA_ARGS__)
#define pr_err_kv(msg, ...)	__PKV_CALL(printk, KERN_ERR, msg, __VA_ARGS__)
#define pr_warn_kv(msg, ...)	__PKV_CALL(printk, KERN_WARNING, msg, __VA_ARGS__)
#define pr_notice_kv(msg, ...)	__PKV_CALL(printk, KERN_NOTICE, msg, __VA_ARGS__)
#define pr_info_kv(msg, ...)	__PKV_CALL(printk, KERN_INFO, msg, __VA_ARGS__)

#define pr_emerg_kv_once(msg, ...)					\
	__PKV_CALL(printk_once, KERN_EMERG, msg, __VA_ARGS__)
#define pr_alert_kv_once(msg, ...)					\
	__PKV_CALL(printk_once, KERN_ALERT, msg, __VA_ARGS__)
#define pr_crit_kv_once(msg, ...)					\
	__PKV_CALL(printk_once, KERN_CRIT, msg, __VA_ARGS__)
#define pr_err_kv_once(msg, ...)					\
	__PKV_CALL(printk_once, KERN_ERR, msg, __VA_ARGS__)
#define pr_warn_kv_once(msg, ...)					\
	__PKV_CALL(printk_once, KERN_WARNING, msg, __VA_ARGS__)
#define pr_notice_kv_once(msg, ...)					\
	__PKV_CALL(printk_once, KERN_NOTICE, msg, __VA_ARGS__)
#define pr_info_kv_once(msg, ...)					\
	__PKV_CALL(printk_once, KERN_INFO, msg, __VA_ARGS__)

#define pr_emerg_kv_ratelimited(msg, ...)				\
	__PKV_CALL(printk_ratelimited, KERN_EMERG, msg, __VA_ARGS__)
#define pr_alert_kv_ratelimited(msg, ...)				\
	__PKV_CALL(printk_ratelimited, KERN_ALERT, msg, __VA_ARGS__)
#define pr_crit_kv_ratelimited(msg, ...)				\
	__PKV_CALL(printk_ratelimited, KERN_CRIT, msg, __VA_ARGS__)
#define pr_err_kv_ratelimited(msg, ...)					\
	__PKV_CALL(printk_ratelimited, KERN_ERR, msg, __VA_ARGS__)
#define pr_warn_kv_ratelimited(msg, ...)				\
	__PKV_CALL(printk_ratelimited, KERN_WARNING, msg, __VA_ARGS__)
#define pr_notice_kv_ratelimited(msg, ...)				\
	__PKV_CALL(printk_ratelimited, KERN_NOTICE, msg, __VA_ARGS__)
#define pr_info_kv_ratelimited(msg, ...)				\
	__PKV_CALL(printk_ratelimited, KERN_INFO, msg, __VA_ARGS__)

/*
 * pr_debug_kv() follows pr_debug(): through dynamic debug where it is built
 * in, a plain printk under DEBUG, otherwise compiled out with its arguments
 * still type-checked and never evaluated. Through dynamic debug the record
 * is printed by printk() itself rather than __dynamic_pr_debug(), so the
 * dyndbg +p flag enables it and no decoration lands before the prefix: the
 * block already carries the module and the call site.
 */
#if defined(CONFIG_DYNAMIC_DEBUG) ||					\
	(defined(CONFIG_DYNAMIC_DEBUG_CORE) && defined(DYNAMIC_DEBUG_MODULE))
#define pr_debug_kv(msg, ...)						\
do {									\
	__PKV_PREFIX_CHECK;						\
	__PKV_MAP(__PKV_CHECK, __VA_ARGS__)				\
	_dynamic_func_call_no_desc(__PKV_FORMAT("", msg, __VA_ARGS__),	\
		printk, KERN_DEBUG __PKV_FORMAT("", msg, __VA_ARGS__)	\
		__PKV_MAP(__PKV_ARG, __VA_ARGS__));			\
} while (0)
#elif defined(DEBUG)
#define pr_debug_kv(msg, ...)	__PKV_CALL(printk, KERN_DEBUG, msg, __VA_ARGS__)
#else
#define pr_debug_kv(msg, ...)	__PKV_CALL(no_printk, KERN_DEBUG, msg, __VA_ARGS__)
#endif

#ifdef DEBUG
#define pr_debug_kv_once(msg, ...)					\
	__PKV_CALL(printk_once, KERN_DEBUG, msg, __VA_ARGS__)
#define pr_debug_kv_ratelimited(msg, ...)				\
	__PKV_CALL(printk_ratelimited, KERN_DEBUG, msg, __VA_ARGS__)
#else
#define pr_debug_kv_once(msg, ...)					\
	__PKV_CALL(no_printk, KERN_DEBUG, msg, __VA_ARGS__)
#define pr_debug_kv_ratelimited(msg, ...)				\
	__PKV_CALL(no_printk, KERN_DEBUG, msg, __VA_ARGS__)
#endif

/*
 * Device records go through dev_printk_emit(), which attaches SUBSYSTEM and
 * DEVICE as dev_printk() does, but with our format as the whole text: the
 * driver and device names are fields, escaped, rather than an unescaped
 * text prefix in front of the block.
 */
#define __PKV_DEV_CALL(level, kern, dev, msg, ...)			\
do {									\
	const struct device *__pkv_dev = (dev);				\
									\
	__PKV_PREFIX_CHECK;						\
	__PKV_MAP(__PKV_CHECK, __VA_ARGS__)				\
	printk_index_subsys_emit("", kern,				\
		__PKV_FORMAT(" drv=%s dev=%s", msg, __VA_ARGS__));	\
	dev_printk_emit(level, __pkv_dev,				\
		__PKV_FORMAT(" drv=%s dev=%s", msg, __VA_ARGS__),	\
		__pkv_str((char [PKV_STR_MAX]){ 0 },			\
			  dev_driver_string(__pkv_dev)),		\
		__pkv_str((char [PKV_STR_MAX]){ 0 }, dev_name(__pkv_dev))	\
		__PKV_MAP(__PKV_ARG, __VA_ARGS__));			\
} while (0)

/**
 * dev_err_kv - print a device record with typed fields
 * @dev: struct device; its SUBSYSTEM and DEVICE go to the record's dictionary
 * @msg: the human message, a string literal without conversions
 * @...: one to twelve KV_*() items
 *
 * The block gains drv= and dev= (driver and device names) before the items.
 * Likewise dev_emerg_kv(), dev_alert_kv(), dev_crit_kv(), dev_warn_kv(),
 * dev_notice_kv() and dev_info_kv(); dev_dbg_kv() follows dev_dbg().
 */
#define dev_err_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(LOGLEVEL_ERR, KERN_ERR, dev, msg, __VA_ARGS__)
#define dev_emerg_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(LOGLEVEL_EMERG, KERN_EMERG, dev, msg, __VA_ARGS__)
#define dev_alert_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(LOGLEVEL_ALERT, KERN_ALERT, dev, msg, __VA_ARGS__)
#define dev_crit_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(LOGLEVEL_CRIT, KERN_CRIT, dev, msg, __VA_ARGS__)
#define dev_warn_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(LOGLEVEL_WARNING, KERN_WARNING, dev, msg, __VA_ARGS__)
#define dev_notice_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(LOGLEVEL_NOTICE, KERN_NOTICE, dev, msg, __VA_ARGS__)
#define dev_info_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(LOGLEVEL_INFO, KERN_INFO, dev, msg, __VA_ARGS__)

#if defined(CONFIG_DYNAMIC_DEBUG) ||					\
	(defined(CONFIG_DYNAMIC_DEBUG_CORE) && defined(DYNAMIC_DEBUG_MODULE))
#define dev_dbg_kv(dev, msg, ...)					\
	_dynamic_func_call_no_desc(					\
		__PKV_FORMAT(" drv=%s dev=%s", msg, __VA_ARGS__),	\
		__PKV_DEV_CALL, LOGLEVEL_DEBUG, KERN_DEBUG, dev, msg,	\
		__VA_ARGS__)
#elif defined(DEBUG)
#define dev_dbg_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(LOGLEVEL_DEBUG, KERN_DEBUG, dev, msg, __VA_ARGS__)
#else
#define dev_dbg_kv(dev, msg, ...)					\
do {									\
	if (0)								\
		__PKV_DEV_CALL(LOGLEVEL_DEBUG, KERN_DEBUG, dev, msg,	\
			       __VA_ARGS__);				\
} while (0)
#endif

/*
 * Network device records carry the interface name and index; the
 * dictionary is that of the net_device itself (SUBSYSTEM=net, DEVICE=n<ifindex>),
 * which journald resolves to the interface.
 */
#define __PKV_NETDEV_CALL(level, kern, ndev, msg, ...)			\
do {									\
	const struct net_device *__pkv_nd = (ndev);			\
									\
	__PKV_PREFIX_CHECK;						\
	__PKV_MAP(__PKV_CHECK, __VA_ARGS__)				\
	printk_index_subsys_emit("", kern,				\
		__PKV_FORMAT(" netdev=%s ifindex=%d", msg, __VA_ARGS__));	\
	dev_printk_emit(level, &__pkv_nd->dev,				\
		__PKV_FORMAT(" netdev=%s ifindex=%d", msg, __VA_ARGS__),	\
		__pkv_str((char [PKV_STR_MAX]){ 0 }, netdev_name(__pkv_nd)), \
		__pkv_nd->ifindex __PKV_MAP(__PKV_ARG, __VA_ARGS__));	\
} while (0)

/**
 * netdev_err_kv - print a network device record with typed fields
 * @ndev: struct net_device
 * @msg: the human message, a string literal without conversions
 * @...: one to twelve KV_*() items
 *
 * The block gains netdev= and ifindex= before the items. Likewise
 * netdev_warn_kv(), netdev_notice_kv() and netdev_info_kv().
 */
#define netdev_err_kv(ndev, msg, ...)					\
	__PKV_NETDEV_CALL(LOGLEVEL_ERR, KERN_ERR, ndev, msg, __VA_ARGS__)
#define netdev_warn_kv(ndev, msg, ...)					\
	__PKV_NETDEV_CALL(LOGLEVEL_WARNING, KERN_WARNING, ndev, msg,	\
			  __VA_ARGS__)
#define netdev_notice_kv(ndev, msg, ...)				\
	__PKV_NETDEV_CALL(LOGLEVEL_NOTICE, KERN_NOTICE, ndev, msg,	\
			  __VA_ARGS__)
#define netdev_info_kv(ndev, msg, ...)					\
	__PKV_NETDEV_CALL(LOGLEVEL_INFO, KERN_INFO, ndev, msg, __VA_ARGS__)

#endif /* _LINUX_PRINTK_KV_H */
