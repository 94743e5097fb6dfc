/* SPDX-License-Identifier: GPL-2.0 */
/*
 * printk_kv.h - key/value fields on pr_*() records, through pr_fmt
 *
 * Including this header gives every pr_*() call of the file one field block
 * after its prefix, with the module, at no cost to the call sites:
 *
 *	l2tp_core: [kv mod=l2tp_core] tunnel destroyed
 *
 * pr_<level>_kv() adds typed per-call fields to the same block:
 *
 *	pr_warn_kv("session not found", KV_U32(tunnel, tid), KV_U32(session, sid));
 *	l2tp_core: [kv mod=l2tp_core tunnel=4 session=7] session not found
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
 *	PKV_STATIC	static fields of the file: up to four PKV_FIELD()s,
 *			one after the other
 *
 * The header replaces pr_fmt(), so it works whether it comes before or after
 * the other includes; a file converted to it drops its own pr_fmt() define.
 */
#ifndef _LINUX_PRINTK_KV_H
#define _LINUX_PRINTK_KV_H

#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/stringify.h>

/*
 * With the printk support (CONFIG_PRINTK_KV), every printk() of a converted
 * file goes through _printk_kv(): printk then knows that the record comes
 * from a printk_kv call site, and trusts the fields of a record whose
 * format opens the block (Documentation/core-api/printk-kv.rst). A format
 * that is not a compile-time constant takes printk()'s own path: it could
 * hold a block made of data. Without the support, the header works alone
 * through printk(), with the block in the text.
 */
