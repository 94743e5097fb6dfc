// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kmsg2json's text outputs: -o short, the line dmesg(1) prints, and
 * -o cat, the message alone. On a terminal, short shows a record's fields
 * in colour: the text's block where it is, else PRINTK_KV's after the text.
 */
#include "text.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define COLOUR_FIELDS	"\033[36m"	/* cyan */
#define COLOUR_OFF	"\033[0m"

/* Bytes as dmesg shows them: printable ones, the others as \xNN. */
static void put_safe(FILE *o, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			fprintf(o, "\\x%02x", c);
		else
			putc_unlocked(c, o);
	}
}

static void put_colour(FILE *o, const struct text_opts *t, const char *p, size_t n)
{
	if (t->colour)
		fputs(COLOUR_FIELDS, o);
	put_safe(o, p, n);
	if (t->colour)
		fputs(COLOUR_OFF, o);
}

void text_record(FILE *o, const struct pkv_record *r, const struct text_opts *t)
{
	const struct pkv_dict_entry *mark;

	if (t->mode == TEXT_CAT) {
		put_safe(o, r->text.p, r->text.n);
		putc_unlocked('\n', o);
		return;
	}
	if (t->have_boot) {
		time_t s = (time_t)((t->boot_usec + (int64_t)r->ts_usec) / 1000000);
		struct tm tm;
		char when[64];

		localtime_r(&s, &tm);
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
		fprintf(o, "[%s] ", when);
	} else {
		fprintf(o, "[%5llu.%06llu] ", (unsigned long long)(r->ts_usec / 1000000),
			(unsigned long long)(r->ts_usec % 1000000));
	}
	if (r->kv_source == PKV_KV_TEXT || r->kv_source == PKV_KV_UNMARKED) {
		/* The text as it is, its block in colour. */
		const char *b = r->block.p - 4, *e = r->block.p + r->block.n;

		put_safe(o, r->text.p, (size_t)(b - r->text.p));
		put_colour(o, t, b, (size_t)(e - b) + (e < r->text.p + r->text.n && *e == ']'));
		e += e < r->text.p + r->text.n && *e == ']';
		put_safe(o, e, (size_t)(r->text.p + r->text.n - e));
	} else {
		put_safe(o, r->text.p, r->text.n);
		/* printk.kv=dict: the fields are not in the text; a terminal shows them. */
		mark = r->kv_source == PKV_KV_DICT ? pkv_dict_get(r, "PRINTK_KV") : NULL;
		if (mark && t->colour) {
			putc_unlocked(' ', o);
			fputs(COLOUR_FIELDS "[kv ", o);
			put_safe(o, mark->value.p, mark->value.n);
			fputs("]" COLOUR_OFF, o);
		}
	}
	putc_unlocked('\n', o);
}

void text_note(FILE *o, const struct text_opts *t, const char *what)
{
	if (t->mode == TEXT_CAT)
		return;
	fprintf(o, "-- %s --\n", what);
}
