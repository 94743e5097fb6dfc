// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The printk_kv field block (docs/FORMAT.md):
 *
 *	text   = prefix "[kv" 1*(SP field) "]" [SP message]
 *	prefix = the bytes before the first '[' of the text
 *
 * The block can only start at the first '[' and ends at the first ']' that
 * is not inside a quoted value; the message after it is never parsed. A
 * field counts only once the byte after it (SP or ']') has been seen, so a
 * block that printk cut yields the fields before the cut and no invented one.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

enum { BLOCK_OK, BLOCK_CUT, BLOCK_BAD };

struct cursor {
	struct pkv_record *r;
	const char *p, *end;
	const char *err;
};

/* Byte classes of the format (FORMAT.md). */
enum {
	KEY_CHAR = 1,		/* [a-z0-9_], after the key's first byte */
	BARE_CHAR = 2,		/* [A-Za-z0-9_.:/+-]: a bare value */
	QUOTED_PLAIN = 4,	/* printable ASCII but '"' and '\\': copied as is */
};

static const unsigned char byte_class[256] = {
	['a' ... 'z'] = KEY_CHAR | BARE_CHAR | QUOTED_PLAIN,
	['0' ... '9'] = KEY_CHAR | BARE_CHAR | QUOTED_PLAIN,
	['_'] = KEY_CHAR | BARE_CHAR | QUOTED_PLAIN,
	['A' ... 'Z'] = BARE_CHAR | QUOTED_PLAIN,
	['.'] = BARE_CHAR | QUOTED_PLAIN, [':'] = BARE_CHAR | QUOTED_PLAIN,
	['/'] = BARE_CHAR | QUOTED_PLAIN, ['+'] = BARE_CHAR | QUOTED_PLAIN,
	['-'] = BARE_CHAR | QUOTED_PLAIN,
	[' '] = QUOTED_PLAIN, ['!'] = QUOTED_PLAIN, ['#' ... '*'] = QUOTED_PLAIN, [','] = QUOTED_PLAIN,
	[';' ... '@'] = QUOTED_PLAIN, ['['] = QUOTED_PLAIN, [']' ... '^'] = QUOTED_PLAIN,
	['`'] = QUOTED_PLAIN, ['{' ... '~'] = QUOTED_PLAIN,
};