#ifdef CONFIG_PRINTK_KV
#define __pkv_printk(fmt, ...)						\
({									\
	__printk_index_emit(fmt, NULL, NULL);				\
	__builtin_constant_p(fmt) ? _printk_kv(fmt, ##__VA_ARGS__) :	\
				    _printk(fmt, ##__VA_ARGS__);	\
})
#undef printk
#define printk __pkv_printk
#endif

#ifndef PKV_PREFIX
#define PKV_PREFIX KBUILD_MODNAME ": "
#endif

#ifndef PKV_STATIC
#define PKV_STATIC
#endif

/*
 * Bytes of one escaped string value, quotes and cut mark included, and of
 * the buffer that holds it with its NUL. A plain number: __PKV_STR_FMT
 * stringifies it.
 */
#define __PKV_STR_LEN	127
#define PKV_STR_MAX	(__PKV_STR_LEN + 1)
/* Bytes of one rendered errno value ("-EPROTONOSUPPORT" and the like). */
#define PKV_ERR_MAX	24

/**
 * PKV_FIELD - a static field for PKV_STATIC
 * @key: field name, [a-z][a-z0-9_]*, as a per-call item's
 * @value: bare value, 1 to 32 of [A-Za-z0-9_.:/+-]
 *
 * Example: ``#define PKV_STATIC PKV_FIELD(subsys, ext4) PKV_FIELD(layer, mb)``.
 * Key and value are checked where a _kv call is compiled, as per-call keys
 * are; a file with pr_*() calls only has no such place, and a bad field
 * then goes unchecked into every record (printk then refuses its block).
 */
#define PKV_FIELD(key, value) (#key "=" #value, #key, #value),

/*
 * PKV_STATIC is a list of fields, each a group (field, key, value) of
 * strings and a comma. __PKV_STATIC_STRS(m, PKV_STATIC) gives " " m(group)
 * for each: the static part of the block.
 */
#define __PKV_FIELD_STR(f, k, v)	f
#define __PKV_FIELD_KEY(f, k, v)	k
#define __PKV_STATIC_STRS(m, ...)					\
	__PKV_PASTE(__PKV_SSTRS_, __PKV_NPREV(__VA_ARGS__))(m, __VA_ARGS__)
#define __PKV_SSTRS_0(m, ...)	""
#define __PKV_SSTRS_1(m, x, ...)	" " m x
#define __PKV_SSTRS_2(m, x, ...)	" " m x __PKV_SSTRS_1(m, __VA_ARGS__)
#define __PKV_SSTRS_3(m, x, ...)	" " m x __PKV_SSTRS_2(m, __VA_ARGS__)
#define __PKV_SSTRS_4(m, x, ...)	" " m x __PKV_SSTRS_3(m, __VA_ARGS__)
/* More than four: an error wherever the block is used, pr_*() included. */
#define __PKV_SSTRS_5(m, ...)	__pkv_more_than_four_static_fields
#define __PKV_SSTRS_6(m, ...)	__pkv_more_than_four_static_fields
#define __PKV_SSTRS_7(m, ...)	__pkv_more_than_four_static_fields
#define __PKV_SSTRS_8(m, ...)	__pkv_more_than_four_static_fields
#define __PKV_SSTRS_9(m, ...)	__pkv_more_than_four_static_fields
#define __PKV_SSTRS_10(m, ...)	__pkv_more_than_four_static_fields
#define __PKV_SSTRS_11(m, ...)	__pkv_more_than_four_static_fields
#define __PKV_STATIC_STR	__PKV_STATIC_STRS(__PKV_FIELD_STR, PKV_STATIC)

/*
 * The block opening: marker, module, static fields. The call site is not
 * written: printk index lists every format with its file, line and
 * function, and the format is what tells call sites apart.
 */
#define __PKV_OPEN_WITH(prefix)						\
	prefix "[kv mod=" KBUILD_MODNAME __PKV_STATIC_STR
/* pr_*() records open with the prefix, device records with the block. */
#define __PKV_OPEN		__PKV_OPEN_WITH(PKV_PREFIX)
#define __PKV_BLOCK_OPEN	__PKV_OPEN_WITH("")

#undef pr_fmt
#define pr_fmt(fmt) __PKV_OPEN "] " fmt

/*
 * Per-call items are (key, format fragment, argument) triples, the key a
 * string: stringified as written, so that a key which is also a macro name
 * is checked and printed as the same word. A call's
 * format and argument list are built by a chain of single macro calls,
 * __PKV_BUILD_<n>(emit, format so far, tail, (arguments so far), items...),
 * each moving one item's fragment into the format and its argument into
 * the list; __PKV_BUILD_0 hands both to @emit. Up to 12 items.
 */
#define __PKV_UNPACK(...)	__VA_ARGS__
#define __PKV_PASTE(a, b)	__PKV_PASTE_(a, b)
#define __PKV_PASTE_(a, b)	a##b
#define __PKV_NARGS(...)						\
	__PKV_NTH(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define __PKV_NPREV(...)						\
	__PKV_NTH(__VA_ARGS__, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -)
#define __PKV_NTH(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, n, ...) n

/*
 * Level n splits its first item (x) into k, f, a through __PKV_Bn (an
 * expansion step) and __PKV_Bn_; each level has its own names, since a
 * macro cannot expand inside its own expansion.
 */
#define __PKV_BUILD_0(emit, fmt, tail, args, ...)			\
	__PKV_APPLY(emit, fmt __PKV_TAIL_FMT tail,			\
		    __PKV_UNPACK args __PKV_TAIL_ARGS tail)
#define __PKV_APPLY(emit, ...)	emit(__VA_ARGS__)

#define __PKV_BUILD_1(emit, fmt, tail, args, x, ...)			\
	__PKV_B1(emit, fmt, tail, args, __PKV_UNPACK x, __VA_ARGS__)
#define __PKV_B1(...)		__PKV_B1_(__VA_ARGS__)
#define __PKV_B1_(emit, fmt, tail, args, k, f, a, ...)			\
	__PKV_BUILD_0(emit, fmt f, tail, (__PKV_UNPACK args, a), __VA_ARGS__)

#define __PKV_BUILD_2(emit, fmt, tail, args, x, ...)			\
	__PKV_B2(emit, fmt, tail, args, __PKV_UNPACK x, __VA_ARGS__)
#define __PKV_B2(...)		__PKV_B2_(__VA_ARGS__)
#define __PKV_B2_(emit, fmt, tail, args, k, f, a, ...)			\
	__PKV_BUILD_1(emit, fmt f, tail, (__PKV_UNPACK args, a), __VA_ARGS__)

#define __PKV_BUILD_3(emit, fmt, tail, args, x, ...)			\
	__PKV_B3(emit, fmt, tail, args, __PKV_UNPACK x, __VA_ARGS__)
#define __PKV_B3(...)		__PKV_B3_(__VA_ARGS__)
#define __PKV_B3_(emit, fmt, tail, args, k, f, a, ...)			\
	__PKV_BUILD_2(emit, fmt f, tail, (__PKV_UNPACK args, a), __VA_ARGS__)

#define __PKV_BUILD_4(emit, fmt, tail, args, x, ...)			\
	__PKV_B4(emit, fmt, tail, args, __PKV_UNPACK x, __VA_ARGS__)
#define __PKV_B4(...)		__PKV_B4_(__VA_ARGS__)
#define __PKV_B4_(emit, fmt, tail, args, k, f, a, ...)			\
	__PKV_BUILD_3(emit, fmt f, tail, (__PKV_UNPACK args, a), __VA_ARGS__)

#define __PKV_BUILD_5(emit, fmt, tail, args, x, ...)			\
	__PKV_B5(emit, fmt, tail, args, __PKV_UNPACK x, __VA_ARGS__)
#define __PKV_B5(...)		__PKV_B5_(__VA_ARGS__)
#define __PKV_B5_(emit, fmt, tail, args, k, f, a, ...)			\
	__PKV_BUILD_4(emit, fmt f, tail, (__PKV_UNPACK args, a), __VA_ARGS__)

#define __PKV_BUILD_6(emit, fmt, tail, args, x, ...)			\
	__PKV_B6(emit, fmt, tail, args, __PKV_UNPACK x, __VA_ARGS__)
#define __PKV_B6(...)		__PKV_B6_(__VA_ARGS__)
#define __PKV_B6_(emit, fmt, tail, args, k, f, a, ...)			\
	__PKV_BUILD_5(emit, fmt f, tail, (__PKV_UNPACK args, a), __VA_ARGS__)

#define __PKV_BUILD_7(emit, fmt, tail, args, x, ...)			\
	__PKV_B7(emit, fmt, tail, args, __PKV_UNPACK x, __VA_ARGS__)
#define __PKV_B7(...)		__PKV_B7_(__VA_ARGS__)
#define __PKV_B7_(emit, fmt, tail, args, k, f, a, ...)			\
	__PKV_BUILD_6(emit, fmt f, tail, (__PKV_UNPACK args, a), __VA_ARGS__)

#define __PKV_BUILD_8(emit, fmt, tail, args, x, ...)			\
	__PKV_B8(emit, fmt, tail, args, __PKV_UNPACK x, __VA_ARGS__)
#define __PKV_B8(...)		__PKV_B8_(__VA_ARGS__)
#define __PKV_B8_(emit, fmt, tail, args, k, f, a, ...)			\
	__PKV_BUILD_7(emit, fmt f, tail, (__PKV_UNPACK args, a), __VA_ARGS__)

#define __PKV_BUILD_9(emit, fmt, tail, args, x, ...)			\
	__PKV_B9(emit, fmt, tail, args, __PKV_UNPACK x, __VA_ARGS__)
#define __PKV_B9(...)		__PKV_B9_(__VA_ARGS__)
#define __PKV_B9_(emit, fmt, tail, args, k, f, a, ...)			\
	__PKV_BUILD_8(emit, fmt f, tail, (__PKV_UNPACK args, a), __VA_ARGS__)

#define __PKV_BUILD_10(emit, fmt, tail, args, x, ...)			\
	__PKV_B10(emit, fmt, tail, args, __PKV_UNPACK x, __VA_ARGS__)
#define __PKV_B10(...)		__PKV_B10_(__VA_ARGS__)
#define __PKV_B10_(emit, fmt, tail, args, k, f, a, ...)			\
	__PKV_BUILD_9(emit, fmt f, tail, (__PKV_UNPACK args, a), __VA_ARGS__)

#define __PKV_BUILD_11(emit, fmt, tail, args, x, ...)			\
	__PKV_B11(emit, fmt, tail, args, __PKV_UNPACK x, __VA_ARGS__)
#define __PKV_B11(...)		__PKV_B11_(__VA_ARGS__)
#define __PKV_B11_(emit, fmt, tail, args, k, f, a, ...)			\
	__PKV_BUILD_10(emit, fmt f, tail, (__PKV_UNPACK args, a), __VA_ARGS__)

#define __PKV_BUILD_12(emit, fmt, tail, args, x, ...)			\
	__PKV_B12(emit, fmt, tail, args, __PKV_UNPACK x, __VA_ARGS__)
#define __PKV_B12(...)		__PKV_B12_(__VA_ARGS__)
#define __PKV_B12_(emit, fmt, tail, args, k, f, a, ...)			\
	__PKV_BUILD_11(emit, fmt f, tail, (__PKV_UNPACK args, a), __VA_ARGS__)

/*
 * A call's tail is a group (format after the items, its arguments...):
 * the lead, a group ("] ", or "] " and the device words of dev_*_kv()),
 * the message and the end, a group ("\n", or "%pV\n" and the
 * va_format). The message is a literal, or KV_MSG(format, arguments...),
 * a group, told apart by whether __PKV_PROBE expands in front of it.
 */
#define __PKV_TAIL_FMT(fmt, ...)	fmt
#define __PKV_TAIL_ARGS(fmt, ...)	__PKV_UNPACK(, ##__VA_ARGS__)
#define __PKV_PROBE(...)		__PKV_UNPACK(~, 1)
#define __PKV_SECOND(...)		__PKV_SECOND_(__VA_ARGS__)
#define __PKV_SECOND_(a, b, ...)	b
#define __PKV_IS_GROUP(x)		__PKV_SECOND(__PKV_PROBE x, 0)
#define __PKV_TAIL(lead, msg, end)					\
	__PKV_PASTE(__PKV_TAIL_, __PKV_IS_GROUP(msg))(lead, msg, end)
#define __PKV_TAIL_0(lead, msg, end)					\
	(__PKV_TAIL_FMT lead msg __PKV_TAIL_FMT end			\
	 __PKV_TAIL_ARGS lead __PKV_TAIL_ARGS end)
#define __PKV_TAIL_1(lead, msg, end)					\
	__PKV_TAIL_M(lead, end, __PKV_UNPACK msg)
#define __PKV_TAIL_M(...)	__PKV_TAIL_M_(__VA_ARGS__)
#define __PKV_TAIL_M_(lead, end, fmt, ...)				\
	(__PKV_TAIL_FMT lead fmt __PKV_TAIL_FMT end			\
	 __PKV_TAIL_ARGS lead, ##__VA_ARGS__ __PKV_TAIL_ARGS end)

#define __PKV_FIRST(...)	__PKV_FIRST_(__VA_ARGS__)
#define __PKV_FIRST_(next, emit, fmt, tail, k, f, a, ...)		\
	next(emit, fmt f, tail, (a), __VA_ARGS__)

/* emit(head fragments tail, arguments of the items) */
#define __PKV_EMIT(emit, head, tail, ...)				\
	__PKV_FIRST(__PKV_PASTE(__PKV_BUILD_, __PKV_NPREV(__VA_ARGS__)),	\
		    emit, head, tail, __PKV_UNPACK __VA_ARGS__)
/* emit(head fragments tail, @args, arguments of the items) */
#define __PKV_EMIT_AFTER(emit, head, tail, args, ...)			\
	__PKV_PASTE(__PKV_BUILD_, __PKV_NARGS(__VA_ARGS__))(emit, head, tail,	\
		args, __VA_ARGS__)

/*
 * Keys are checked when the call is compiled, as BUILD_BUG_ON() checks its
 * condition: [a-z][a-z0-9_]*, at most 32 bytes, none of the keys the header
 * writes itself, that journald reserves, or "src", which readers give the
 * call site they find in printk index; and each key once in the record,
 * static fields included, since printk and readers refuse a block with a
 * key twice. The checks only index and compare string literals, which gcc
 * and clang fold in their front end, also under -ffreestanding.
 */
#define __PKV_LOWER	"abcdefghijklmnopqrstuvwxyz"
/* Byte @i of literal @s is in @set, or @s is shorter. */
#define __PKV_CH(s, i, set)						\
	(sizeof(s) - 1 <= (i) ||					\
	 __builtin_strchr(set, (s)[(i) < sizeof(s) ? (i) : 0]))
/* Bytes @i to @i + 7 of @s. */
#define __PKV_CH8(s, i, set)						\
	(__PKV_CH(s, i, set) && __PKV_CH(s, i + 1, set) &&		\
	 __PKV_CH(s, i + 2, set) && __PKV_CH(s, i + 3, set) &&		\
	 __PKV_CH(s, i + 4, set) && __PKV_CH(s, i + 5, set) &&		\
	 __PKV_CH(s, i + 6, set) && __PKV_CH(s, i + 7, set))
#define __PKV_KEYSET	__PKV_LOWER "0123456789_"
/* [a-z][a-z0-9_]*: bytes 0 to 32; a longer key fails on its length. */
#define __PKV_KEY_CHARS(ks)						\
	(__PKV_CH(ks, 0, __PKV_LOWER) && __PKV_CH8(ks, 1, __PKV_KEYSET) && \
	 __PKV_CH8(ks, 9, __PKV_KEYSET) && __PKV_CH8(ks, 17, __PKV_KEYSET) && \
	 __PKV_CH8(ks, 25, __PKV_KEYSET))
#define __PKV_KEY_OK(ks)						\
	(sizeof(ks) > 1 && sizeof(ks) <= 33 && __PKV_KEY_CHARS(ks) &&	\
	 __builtin_strcmp(ks, "mod") && __builtin_strcmp(ks, "src") &&	\
	 __builtin_strcmp(ks, "drv") && __builtin_strcmp(ks, "dev") &&	\
	 __builtin_strcmp(ks, "netdev") &&				\
	 __builtin_strcmp(ks, "ifindex") &&				\
	 __builtin_strcmp(ks, "subsystem") &&				\
	 __builtin_strcmp(ks, "device") &&				\
	 __builtin_strcmp(ks, "printk_kv"))
#define __PKV_VALUE_CHARSET						\
	__PKV_LOWER "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:/+-"
/* A static value: [A-Za-z0-9_.:/+-], bytes 0 to 31. */
#define __PKV_VALUE_CHARS(vs)						\
	(__PKV_CH8(vs, 0, __PKV_VALUE_CHARSET) &&			\
	 __PKV_CH8(vs, 8, __PKV_VALUE_CHARSET) &&			\
	 __PKV_CH8(vs, 16, __PKV_VALUE_CHARSET) &&			\
	 __PKV_CH8(vs, 24, __PKV_VALUE_CHARSET))
#define __PKV_VALUE_OK(vs)						\
	(sizeof(vs) > 1 && sizeof(vs) <= 33 && __PKV_VALUE_CHARS(vs))

/*
 * Key @k differs from the key of each item (key, fragment, argument) after
 * it, and from each static field's.
 */
#define __PKV_ITEM_KEY(k, f, a)	k
#define __PKV_NE_1(k, y)	__builtin_strcmp(k, __PKV_ITEM_KEY y)
#define __PKV_NE_2(k, y, ...)						\
	(__builtin_strcmp(k, __PKV_ITEM_KEY y) && __PKV_NE_1(k, __VA_ARGS__))
#define __PKV_NE_3(k, y, ...)						\
	(__builtin_strcmp(k, __PKV_ITEM_KEY y) && __PKV_NE_2(k, __VA_ARGS__))
#define __PKV_NE_4(k, y, ...)						\
	(__builtin_strcmp(k, __PKV_ITEM_KEY y) && __PKV_NE_3(k, __VA_ARGS__))
#define __PKV_NE_5(k, y, ...)						\
	(__builtin_strcmp(k, __PKV_ITEM_KEY y) && __PKV_NE_4(k, __VA_ARGS__))
#define __PKV_NE_6(k, y, ...)						\
	(__builtin_strcmp(k, __PKV_ITEM_KEY y) && __PKV_NE_5(k, __VA_ARGS__))
#define __PKV_NE_7(k, y, ...)						\
	(__builtin_strcmp(k, __PKV_ITEM_KEY y) && __PKV_NE_6(k, __VA_ARGS__))
#define __PKV_NE_8(k, y, ...)						\
	(__builtin_strcmp(k, __PKV_ITEM_KEY y) && __PKV_NE_7(k, __VA_ARGS__))
#define __PKV_NE_9(k, y, ...)						\
	(__builtin_strcmp(k, __PKV_ITEM_KEY y) && __PKV_NE_8(k, __VA_ARGS__))
#define __PKV_NE_10(k, y, ...)						\
	(__builtin_strcmp(k, __PKV_ITEM_KEY y) && __PKV_NE_9(k, __VA_ARGS__))
#define __PKV_NE_11(k, y, ...)						\
	(__builtin_strcmp(k, __PKV_ITEM_KEY y) && __PKV_NE_10(k, __VA_ARGS__))
#define __PKV_STATIC_NE(k, ...)						\
	__PKV_PASTE(__PKV_SNE_, __PKV_NPREV(__VA_ARGS__))(k, __VA_ARGS__)
#define __PKV_SNE_0(k, ...)	1
#define __PKV_SNE_1(k, g, ...)	__builtin_strcmp(k, __PKV_FIELD_KEY g)
#define __PKV_SNE_2(k, g, ...)						\
	(__builtin_strcmp(k, __PKV_FIELD_KEY g) && __PKV_SNE_1(k, __VA_ARGS__))
#define __PKV_SNE_3(k, g, ...)						\
	(__builtin_strcmp(k, __PKV_FIELD_KEY g) && __PKV_SNE_2(k, __VA_ARGS__))
#define __PKV_SNE_4(k, g, ...)						\
	(__builtin_strcmp(k, __PKV_FIELD_KEY g) && __PKV_SNE_3(k, __VA_ARGS__))
#define __PKV_SNE_5(k, ...)	1
#define __PKV_SNE_6(k, ...)	1
#define __PKV_SNE_7(k, ...)	1
#define __PKV_SNE_8(k, ...)	1
#define __PKV_SNE_9(k, ...)	1
#define __PKV_SNE_10(k, ...)	1
#define __PKV_SNE_11(k, ...)	1
#define __pkv_key_check(k, once)					\
	({								\
		compiletime_assert(__PKV_KEY_OK(k),			\
			"printk_kv: key '" k "' is reserved or not [a-z][a-z0-9_]*"); \
		compiletime_assert(once,				\
			"printk_kv: key '" k "' twice in one record");	\
	})
/* An item, then the items after it. */
#define __PKV_CHECK(x, ...)	__PKV_CHECK_(__PKV_UNPACK x, __VA_ARGS__)
#define __PKV_CHECK_(...)	__PKV_CHECK__(__VA_ARGS__)
#define __PKV_CHECK__(k, f, a, ...)					\
	__pkv_key_check(k, __PKV_STATIC_NE(k, PKV_STATIC) &&		\
			__PKV_NE(k, __VA_ARGS__))
#define __PKV_NE(k, ...)						\
	__PKV_PASTE(__PKV_NE_, __PKV_NARGS(__VA_ARGS__))(k, __VA_ARGS__)
#define __PKV_LAST(x)		__PKV_LAST_(__PKV_UNPACK x)
#define __PKV_LAST_(...)	__PKV_LAST__(__VA_ARGS__)
#define __PKV_LAST__(k, f, a)						\
	__pkv_key_check(k, __PKV_STATIC_NE(k, PKV_STATIC))

/* The static fields' checks, then each item's. */
#define __PKV_CHECKS(...)						\
	(__PKV_SCHECKS(PKV_STATIC),					\
	 __PKV_PASTE(__PKV_CHECKS_, __PKV_NARGS(__VA_ARGS__))(__VA_ARGS__))
#define __PKV_CHECKS_1(x)	__PKV_LAST(x)
#define __PKV_CHECKS_2(x, ...)						\
	(__PKV_CHECK(x, __VA_ARGS__), __PKV_CHECKS_1(__VA_ARGS__))
#define __PKV_CHECKS_3(x, ...)						\
	(__PKV_CHECK(x, __VA_ARGS__), __PKV_CHECKS_2(__VA_ARGS__))
#define __PKV_CHECKS_4(x, ...)						\
	(__PKV_CHECK(x, __VA_ARGS__), __PKV_CHECKS_3(__VA_ARGS__))
#define __PKV_CHECKS_5(x, ...)						\
	(__PKV_CHECK(x, __VA_ARGS__), __PKV_CHECKS_4(__VA_ARGS__))
#define __PKV_CHECKS_6(x, ...)						\
	(__PKV_CHECK(x, __VA_ARGS__), __PKV_CHECKS_5(__VA_ARGS__))
#define __PKV_CHECKS_7(x, ...)						\
	(__PKV_CHECK(x, __VA_ARGS__), __PKV_CHECKS_6(__VA_ARGS__))
#define __PKV_CHECKS_8(x, ...)						\
	(__PKV_CHECK(x, __VA_ARGS__), __PKV_CHECKS_7(__VA_ARGS__))
#define __PKV_CHECKS_9(x, ...)						\
	(__PKV_CHECK(x, __VA_ARGS__), __PKV_CHECKS_8(__VA_ARGS__))
#define __PKV_CHECKS_10(x, ...)						\
	(__PKV_CHECK(x, __VA_ARGS__), __PKV_CHECKS_9(__VA_ARGS__))
#define __PKV_CHECKS_11(x, ...)						\
	(__PKV_CHECK(x, __VA_ARGS__), __PKV_CHECKS_10(__VA_ARGS__))
#define __PKV_CHECKS_12(x, ...)						\
	(__PKV_CHECK(x, __VA_ARGS__), __PKV_CHECKS_11(__VA_ARGS__))

/* A static field (field, key, value): its key, its value, its key once. */
#define __pkv_static_check(g, ...)					\
	__pkv_static_check_(__PKV_UNPACK g, __VA_ARGS__)
#define __pkv_static_check_(...)	__pkv_static_check__(__VA_ARGS__)
#define __pkv_static_check__(f, k, v, ...)				\
	({								\
		compiletime_assert(__PKV_KEY_OK(k) && __PKV_VALUE_OK(v), \
			"printk_kv: PKV_FIELD(" k ", " v "): key "	\
			"reserved or not [a-z][a-z0-9_]*, or value "	\
			"not [A-Za-z0-9_.:/+-]{1,32}");			\
		compiletime_assert(__PKV_STATIC_NE(k, __VA_ARGS__),	\
			"printk_kv: key '" k "' twice in one record");	\
	})
/* The static fields, up to four: (field, key, value), ... */
#define __PKV_SCHECKS(...)						\
	__PKV_PASTE(__PKV_SCHECKS_, __PKV_NPREV(__VA_ARGS__))(__VA_ARGS__)
#define __PKV_SCHECKS_0(...)	((void)0)
#define __PKV_SCHECKS_1(g, ...)	(__pkv_static_check(g, __VA_ARGS__))
#define __PKV_SCHECKS_2(g, ...)						\
	(__pkv_static_check(g, __VA_ARGS__), __PKV_SCHECKS_1(__VA_ARGS__))
#define __PKV_SCHECKS_3(g, ...)						\
	(__pkv_static_check(g, __VA_ARGS__), __PKV_SCHECKS_2(__VA_ARGS__))
#define __PKV_SCHECKS_4(g, ...)						\
	(__pkv_static_check(g, __VA_ARGS__), __PKV_SCHECKS_3(__VA_ARGS__))
/* More than four fail in __PKV_STATIC_STRS(), with a name that says so. */
#define __PKV_SCHECKS_5(...)	((void)0)
#define __PKV_SCHECKS_6(...)	((void)0)
#define __PKV_SCHECKS_7(...)	((void)0)
#define __PKV_SCHECKS_8(...)	((void)0)
#define __PKV_SCHECKS_9(...)	((void)0)
#define __PKV_SCHECKS_10(...)	((void)0)
#define __PKV_SCHECKS_11(...)	((void)0)

#define __PKV_PREFIX_CHECK						\
	compiletime_assert(!__builtin_strchr(PKV_PREFIX, '[') &&	\
			   !__builtin_strchr(PKV_PREFIX, '%'),		\
			   "printk_kv: PKV_PREFIX must not contain '[' or '%'")

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
 * A string field's format and argument. Where vsprintf has %pq
 * (VSPRINTF_HAS_PQ, lib/vsprintf.c), it writes the value in place with
 * __pkv_str()'s rules and bound, and a field costs its caller no stack; on
 * a kernel without it, the header renders the value into a PKV_STR_MAX
 * buffer of the calling block. Either way @s must be a string:
 * __pkv_str_arg() keeps the type check of %s. vsprintf takes the letters
 * and digits after %pq for the extension's, so no fragment that follows
 * one may start with [A-Za-z0-9]: each starts with ' ', '%' or ']'.
 */
#ifdef VSPRINTF_HAS_PQ
#define __PKV_STR_FMT	"%" __stringify(__PKV_STR_LEN) "pq"
#define __PKV_STR_ARG(s)	__pkv_str_arg(s)
#else
#define __PKV_STR_FMT	"%s"
#define __PKV_STR_ARG(s)	__pkv_str((char [PKV_STR_MAX]) { 0 }, (s))
#endif

static __always_inline const char *__pkv_str_arg(const char *s)
{
	return s;
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

/* Bytes of one optional field: space, key, '=', and a u64 or an errno. */
#define PKV_OPT_MAX	(1 + 32 + 1 + PKV_ERR_MAX)

/*
 * Render " key=value" into @buf (PKV_OPT_MAX bytes), or nothing for a zero
 * @v: the whole field, key included, is absent when its value is unknown.
 */
static noinline __maybe_unused const char *__pkv_u64_nz(char *buf,
							const char *key, u64 v)
{
	if (!v)
		return "";
	snprintf(buf, PKV_OPT_MAX, " %s=%llu", key, v);
	return buf;
}

static noinline __maybe_unused const char *__pkv_err_nz(char *buf,
							const char *key, int err)
{
	char val[PKV_ERR_MAX];

	if (!err)
		return "";
	snprintf(buf, PKV_OPT_MAX, " %s=%s", key, __pkv_err(val, err));
	return buf;
}

/**
 * KV_U32 - an unsigned 32-bit field, in decimal
 * @key: field name, [a-z][a-z0-9_]*
 * @v: value; -Wformat rejects a wider type
 */
#define KV_U32(key, v)		(#key, " " #key "=%u", (v))
/**
 * KV_S32 - a signed 32-bit field, in decimal
 * @key: field name
 * @v: value
 */
#define KV_S32(key, v)		(#key, " " #key "=%d", (v))
/**
 * KV_U64 - an unsigned 64-bit field, in decimal
 * @key: field name
 * @v: value of type u64 (unsigned long long)
 */
#define KV_U64(key, v)		(#key, " " #key "=%llu", (v))
/**
 * KV_S64 - a signed 64-bit field, in decimal
 * @key: field name
 * @v: value of type s64 (long long)
 */
#define KV_S64(key, v)		(#key, " " #key "=%lld", (v))
/**
 * KV_HEX - an unsigned 32-bit field, in hexadecimal (0x1f)
 * @key: field name
 * @v: value
 */
#define KV_HEX(key, v)		(#key, " " #key "=0x%x", (v))
/**
 * KV_HEX64 - an unsigned 64-bit field, in hexadecimal
 * @key: field name
 * @v: value of type u64
 */
#define KV_HEX64(key, v)	(#key, " " #key "=0x%llx", (v))
/**
 * KV_BOOL - a boolean field, true or false
 * @key: field name
 * @v: any scalar; non-zero is true
 */
#define KV_BOOL(key, v)		(#key, " " #key "=%s", (v) ? "true" : "false")
/**
 * KV_STR - a string field, quoted and escaped (see __pkv_str())
 * @key: field name
 * @s: NUL-terminated string, or NULL; evaluated once
 *
 * Uses no stack where vsprintf has %pq; PKV_STR_MAX bytes of the calling
 * block on a kernel without it.
 */
#define KV_STR(key, s)	(#key, " " #key "=" __PKV_STR_FMT, __PKV_STR_ARG(s))
/**
 * KV_ERR - an errno field, rendered symbolically (-EINVAL)
 * @key: field name
 * @err: int, a negative errno; 0 and other values print in decimal
 */
#define KV_ERR(key, err)						\
	(#key, " " #key "=%s", __pkv_err((char [PKV_ERR_MAX]) { 0 }, (err)))

/**
 * KV_U64_NZ - an unsigned 64-bit field, present only when non-zero
 * @key: field name
 * @v: value, converted to u64; 0 means unknown, as an inode or block
 *	number of 0 does in ext4, and leaves the field out
 *
 * The field is rendered into the calling block (PKV_OPT_MAX bytes of
 * stack) and printed through "%s", so printk index shows "%s" in its place.
 */
#define KV_U64_NZ(key, v)						\
	(#key, "%s", __pkv_u64_nz((char [PKV_OPT_MAX]) { 0 }, #key, (v)))
/**
 * KV_ERR_NZ - an errno field, present only when non-zero
 * @key: field name
 * @err: int, a negative errno; 0 leaves the field out
 */
#define KV_ERR_NZ(key, err)						\
	(#key, "%s", __pkv_err_nz((char [PKV_OPT_MAX]) { 0 }, #key, (err)))

/**
 * KV_MSG - a message with printf-style arguments, for a _kv call's @msg
 * @fmt: format string literal, without a trailing newline
 * @...: its arguments, checked by -Wformat
 *
 * A converted call keeps the text it printed before, and gains fields:
 *
 *	pr_warn_kv(KV_MSG("%s: session %u not found", name, sid),
 *		   KV_U32(tunnel, tid), KV_U32(session, sid));
 *
 * Values a reader needs may appear in both; under printk.kv=dict the
 * fields leave the text, which then reads as the unconverted call's did.
 */
#define KV_MSG(fmt, ...)	(fmt, ##__VA_ARGS__)

/*
 * One call: the key checks, then one emit() of the whole format. Without
 * printk (CONFIG_PRINTK=n) the emit is compiled, so that -Wformat still
 * checks it, and never runs: no value is rendered, no argument evaluated,
 * as with no_printk().
 */
#define __PKV_CALL(emit, lvl, msg, ...)					\
do {									\
	__PKV_PREFIX_CHECK;						\
	(void)__PKV_CHECKS(__VA_ARGS__);				\
	if (IS_ENABLED(CONFIG_PRINTK))					\
		__PKV_EMIT(emit, lvl __PKV_OPEN,			\
			   __PKV_TAIL(("] "), msg, ("\n")), __VA_ARGS__); \
} while (0)

/**
 * pr_emerg_kv - print an emergency-level record with typed fields
 * @msg: the human message: a string literal without conversions, or
 *	KV_MSG() for one with arguments
 * @...: one to twelve KV_*() items
 *
 * Expands to one printk() whose format is the file's prefix, the field
 * block (static fields, then the items in order) and @msg. The other levels
 * are alike: pr_alert_kv(), pr_crit_kv(), pr_err_kv(), pr_warn_kv(),
 * pr_notice_kv(), pr_info_kv(), pr_debug_kv(); each has an _once and a
 * _ratelimited form that behave as printk_once() and printk_ratelimited().
 * Under CONFIG_PRINTK=n the call is compiled and checked, and nothing of
 * it runs: unlike pr_err()'s, its arguments are not evaluated.
 */
#define pr_emerg_kv(msg, ...)	__PKV_CALL(printk, KERN_EMERG, msg, __VA_ARGS__)
#define pr_alert_kv(msg, ...)	__PKV_CALL(printk, KERN_ALERT, msg, __VA_ARGS__)
#define pr_crit_kv(msg, ...)	__PKV_CALL(printk, KERN_CRIT, msg, __VA_ARGS__)
#define pr_err_kv(msg, ...)	__PKV_CALL(printk, KERN_ERR, msg, __VA_ARGS__)
#define pr_warn_kv(msg, ...)	__PKV_CALL(printk, KERN_WARNING, msg, __VA_ARGS__)
#define pr_notice_kv(msg, ...)	__PKV_CALL(printk, KERN_NOTICE, msg, __VA_ARGS__)
#define pr_info_kv(msg, ...)	__PKV_CALL(printk, KERN_INFO, msg, __VA_ARGS__)

/**
 * printk_kv - print a record with typed fields at a level the caller names
 * @kern: a KERN_* level, the string literal printk()'s format starts with
 * @msg: the human message, as for pr_emerg_kv()
 * @...: one to twelve KV_*() items
 *
 * For a record that printk(KERN_DEBUG "...") printed behind a driver's own
 * debug switch: unlike pr_debug_kv(), it is built and printed without
 * DEBUG or dynamic debug, as the printk() it replaces was.
 */
#define printk_kv(kern, msg, ...)	__PKV_CALL(printk, kern, msg, __VA_ARGS__)

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

/**
 * printk_kv_vaf - print a record with typed fields and a caller's message
 * @kern: the level: a KERN_* literal, or a string holding one at run time
 * @msg: put before the caller's message: a string literal ("" for none),
 *	or KV_MSG() for the helper's own formatted words
 * @vaf: struct va_format * of the message, printed with %pV
 * @...: one to twelve KV_*() items
 *
 * For the helpers through which a subsystem logs for its callers, as
 * ext4's __ext4_error() does: the block carries the helper's fields, the
 * text after the block is @msg followed by the caller's formatted message.
 * The level may be chosen at run time; printk index lists such a format
 * without a level.
 */
#ifdef CONFIG_PRINTK_KV
/* The level of a KERN_* string, for printk_kv_emit(). */
static inline int __pkv_level(const char *kern)
{
	int c = printk_get_level(kern);

	return c >= '0' && c <= '7' ? c - '0' : LOGLEVEL_DEFAULT;
}

#define __PKV_LEVEL_EMIT(fmt, level, ...)				\
({									\
	printk_index_subsys_emit("", "", fmt);				\
	printk_kv_emit(level, fmt, __VA_ARGS__);			\
})
#define printk_kv_vaf(kern, msg, vaf, ...)				\
do {									\
	__PKV_PREFIX_CHECK;						\
	(void)__PKV_CHECKS(__VA_ARGS__);				\
	__PKV_EMIT_AFTER(__PKV_LEVEL_EMIT, __PKV_OPEN,			\
			 __PKV_TAIL(("] "), msg, ("%pV\n", vaf)),		\
			 (__pkv_level(kern)), __VA_ARGS__);		\
} while (0)
#else
/* The level is formatted into the text, where printk() finds it. */
#define printk_kv_vaf(kern, msg, vaf, ...)				\
do {									\
	__PKV_PREFIX_CHECK;						\
	(void)__PKV_CHECKS(__VA_ARGS__);				\
	if (IS_ENABLED(CONFIG_PRINTK))					\
		__PKV_EMIT_AFTER(printk, "%s" __PKV_OPEN,		\
				 __PKV_TAIL(("] "), msg, ("%pV\n", vaf)),	\
				 (kern), __VA_ARGS__);			\
} while (0)
#endif

/*
 * pr_debug_kv() and its _once and _ratelimited forms follow pr_debug() and
 * pr_debug_ratelimited(): through dynamic debug where it is built
 * in, a plain printk under DEBUG, otherwise compiled out with its arguments
 * still type-checked and never evaluated. Through dynamic debug the record
 * is printed by printk() itself rather than __dynamic_pr_debug(), so the
 * dyndbg +p flag enables it and no decoration lands before the prefix: the
 * block carries the module, and the control file has the call site.
 */
#if defined(CONFIG_DYNAMIC_DEBUG) ||					\
	(defined(CONFIG_DYNAMIC_DEBUG_CORE) && defined(DYNAMIC_DEBUG_MODULE))
#define __PKV_DYNDBG(fmt, ...)						\
	_dynamic_func_call_no_desc(fmt, printk, KERN_DEBUG fmt, __VA_ARGS__)
#define pr_debug_kv(msg, ...)	__PKV_CALL(__PKV_DYNDBG, "", msg, __VA_ARGS__)
#elif defined(DEBUG)
#define pr_debug_kv(msg, ...)	__PKV_CALL(printk, KERN_DEBUG, msg, __VA_ARGS__)
#else
#define pr_debug_kv(msg, ...)	__PKV_CALL(no_printk, KERN_DEBUG, msg, __VA_ARGS__)
#endif

/*
 * dynamic debug prints pr_debug() through "%s%pV", a format printk cannot
 * tell from any other: with the printk support, a converted file's
 * pr_debug() takes pr_debug_kv()'s path, so that its record keeps its
 * fields under every encoding. dyndbg's decoration flags then do not apply.
 */
#if defined(CONFIG_PRINTK_KV) && (defined(CONFIG_DYNAMIC_DEBUG) ||	\
	(defined(CONFIG_DYNAMIC_DEBUG_CORE) && defined(DYNAMIC_DEBUG_MODULE)))
#undef pr_debug
#define pr_debug(fmt, ...)						\
	_dynamic_func_call_no_desc(pr_fmt(fmt), printk,			\
				   KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#endif

#if defined(CONFIG_DYNAMIC_DEBUG) ||					\
	(defined(CONFIG_DYNAMIC_DEBUG_CORE) && defined(DYNAMIC_DEBUG_MODULE))
#define __PKV_DYNDBG_ONCE(fmt, ...)					\
	_dynamic_func_call_no_desc(fmt, printk_once, KERN_DEBUG fmt,	\
				   __VA_ARGS__)
#define __PKV_DYNDBG_RL(fmt, ...)					\
	_dynamic_func_call_no_desc(fmt, printk_ratelimited, KERN_DEBUG fmt, \
				   __VA_ARGS__)
#define pr_debug_kv_once(msg, ...)					\
	__PKV_CALL(__PKV_DYNDBG_ONCE, "", msg, __VA_ARGS__)
#define pr_debug_kv_ratelimited(msg, ...)				\
	__PKV_CALL(__PKV_DYNDBG_RL, "", msg, __VA_ARGS__)
#elif defined(DEBUG)
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
 * DEVICE as dev_printk() does. Their text is dev_printk()'s, "driver
 * device: message" (no pr_fmt() prefix), after the block, which carries
 * the same names escaped as drv= and dev=. A NULL device prints as
 * dev_printk() prints it, "(NULL device *): message", with null names.
 */
#ifdef CONFIG_PRINTK_KV
#define __pkv_dev_printk_emit(level, kern, dev, fmt, ...)		\
	dev_printk_kv_emit(level, dev, fmt, __VA_ARGS__)
#else
#define __pkv_dev_printk_emit(level, kern, dev, fmt, ...)		\
	((dev) ? dev_printk_emit(level, dev, fmt, __VA_ARGS__) :	\
		 _printk(kern fmt, __VA_ARGS__))
#endif
#define __PKV_DEV_EMIT(fmt, level, kern, dev, ...)			\
({									\
	printk_index_subsys_emit("", kern, fmt);			\
	__pkv_dev_printk_emit(level, kern, dev, fmt, __VA_ARGS__);	\
})
#define __PKV_DEV_CALL(emit, level, kern, dev, msg, ...)		\
do {									\
	(void)__PKV_CHECKS(__VA_ARGS__);				\
	if (IS_ENABLED(CONFIG_PRINTK))					\
		__PKV_DEV_DO(emit, level, kern, dev, msg, __VA_ARGS__);	\
} while (0)
#define __PKV_DEV_DO(emit, level, kern, dev, msg, ...)			\
({									\
	const struct device *__pkv_dev = (dev);				\
	const char *__pkv_drv = __pkv_dev ?				\
		dev_driver_string(__pkv_dev) : NULL;			\
	const char *__pkv_name = __pkv_dev ? dev_name(__pkv_dev) : NULL; \
									\
	__PKV_EMIT_AFTER(emit, __PKV_BLOCK_OPEN " drv=" __PKV_STR_FMT	\
		" dev=" __PKV_STR_FMT,					\
		__PKV_TAIL(("] %s%s%s: ",				\
			    __pkv_dev ? __pkv_drv : "(NULL device *)",	\
			    __pkv_dev ? " " : "", __pkv_dev ? __pkv_name : ""), \
			   msg, ("\n")),					\
		(level, kern, __pkv_dev, __PKV_STR_ARG(__pkv_drv),	\
		 __PKV_STR_ARG(__pkv_name)),				\
		__VA_ARGS__);						\
})

/**
 * dev_err_kv - print a device record with typed fields
 * @dev: struct device; its SUBSYSTEM and DEVICE go to the record's dictionary
 * @msg: the human message, a string literal or KV_MSG()
 * @...: one to twelve KV_*() items
 *
 * The block gains drv= and dev= (driver and device names) before the items.
 * Likewise dev_emerg_kv(), dev_alert_kv(), dev_crit_kv(), dev_warn_kv(),
 * dev_notice_kv() and dev_info_kv(); dev_dbg_kv() follows dev_dbg().
 */
#define dev_err_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(__PKV_DEV_EMIT, LOGLEVEL_ERR, KERN_ERR, dev, msg,	\
		       __VA_ARGS__)
#define dev_emerg_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(__PKV_DEV_EMIT, LOGLEVEL_EMERG, KERN_EMERG, dev, msg, \
		       __VA_ARGS__)
#define dev_alert_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(__PKV_DEV_EMIT, LOGLEVEL_ALERT, KERN_ALERT, dev, msg, \
		       __VA_ARGS__)
#define dev_crit_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(__PKV_DEV_EMIT, LOGLEVEL_CRIT, KERN_CRIT, dev, msg, \
		       __VA_ARGS__)
#define dev_warn_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(__PKV_DEV_EMIT, LOGLEVEL_WARNING, KERN_WARNING, dev, \
		       msg, __VA_ARGS__)
#define dev_notice_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(__PKV_DEV_EMIT, LOGLEVEL_NOTICE, KERN_NOTICE, dev,	\
		       msg, __VA_ARGS__)
#define dev_info_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(__PKV_DEV_EMIT, LOGLEVEL_INFO, KERN_INFO, dev, msg,	\
		       __VA_ARGS__)

#if defined(CONFIG_DYNAMIC_DEBUG) ||					\
	(defined(CONFIG_DYNAMIC_DEBUG_CORE) && defined(DYNAMIC_DEBUG_MODULE))
#define __PKV_DEV_DYNDBG(fmt, level, kern, dev, ...)			\
	_dynamic_func_call_no_desc(fmt, __pkv_dev_printk_emit, level, kern, \
				   dev, fmt, __VA_ARGS__)
#define dev_dbg_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(__PKV_DEV_DYNDBG, LOGLEVEL_DEBUG, KERN_DEBUG, dev,	\
		       msg, __VA_ARGS__)
