// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: printk_kv.h's string escaping. Any byte string (up to
 * its first NUL) rendered by __pkv_str() must parse back through the reader
 * into exactly itself, or, when cut, into a flagged exact prefix of it.
 */
#define KBUILD_MODNAME "fuzz"
#include <linux/printk_kv.h>
#include <stdlib.h>
#include <string.h>

#include "pkvkmsg.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct pkv_record *r;
	char in[512], buf[PKV_STR_MAX], text[PKV_STR_MAX + 32];
	const struct pkv_field *f;
	size_t n = size < sizeof(in) - 1 ? size : sizeof(in) - 1;
	int len;

	if (!r && pkv_record_new(&r, 0))
		abort();
	memcpy(in, data, n);
	in[n] = '\0';
	n = strlen(in);
	len = snprintf(text, sizeof(text), "p: [kv s=%s] m", __pkv_str(buf, in));
	r->text.p = text;
	r->text.n = (size_t)len;
	r->used = 0;
	pkv_block_parse(r);
	f = pkv_field_get(r, "s");
	if (!r->structured || r->truncated || !f || f->type != PKV_STRING)
		abort();
	if (f->cut ? !(f->value.n < n) : f->value.n != n)
		abort();
	if (memcmp(f->value.p, in, f->value.n))
		abort();
	/* Printable ASCII only: console-safe. */
	for (int i = 0; i < len; i++)
		if (text[i] < 0x20 || text[i] > 0x7e)
			abort();
	return 0;
}
