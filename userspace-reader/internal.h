/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpkvkmsg internals shared by its modules, and by kmsg2json, which is
 * built with the library's sources; not part of pkvkmsg.h.
 */
#ifndef PKV_INTERNAL_H
#define PKV_INTERNAL_H

#include "pkvkmsg.h"

#include <string.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	      "the word scans find a word's first byte with ctz");

/*
 * For the few small functions called for every field and string of a
 * record: under QEMU's TCG (the guest) each return is a jump looked up
 * at run time, dearer than the function's body.
 */
#define PKV_INLINE	static inline __attribute__((always_inline))

#define ONES	0x0101010101010101ull
#define HIGHS	0x8080808080808080ull

/*
 * The bytes of a little-endian word to escape ('"', '\\', < 0x20, 0x7f)
 * or >= 0x80, as their top bits. Below the lowest one it is exact: without
 * a byte >= 0x80, subtracting sets a byte's top bit only where it was
 * below the subtrahend, or where a lower byte borrowed (a hit itself):
 * x - 0x20 for the controls, (x ^ c) - 1 for a byte equal to c.
 */
static inline uint64_t word_needs_care(uint64_t w)
{
	uint64_t t = (w - ONES * 0x20) | ((w ^ ONES * '"') - ONES) |
		     ((w ^ ONES * '\\') - ONES) | ((w ^ ONES * 0x7f) - ONES);

	return (t | w) & HIGHS;
}

/* The first @c in [p, end), or @end: for a few bytes (a header, a key), no call. */
static inline const char *find_byte(const char *p, const char *end, char c)
{
	while (p < end && *p != c)
		p++;
	return p;
}

/*
 * memcpy() for the short runs a record is made of (keys, values, JSON
 * punctuation): up to 64 bytes without a call, by words, the last two
 * overlapping.
 */
PKV_INLINE void pkv_copy(char *dst, const char *src, size_t n)
{
	uint64_t a, b;
	uint32_t c, d;

	if (n > 64) {
		memcpy(dst, src, n);
	} else if (n >= 8) {
		for (; n > 16; dst += 8, src += 8, n -= 8) {
			memcpy(&a, src, 8);
			memcpy(dst, &a, 8);
		}
		memcpy(&a, src, 8);
		memcpy(&b, src + n - 8, 8);
		memcpy(dst, &a, 8);
		memcpy(dst + n - 8, &b, 8);
	} else if (n >= 4) {
		memcpy(&c, src, 4);
		memcpy(&d, src + n - 4, 4);
		memcpy(dst, &c, 4);
		memcpy(dst + n - 4, &d, 4);
	} else {
		for (size_t i = 0; i < n; i++)
			dst[i] = src[i];
	}
}

/* memcmp() == 0 without a call, a word at a time. */
PKV_INLINE bool pkv_equal(const char *a, const char *b, size_t n)
{
	uint64_t x, y;

	for (; n >= 8; a += 8, b += 8, n -= 8) {
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return false;
	}
	for (; n; n--)
		if (*a++ != *b++)
			return false;
	return true;
}

/*
 * Length of the valid UTF-8 sequence at @p (RFC 3629), or 0; its code
 * point in *@cp when @cp is not NULL.
 */
static inline size_t pkv_utf8_seq(const unsigned char *p, size_t n, uint32_t *cp_out)
{
	unsigned char c = p[0];
	size_t len, i;
	uint32_t cp;

	if (c < 0x80) {
		if (cp_out)
			*cp_out = c;
		return 1;
	}
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
	if (cp_out)
		*cp_out = cp;
	return len;
}

/* @n bytes of the record's storage, or NULL when it is full. */
static inline char *pkv_take(struct pkv_record *r, size_t n)
{
	char *p;

	if (n > r->store_size - r->used)
		return NULL;
	p = r->store + r->used;
	r->used += n;
	return p;
}

/* Parse the text's block, then keep its fields only as the trust rule
 * of docs/FORMAT.md allows, or take them from PRINTK_KV. */
void pkv_fields_resolve(struct pkv_record *r, unsigned int flags);

#endif
