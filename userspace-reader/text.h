/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* kmsg2json -o short and -o cat. */
#ifndef PKV_TEXT_H
#define PKV_TEXT_H

#include "pkvkmsg.h"

#include <stdio.h>

enum text_mode { TEXT_SHORT, TEXT_CAT };

struct text_opts {
	enum text_mode mode;
	bool colour;		/* fields in colour (a terminal) */
	bool have_boot;		/* -T: wall-clock times from the boot's */
	int64_t boot_usec;
};

/* One record as dmesg shows it (short), or its text alone (cat). */
void text_record(FILE *o, const struct pkv_record *r, const struct text_opts *t);
/* A gap, a new boot, a malformed record: a "-- WHAT --" line (short only). */
void text_note(FILE *o, const struct text_opts *t, const char *what);

#endif
