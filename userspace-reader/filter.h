/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Record filters of kmsg2json: --level, --facility, -k, -u, --match,
 * --structured-only, --grep, --since and --until.
 */
#ifndef PKV_FILTER_H
#define PKV_FILTER_H

#include "pkvkmsg.h"

#include <regex.h>

#define FILTER_MAX_MATCH 16

struct filter {
	unsigned int levels;		/* bit per level; 0 = all */
	bool any_facility;		/* false: all */
	uint64_t facilities[4];		/* bit per facility, 0 to 255 */
	bool structured_only;
	bool have_since, have_until;	/* bounds on ts_usec, the boot's clock; */
	int64_t since_usec, until_usec;	/* before the boot: negative */
	bool have_grep;
	regex_t grep;			/* on the message */
	size_t nmatch;
	struct {
		const char *key;
		const char *value;
		size_t value_len;
	} match[FILTER_MAX_MATCH];
};

/* Parse option values; return 0, or -1 with a message in @why. */
int filter_add_levels(struct filter *f, const char *list, char *why, size_t n);
int filter_add_facilities(struct filter *f, const char *list, char *why, size_t n);
int filter_add_match(struct filter *f, const char *kv, char *why, size_t n);

/* journalctl's -p: LEVEL (and every more severe one) or FROM..TO. */
int filter_add_priority(struct filter *f, const char *spec, char *why, size_t n);
/* -k (@kernel) or -u: the kernel's facility, or every other one. */
void filter_kernel_only(struct filter *f, bool kernel);
/* --grep: an extended regex; without a capital letter it ignores case. */
int filter_set_grep(struct filter *f, const char *pattern, char *why, size_t n);
void filter_free(struct filter *f);

/* No filter given: every record passes (and filter_pass() need not be asked). */
bool filter_empty(const struct filter *f);
bool filter_pass(const struct filter *f, const struct pkv_record *r);

#endif
