// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pkv-json-jansson FILE - kmsg2json's record objects built with jansson
 * instead of the streaming writer, for the JSON approach measurement in
 * ./pkv bench. Same parser, same input layer; one json_t tree per record.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <jansson.h>

#include "pkvkmsg.h"

static json_t *str(struct pkv_span s)
{
	json_t *v = json_stringn(s.p, s.n);
	size_t i;

	if (v)
		return v;
	/* Not UTF-8: bytes, as kmsg2json writes them. */
	v = json_array();
	for (i = 0; i < s.n; i++)
		json_array_append_new(v, json_integer((unsigned char)s.p[i]));
	return v;
}

int main(int argc, char **argv)
{
	struct pkv_record *r;
	struct pkv_input *in;
	int fd;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY)) < 0) {
		fprintf(stderr, "usage: pkv-json-jansson FILE\n");
		return 2;
	}
	if (pkv_record_new(&r, 0) || pkv_input_new(&in, fd, 0, 0)) {
		fprintf(stderr, "pkv-json-jansson: out of memory\n");
		return 2;
	}
	for (;;) {
		struct pkv_chunk c;
		json_t *o, *f, *d;
		size_t i;

		pkv_input_next(in, &c);
		if (c.ev == PKV_EV_END || c.ev == PKV_EV_ERROR)
			break;
		if (c.ev != PKV_EV_RECORD || pkv_record_parse(r, c.raw, c.len))
			continue;
		o = json_object();
		json_object_set_new(o, "seq", json_integer((json_int_t)r->seq));
		json_object_set_new(o, "ts_usec", json_integer((json_int_t)r->ts_usec));
		json_object_set_new(o, "facility", json_integer(r->facility));
		json_object_set_new(o, "level", json_integer(r->level));
		json_object_set_new(o, "cont", json_boolean(r->cont));
		if (r->caller.n)
			json_object_set_new(o, "caller", str(r->caller));
		json_object_set_new(o, "structured", json_boolean(r->structured));
		json_object_set_new(o, "prefix", str(r->prefix));
		json_object_set_new(o, "msg", str(r->msg));
		f = json_object();
		for (i = 0; i < r->nfields; i++) {
			const struct pkv_field *x = &r->fields[i];
			json_t *v;

			if (x->type == PKV_STRING)
				v = str(x->value);
			else if (x->type == PKV_BOOL)
				v = json_boolean(x->value.p[0] == 't');
			else if (x->type == PKV_NULL)
				v = json_null();
			else
				v = json_integer(strtoll(x->value.p, NULL, 10));
			json_object_setn_new(f, x->key.p, x->key.n, v);
		}
		json_object_set_new(o, "fields", f);
		d = json_object();
		for (i = 0; i < r->ndict; i++)
			json_object_setn_new(d, r->dict[i].key.p, r->dict[i].key.n,
					     str(r->dict[i].value));
		json_object_set_new(o, "dict", d);
		json_object_set_new(o, "text", str(r->text));
		json_dumpf(o, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(o);
	}
	pkv_input_free(in);
	pkv_record_free(r);
	return 0;
}
