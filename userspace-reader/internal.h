/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libpkvkmsg internals shared by its modules; not part of pkvkmsg.h. */
#ifndef PKV_INTERNAL_H
#define PKV_INTERNAL_H

#include "pkvkmsg.h"

/* @n bytes of the record's storage, or NULL when it is full. */
static inline char *pkv_take(struct pkv_record *r, size_t n)
{
	char *p;

	if (n > sizeof(r->store) - r->used)
		return NULL;
	p = r->store + r->used;
	r->used += n;
	return p;
}

/* Parse the text's block, then keep its fields only as the trust rule
 * of docs/FORMAT.md allows, or take them from PRINTK_KV. */
void pkv_fields_resolve(struct pkv_record *r, unsigned int flags);

#endif
