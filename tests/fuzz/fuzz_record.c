// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the reader on any bytes, as one record and as a
 * stream through the input layer, with JSON written for every event.
 * Sanitizers catch memory errors; the asserts catch broken invariants, and
 * jansson checks every object written: valid JSON, valid UTF-8, no key twice.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <jansson.h>

#include "pkvkmsg.h"

/*
 * Records of at most 1 KiB: the over-long paths are reached by small inputs
 * (run.sh builds the input layer with a stream buffer of two records).
 */
#define FUZZ_RECORD_MAX	1024

/* The JSON written, collected by the writer's sink, and how much was checked. */
struct out {
	struct pkv_json *j;
	char *buf;
	size_t len, checked;
};

static int out_sink(void *ctx, const char *p, size_t n)
{
	struct out *o = ctx;
	char *b = realloc(o->buf, o->len + n);

	if (!b)
		abort();
	memcpy(b + o->len, p, n);
	o->buf = b;
	o->len += n;
	return 0;
}

/* Every object written since the last check: each one valid JSON, an object. */
static void check_json(struct out *o)
{
	json_error_t err;
	json_t *v;

	if (pkv_json_flush(o->j))
		abort();
	if (o->checked == o->len) {
		fprintf(stderr, "nothing written\n");
		abort();
	}
	while (o->checked < o->len) {
		v = json_loadb(o->buf + o->checked, o->len - o->checked,
			       JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL |
			       JSON_ALLOW_NUL | JSON_DISABLE_EOF_CHECK, &err);
		if (!v || !json_is_object(v) || o->buf[o->checked + err.position] != '\n') {
			fprintf(stderr, "invalid JSON written (%s at column %d): %.*s\n",
				!v ? err.text : !json_is_object(v) ? "not an object" :
				"no newline after the object", err.column,
				(int)(o->len - o->checked), o->buf + o->checked);
			abort();
		}
		json_decref(v);
		o->checked += err.position + 1;
	}
}

static void check_record(const struct pkv_record *r)
{
	struct pkv_span keys[4];
	size_t i;

	assert(r->used <= r->store_size);
	assert(r->nfields <= PKV_MAX_FIELDS && r->ndict <= PKV_MAX_DICT);
	/* Fields only from the kernel's records, and only marked ones unless asked. */
	assert(r->structured == (r->kv_source != PKV_KV_NONE));
	assert(!r->structured || r->facility == 0);
	assert((r->kv_source != PKV_KV_TEXT && r->kv_source != PKV_KV_DICT) ||
	       pkv_dict_get(r, "PRINTK_KV"));
	if (!r->structured)
		assert(r->nfields == 0 && r->msg.n == r->text.n);
	else
		assert(r->prefix.n + r->msg.n <= r->text.n);
	for (i = 0; i < r->nfields; i++)
		assert(r->fields[i].key.n >= 1 && r->fields[i].key.n <= 32);
	pkv_dict_compare(r, keys, 4);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct pkv_record *rp;
	struct pkv_record *r;
	struct pkv_seqtrack seq = { 0 };
	struct out o = { 0 };
	bool bad;
	struct pkv_json *j;
	struct pkv_input *in;
	int fd;

	if (!rp && pkv_record_new(&rp, FUZZ_RECORD_MAX))
		abort();
	r = rp;
	if (pkv_json_new_sink(&o.j, out_sink, &o, size & 1 ? PKV_JSON_PRETTY : 0))
		abort();
	j = o.j;
	if (pkv_record_parse(r, (const char *)data, size) == 0) {
		check_record(r);
		pkv_json_record(j, r);
	} else {
		assert(r->why[0]);
		pkv_json_malformed(j, r->why, (const char *)data, size, size);
	}
	check_json(&o);
	fd = memfd_create("fuzz", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET))
		abort();
	if (pkv_input_new(&in, fd, 0, FUZZ_RECORD_MAX))
		abort();
	for (;;) {
		struct pkv_chunk c;

		pkv_input_next(in, &c);
		memset(r->why, 0, sizeof(r->why));
		if (c.ev == PKV_EV_END || c.ev == PKV_EV_ERROR)
			break;
		assert(c.len <= FUZZ_RECORD_MAX && c.len <= c.total);
		if (c.ev != PKV_EV_RECORD && c.ev != PKV_EV_OVERLONG)
			continue;
		/* The stream's records also with unmarked blocks taken. */
		bad = pkv_record_parse_flags(r, c.raw, c.len, PKV_PARSE_UNMARKED) != 0 ||
		      c.ev == PKV_EV_OVERLONG;
		/* Every object kmsg2json writes for it: new boot, gap, record. */
		if (r->have_seq) {
			struct pkv_seq_event ev;

			pkv_seq_record(&seq, r->seq, &ev);
			if (ev.new_boot || ev.gap) {
				pkv_json_seq_event(j, &ev, r->seq);
				check_json(&o);
			}
		}
		if (bad) {
			pkv_json_malformed(j, r->why[0] ? r->why : "over-long", c.raw, c.len, c.total);
		} else {
			check_record(r);
			pkv_json_record(j, r);
		}
		check_json(&o);
	}
	pkv_input_free(in);
	close(fd);
	pkv_json_free(o.j);
	free(o.buf);
	return 0;
}
