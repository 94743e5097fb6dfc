// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kmsg2json's text outputs: -o short, the line dmesg(1) prints, and
 * -o cat, the message alone. On a terminal, short shows a record's fields
 * in colour: the text's block where it is, else PRINTK_KV's after the text.
 */
#define _GNU_SOURCE	/* fwrite_unlocked */
#include "internal.h"
#include "text.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define COLOUR_FIELDS	"\033[36m"	/* cyan */
#define COLOUR_OFF	"\033[0m"

/* Length of the UTF-8 sequence at @p of a printable character, or 0. */
static size_t printable_utf8(const unsigned char *p, size_t n)
{
	uint32_t cp;
	size_t len = pkv_utf8_seq(p, n, &cp);

	/* The C1 controls (U+0080 to U+009F) drive terminals as ESC does. */
	return len > 1 && !(cp >= 0x80 && cp < 0xa0) ? len : 0;
}

/*
 * Bytes as a terminal may show them: printable ASCII, tabs and printable
 * UTF-8 characters; every other byte (controls, C1 controls, invalid
 * UTF-8) as \xNN, so that no record can send a terminal a control sequence.
 * With @indent >= 0, a newline is one, and the line after it is indented by
 * @indent spaces, as dmesg aligns a multi-line record under its first line's
 * text; a newline that ends the text is printed alone.
 */
static void put_safe(FILE *o, const char *s, size_t n, int indent)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, l;

	while (i < n) {
		unsigned char c = p[i];

		if ((c >= 0x20 && c < 0x7f) || c == '\t') {
			putc_unlocked(c, o);
			i++;
		} else if (c == '\n' && indent >= 0) {
			putc_unlocked('\n', o);
			if (++i < n)
				fprintf(o, "%*s", indent, "");
		} else if (c >= 0x80 && (l = printable_utf8(p + i, n - i))) {
			fwrite_unlocked(p + i, 1, l, o);
			i += l;
		} else {
			fprintf(o, "\\x%02x", c);
			i++;
		}
	}
}

static void put_colour(FILE *o, const struct text_opts *t, const char *p, size_t n)
{
	if (t->colour)
		fputs(COLOUR_FIELDS, o);
	put_safe(o, p, n, -1);
	if (t->colour)
		fputs(COLOUR_OFF, o);
}

void text_record(FILE *o, const struct pkv_record *r, const struct text_opts *t)
{
	const struct pkv_dict_entry *mark;
	int indent;

	if (t->mode == TEXT_CAT) {
		put_safe(o, r->text.p, r->text.n, -1);
		putc_unlocked('\n', o);
		return;
	}
	if (t->have_boot) {
		time_t s = (time_t)((t->boot_usec + (int64_t)r->ts_usec) / 1000000);
		struct tm tm;
		char when[64];

		localtime_r(&s, &tm);
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
		indent = fprintf(o, "[%s] ", when);
	} else {
		indent = fprintf(o, "[%5llu.%06llu] ", (unsigned long long)(r->ts_usec / 1000000),
				 (unsigned long long)(r->ts_usec % 1000000));
	}
	if (r->kv_source == PKV_KV_TEXT || r->kv_source == PKV_KV_UNMARKED) {
		/* The text as it is, its block in colour. */
		const char *b = r->block.p - 4, *e = r->block.p + r->block.n;

		put_safe(o, r->text.p, (size_t)(b - r->text.p), indent);
		put_colour(o, t, b, (size_t)(e - b) + (e < r->text.p + r->text.n && *e == ']'));
		e += e < r->text.p + r->text.n && *e == ']';
		put_safe(o, e, (size_t)(r->text.p + r->text.n - e), indent);
	} else {
		put_safe(o, r->text.p, r->text.n, indent);
		/* printk.kv=dict: the fields are not in the text; a terminal shows them. */
		mark = r->kv_source == PKV_KV_DICT ? pkv_dict_get(r, "PRINTK_KV") : NULL;
		if (mark && t->colour) {
			putc_unlocked(' ', o);
			fputs(COLOUR_FIELDS "[kv ", o);
			put_safe(o, mark->value.p, mark->value.n, -1);
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