#elif defined(DEBUG)
#define dev_dbg_kv(dev, msg, ...)					\
	__PKV_DEV_CALL(__PKV_DEV_EMIT, LOGLEVEL_DEBUG, KERN_DEBUG, dev, msg, \
		       __VA_ARGS__)
#else
#define dev_dbg_kv(dev, msg, ...)					\
do {									\
	if (0)								\
		__PKV_DEV_CALL(__PKV_DEV_EMIT, LOGLEVEL_DEBUG,		\
			       KERN_DEBUG, dev, msg, __VA_ARGS__);	\
} while (0)
#endif

/*
 * Network device records carry the interface name and index; their text is
 * netdev_printk()'s ("driver device ifname: message" when the interface has
 * a parent device, "ifname: message" otherwise, with the registration state
 * netdev_printk() adds). The dictionary is that of the net_device itself
 * (SUBSYSTEM=net, DEVICE=n<ifindex>), which journald resolves to the
 * interface.
 */
#define __PKV_NETDEV_CALL(level, kern, ndev, msg, ...)			\
do {									\
	(void)__PKV_CHECKS(__VA_ARGS__);				\
	if (IS_ENABLED(CONFIG_PRINTK))					\
		__PKV_NETDEV_DO(level, kern, ndev, msg, __VA_ARGS__);	\
} while (0)
#define __PKV_NETDEV_DO(level, kern, ndev, msg, ...)			\
({									\
	const struct net_device *__pkv_nd = (ndev);			\
	const struct device *__pkv_p = __pkv_nd->dev.parent;		\
									\
	__PKV_EMIT_AFTER(__PKV_DEV_EMIT,				\
		__PKV_BLOCK_OPEN " netdev=" __PKV_STR_FMT " ifindex=%d",	\
		__PKV_TAIL(("] %s%s%s%s%s%s: ",				\
			    __pkv_p ? dev_driver_string(__pkv_p) : "",	\
			    __pkv_p ? " " : "",				\
			    __pkv_p ? dev_name(__pkv_p) : "",		\
			    __pkv_p ? " " : "", netdev_name(__pkv_nd),	\
			    netdev_reg_state(__pkv_nd)),		\
			   msg, ("\n")),					\
		(level, kern, &__pkv_nd->dev,				\
		 __PKV_STR_ARG(netdev_name(__pkv_nd)), __pkv_nd->ifindex), \
		 __VA_ARGS__);						\
})

/**
 * netdev_err_kv - print a network device record with typed fields
 * @ndev: struct net_device
 * @msg: the human message, a string literal or KV_MSG()
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