/* The format's own \\xNN and 0x numbers are lowercase only (FORMAT.md). */
static int xdigit(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int bad(struct cursor *c, const char *why)
{
	c->err = why;
	return BLOCK_BAD;
}

/* "0" or -?[1-9][0-9]*: a JSON number as written. */
PKV_INLINE bool is_decimal(const char *p, size_t n)
{
	size_t i = 0;

	if (n && p[0] == '-')
		i = 1;
	if (i == n)
		return false;
	if (p[i] == '0')
		return n == 1;
	for (; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return true;
}

/* Type a bare value; hexadecimal becomes decimal digits. */
PKV_INLINE int type_bare(struct cursor *c, struct pkv_field *f)
{
	const char *p = f->value.p;
	size_t n = f->value.n;

	f->type = PKV_STRING;
	if ((n == 4 && !memcmp(p, "true", 4)) || (n == 5 && !memcmp(p, "false", 5))) {
		f->type = PKV_BOOL;
	} else if (n == 4 && !memcmp(p, "null", 4)) {
		f->type = PKV_NULL;
	} else if (is_decimal(p, n)) {
		f->type = PKV_NUMBER;
	} else if (n > 2 && n <= 18 && p[0] == '0' && p[1] == 'x') {
		unsigned long long v = 0;
		size_t i;
		char *d;

		for (i = 2; i < n; i++) {
			if (xdigit(p[i]) < 0)
				return BLOCK_OK;	/* a bare string such as 0xzz */
			v = v << 4 | (unsigned int)xdigit(p[i]);
		}
		d = pkv_take(c->r, 21);
		if (!d)
			return bad(c, "record too large to decode");
		f->value.p = d;
		f->value.n = (size_t)snprintf(d, 21, "%llu", v);
		c->r->used -= 21 - f->value.n;
		f->type = PKV_NUMBER;
	}
	return BLOCK_OK;
}

PKV_INLINE int parse_quoted(struct cursor *c, struct pkv_field *f)
{
	const char *p = c->p + 1;
	char *d = pkv_take(c->r, (size_t)(c->end - c->p));
	size_t o = 0;

	if (!d)
		return bad(c, "record too large to decode");
	f->type = PKV_STRING;
	f->quoted = true;
	f->value.p = d;
	for (;;) {
		unsigned char ch;

		if (p >= c->end)
			return BLOCK_CUT;
		ch = (unsigned char)*p;
		if (byte_class[ch] & QUOTED_PLAIN) {
			const char *run = p;

			/* Eight at a time: the bytes JSON would escape end a run too. */
			while (c->end - p >= 8) {
				uint64_t w, care;

				memcpy(&w, p, 8);
				care = word_needs_care(w);
				if (care) {
					p += __builtin_ctzll(care) / 8;
					break;
				}
				p += 8;
			}
			while (p < c->end && (byte_class[(unsigned char)*p] & QUOTED_PLAIN))
				p++;
			pkv_copy(d + o, run, (size_t)(p - run));
			o += (size_t)(p - run);
			continue;
		}
		if (ch == '"')
			break;
		if (ch != '\\')
			return bad(c, "unescaped byte in a quoted value");
		if (p + 1 >= c->end)
			return BLOCK_CUT;
		switch (p[1]) {
		case '"':
		case '\\':
			d[o++] = p[1];
			p += 2;
			break;
		case 'n':
			d[o++] = '\n';
			p += 2;
			break;
		case 't':
			d[o++] = '\t';
			p += 2;
			break;
		case 'x':
			if (p + 3 >= c->end)
				return BLOCK_CUT;
			if (xdigit(p[2]) < 0 || xdigit(p[3]) < 0)
				return bad(c, "bad \\x escape in a quoted value");
			d[o++] = (char)(xdigit(p[2]) << 4 | xdigit(p[3]));
			p += 4;
			break;
		default:
			return bad(c, "unknown escape in a quoted value");
		}
	}
	f->value.n = o;
	f->raw = f->value;
	c->r->used -= (size_t)(c->end - c->p) - o;
	p++;
	/* The header's cut mark, then the separator. */
	if (p < c->end && *p == '.') {
		if (c->end - p < 3)
			return BLOCK_CUT;
		if (memcmp(p, "...", 3))
			return bad(c, "stray '.' after a quoted value");
		f->cut = true;
		p += 3;
	}
	c->p = p;
	return BLOCK_OK;
}

PKV_INLINE int parse_field(struct cursor *c, struct pkv_field *f)
{
	const char *k = c->p, *p = k, *end = c->end;
	const struct pkv_field *prev;
	size_t n;

	*f = (struct pkv_field){ 0 };
	if (p >= end)
		return BLOCK_CUT;
	if (*p < 'a' || *p > 'z')
		return bad(c, "field key does not start with [a-z]");
	while (++p < end && (byte_class[(unsigned char)*p] & KEY_CHAR))
		;
	c->p = p;
	if (p >= end)
		return BLOCK_CUT;
	if (*p != '=')
		return bad(c, "field key is not [a-z][a-z0-9_]* followed by '='");
	n = (size_t)(p - k);
	f->key.p = k;
	f->key.n = n;
	if (n > 32)
		return bad(c, "field key longer than 32 bytes");
	for (prev = c->r->fields; prev < f; prev++)
		if (prev->key.n == n && prev->key.p[0] == k[0] && pkv_equal(prev->key.p, k, n))
			return bad(c, "duplicate field key");
	c->p = ++p;
	if (p >= end)
		return BLOCK_CUT;
	if (*p == '"')
		return parse_quoted(c, f);
	f->value.p = p;
	while (p < end && (byte_class[(unsigned char)*p] & BARE_CHAR))
		p++;
	c->p = p;
	f->value.n = (size_t)(p - f->value.p);
	if (p < end && *p != ' ' && *p != ']')
		return bad(c, "byte not allowed in a bare value");
	if (!f->value.n && p < end)
		return bad(c, "empty value");
	f->raw = f->value;
	return type_bare(c, f);
}

static int parse_fields(struct cursor *c)
{
	struct pkv_record *r = c->r;

	for (;;) {
		int rc;

		if (c->p >= c->end)
			return BLOCK_CUT;
		if (*c->p == ']') {
			if (!r->nfields)
				return bad(c, "empty field block");
			c->p++;
			return BLOCK_OK;
		}
		if (*c->p != ' ')
			return bad(c, "fields are not separated by one space");
		c->p++;
		if (r->nfields == PKV_MAX_FIELDS)
			return bad(c, "more fields than the reader takes");
		rc = parse_field(c, &r->fields[r->nfields]);
		if (rc != BLOCK_OK)
			return rc;
		/* Complete only when what follows is seen. */
		if (c->p >= c->end)
			return BLOCK_CUT;
		r->nfields++;
		r->block.n = (size_t)(c->p - r->block.p);
	}
}

/*
 * The value of PRINTK_KV: complete fields separated by one space, then
 * " ..." when printk cut the record's block (FORMAT.md, "Trust").
 */
static int parse_list(struct cursor *c)
{
	struct pkv_record *r = c->r;

	for (;;) {
		struct pkv_field *f = &r->fields[r->nfields];
		int rc;

		if (c->end - c->p == 3 && !memcmp(c->p, "...", 3)) {
			if (!r->nfields)
				return bad(c, "PRINTK_KV is cut before its first field");
			r->truncated = true;
			return BLOCK_OK;
		}
		if (r->nfields == PKV_MAX_FIELDS)
			return bad(c, "more fields than the reader takes");
		rc = parse_field(c, f);
		if (rc == BLOCK_CUT || (rc == BLOCK_OK && !f->quoted && !f->value.n))
			return bad(c, "PRINTK_KV ends inside a field");
		if (rc != BLOCK_OK)
			return rc;
		r->nfields++;
		if (c->p == c->end)
			return BLOCK_OK;
		if (*c->p != ' ' || c->p + 1 == c->end)
			return bad(c, "PRINTK_KV fields are not separated by one space");
		c->p++;
	}
}

void pkv_block_parse(struct pkv_record *r)
{
	const char *t = r->text.p, *open;
	size_t n = r->text.n, used = r->used;
	struct cursor c = { .r = r };
	int rc;

	r->structured = r->truncated = false;
	r->kv_source = PKV_KV_NONE;
	r->kv_error = NULL;
	r->nfields = 0;
	r->prefix.p = t;
	r->prefix.n = 0;
	r->msg = r->text;
	r->block.p = t;
	r->block.n = 0;
	open = n ? memchr(t, '[', n) : NULL;
	if (!open || (size_t)(t + n - open) < 4 || memcmp(open, "[kv ", 4))
		return;
	r->block.p = open + 4;
	c.p = open + 3;
	c.end = t + n;
	rc = parse_fields(&c);
	if (rc == BLOCK_OK && c.p < c.end && *c.p != ' ') {
		c.err = "no space after the field block";
		rc = BLOCK_BAD;
	}
	if (rc == BLOCK_BAD) {
		r->kv_error = c.err;
		r->nfields = 0;
		r->used = used;
		return;
	}
	r->structured = true;
	r->kv_source = PKV_KV_UNMARKED;
	r->prefix.n = (size_t)(open - t);
	if (rc == BLOCK_CUT) {
		r->truncated = true;
		r->msg.p = t + n;
		r->msg.n = 0;
		return;
	}
	if (c.p < c.end)
		c.p++;
	r->msg.p = c.p;
	r->msg.n = (size_t)(c.end - c.p);
}

/* Forget the text's block: no fields, the whole text is the message. */
static void drop_fields(struct pkv_record *r, size_t used)
{
	r->structured = r->truncated = false;
	r->kv_source = PKV_KV_NONE;
	r->nfields = 0;
	r->used = used;
	r->prefix.p = r->text.p;
	r->prefix.n = 0;
	r->msg = r->text;
}

/* Does PRINTK_KV hold exactly the complete fields of the text's block? */
static bool mark_is_block(const struct pkv_record *r, struct pkv_span m)
{
	size_t n = r->block.n;

	if (r->truncated)
		return m.n == n + 4 && pkv_equal(m.p, r->block.p, n) &&
		       !memcmp(m.p + n, " ...", 4);
	return m.n == n && pkv_equal(m.p, r->block.p, n);
}

void pkv_fields_resolve(struct pkv_record *r, unsigned int flags)
{
	const struct pkv_dict_entry *m = NULL;
	size_t used = r->used;
	struct cursor c = { .r = r };

	/* The kernel never marks a record of user space (facility > 0). */
	for (size_t i = 0; i < r->ndict && r->facility == 0 && !m; i++)
		if (r->dict[i].key.n == 9 && pkv_equal(r->dict[i].key.p, "PRINTK_KV", 9))
			m = &r->dict[i];
	pkv_block_parse(r);
	if (!m) {
		if (r->structured && (r->facility || !(flags & PKV_PARSE_UNMARKED))) {
			drop_fields(r, used);
			r->kv_error = "field block not marked by the kernel: not trusted";
		}
		return;
	}
	if (r->structured && mark_is_block(r, m->value)) {
		r->kv_source = PKV_KV_TEXT;
		return;
	}
	/* printk.kv=dict: the text is the message, the fields are the mark. */
	drop_fields(r, used);
	r->kv_error = NULL;
	c.p = m->value.p;
	c.end = m->value.p + m->value.n;
	if (parse_list(&c) != BLOCK_OK) {
		drop_fields(r, used);
		r->kv_error = c.err ? c.err : "malformed PRINTK_KV";
		return;
	}
	r->structured = true;
	r->kv_source = PKV_KV_DICT;
}
