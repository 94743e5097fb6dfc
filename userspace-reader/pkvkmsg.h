/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pkvkmsg - parse /dev/kmsg records and printk_kv field blocks.
 *
 * Three layers, each usable alone:
 *   input   pkv_input_*: raw records from /dev/kmsg (one read() each) or from
 *           a saved stream in the same format, with gaps and read errors
 *   record  pkv_record_parse(): header, text and dictionary of one record,
 *           then the field block of its text (docs/FORMAT.md)
 *   json    pkv_json_*: one JSON object per record, always valid UTF-8
 *
 * No global state: every function works on the objects it is given, which
 * its *_new() function allocates. Errors are returned as negative errno
 * values; a malformed record also leaves a reason the caller can print.
 * Descriptors are the caller's: the library reads and writes them, never
 * changes their flags, and never closes them.
 *
 * ABI: the shared library exports exactly the functions declared here
 * (pkvkmsg.sym). struct pkv_record is allocated by the library, its
 * limits are run-time values, and a later version only adds members at
 * its end. The small structs a caller allocates itself (pkv_chunk,
 * pkv_gap, pkv_seqtrack, pkv_seq_event, pkv_cursor) and the arrays of
 * pkv_field and pkv_dict_entry keep their layout within a soname: a
 * change to one is a new soname, not a new PKVKMSG_ version.
 */
#ifndef PKVKMSG_H
#define PKVKMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The longest record /dev/kmsg returns (CONSOLE_EXT_LOG_MAX): the default
 * record_max of pkv_record_new() and pkv_input_new() (0 asks for it).
 */
#define PKV_RECORD_MAX	8192
#define PKV_MAX_FIELDS	64	/* the fields kept of one record */
#define PKV_MAX_DICT	64	/* dictionary lines kept; journald takes 64 (N_IOVEC_KERNEL_FIELDS) */

/* A run of bytes inside a record's storage; not NUL-terminated. */
struct pkv_span {
	const char *p;
	size_t n;
};

enum pkv_type {
	PKV_STRING,
	PKV_NUMBER,	/* value holds decimal digits, maybe a leading '-' */
	PKV_BOOL,	/* value is "true" or "false" */
	PKV_NULL,
};

struct pkv_field {
	struct pkv_span key;
	struct pkv_span value;	/* decoded */
	struct pkv_span raw;	/* a bare value as written (0x1f), else the decoded value */
	enum pkv_type type;
	bool quoted;
	bool cut;		/* the header shortened this string ("...") */
};

struct pkv_dict_entry {
	struct pkv_span key;
	struct pkv_span value;	/* decoded */
};

/*
 * Where a record's fields come from (docs/FORMAT.md, "Trust"). A patched
 * kernel marks each record that a printk_kv call site wrote with the
 * dictionary line PRINTK_KV, which holds its fields; user space cannot
 * write dictionary lines, so fields are taken only from marked records.
 */
enum pkv_kv_source {
	PKV_KV_NONE,		/* no fields */
	PKV_KV_TEXT,		/* the text's block, marked (printk.kv=text) */
	PKV_KV_DICT,		/* PRINTK_KV only; the text has no block (printk.kv=dict) */
	PKV_KV_UNMARKED,	/* a text block without the mark: PKV_PARSE_UNMARKED */
};

/* pkv_record_parse_flags(): also take fields from unmarked text blocks
 * (captures of kernels that use printk_kv.h without the printk patches). */
#define PKV_PARSE_UNMARKED	0x1u

/* The layout of struct pkv_record that this header describes. */
#define PKV_RECORD_VERSION	1

/*
 * One parsed record, from pkv_record_new(). Its members are read-only for
 * the caller; spans point into the record's own storage and are valid
 * until the next parse of the same record.
 */
struct pkv_record {
	uint32_t version;		/* PKV_RECORD_VERSION of the library that made it */
	size_t record_max;		/* the longest raw record it takes */
	bool have_seq;			/* the header parsed, even if the rest did not */
	uint64_t seq;
	uint64_t ts_usec;
	unsigned int facility;
	unsigned int level;
	bool cont;
	struct pkv_span caller;		/* "T123", "C1"; n == 0 when absent */
	struct pkv_span text;		/* decoded record text */
	struct pkv_dict_entry *dict;	/* PKV_MAX_DICT of them */
	size_t ndict;
	size_t dict_dropped;		/* well-formed lines past PKV_MAX_DICT, not kept */

	/* The fields (docs/FORMAT.md). */
	bool structured;		/* the record has fields: kv_source != PKV_KV_NONE */
	enum pkv_kv_source kv_source;
	bool truncated;			/* the block was cut by printk */
	const char *kv_error;		/* why a "[kv " block was rejected */
	struct pkv_span prefix;		/* before the text's block; empty without one */
	struct pkv_span msg;		/* the human message; all text without a block */
	struct pkv_span block;		/* the text block's complete fields, as written */
	struct pkv_field *fields;	/* PKV_MAX_FIELDS of them */
	size_t nfields;

	char why[128];			/* the reason of a parse failure */

	/* The library's: decoded bytes live here, the spans point into it. */
	char *store;
	size_t store_size, used;
};

/*
 * A record for raw records of up to @record_max bytes (0: PKV_RECORD_MAX).
 * 0, -EINVAL (@record_max below 64) or -ENOMEM.
 */
int pkv_record_new(struct pkv_record **r, size_t record_max);
/* NULL is a no-op. */
void pkv_record_free(struct pkv_record *r);

/*
 * Parse one raw record: "prio,seq,ts,flags[,k=v...];text\n" and its
 * " KEY=value\n" dictionary lines, as read() from /dev/kmsg returns it (the
 * final newline may be missing, a CR before each newline is tolerated).
 * Then parse the field block of the text. Returns 0, -EMSGSIZE (longer
 * than r->record_max) or -EBADMSG, with r->why set; a bad field block is
 * not a failure: r->kv_error says why it was rejected.
 */
int pkv_record_parse(struct pkv_record *r, const char *raw, size_t len);
/* The same, with PKV_PARSE_* @flags. */
int pkv_record_parse_flags(struct pkv_record *r, const char *raw, size_t len,
			   unsigned int flags);

/*
 * Parse the field block of @r->text into r->fields, whether or not the
 * kernel marked the record (pkv_record_parse() then applies the trust rule).
 * For a text the caller set in a record of its own, with r->used at 0:
 * on a record pkv_record_parse() filled, it takes more of the storage on
 * each call and forgets where the fields came from.
 */
void pkv_block_parse(struct pkv_record *r);

/*
 * A patched kernel also writes each field as a dictionary line KEY=value
 * for journald (docs/FORMAT.md). Compare them with the record's fields:
 * -ENODATA when the record has no such line (an unpatched kernel, or no
 * fields), else the number of disagreements, with the keys of the first
 * @max of them in @keys.
 */
int pkv_dict_compare(const struct pkv_record *r, struct pkv_span *keys, size_t max);

/* Look up a field or a dictionary entry; NULL when absent. */
const struct pkv_field *pkv_field_get(const struct pkv_record *r, const char *key);
const struct pkv_dict_entry *pkv_dict_get(const struct pkv_record *r, const char *key);

/*
 * Decode /dev/kmsg's \xNN escapes from @src into @dst (room for @n bytes).
 * Returns the decoded length, or -EINVAL with *bad set to the offset of an
 * escape the kernel never writes.
 */
long pkv_unescape_kmsg(char *dst, const char *src, size_t n, size_t *bad);

/* Input ----------------------------------------------------------------- */

enum pkv_event {
	PKV_EV_RECORD,		/* ev->raw holds one record */
	PKV_EV_OVERLONG,	/* a record longer than record_max; ev->raw is its start */
	PKV_EV_OVERRUN,		/* EPIPE: records were overwritten before they were read */
	PKV_EV_ERROR,		/* a read failed: ev->err is the errno */
	PKV_EV_END,		/* end of input, or nothing more to read without --follow */
	PKV_EV_WAIT,		/* nothing to read now: poll() the fd for POLLIN, then call again */
};

struct pkv_chunk {
	enum pkv_event ev;
	const char *raw;
	size_t len;
	size_t total;		/* PKV_EV_OVERLONG: the record's whole length */
	int err;
};

struct pkv_input;

#define PKV_INPUT_DEVICE	0x1u	/* @fd is /dev/kmsg: a record per read() */
#define PKV_INPUT_FOLLOW	0x2u	/* at the end of the records, wait for more */

/*
 * Read records of up to @record_max bytes (0: PKV_RECORD_MAX) from @fd.
 * PKV_INPUT_DEVICE: the fd is /dev/kmsg (one record per read; without
 * PKV_INPUT_FOLLOW, end where poll() finds no record ready, or at EAGAIN);
 * otherwise a stream of records. The fd's flags are never changed, and it
 * stays the caller's to close. 0, -EINVAL or -ENOMEM; read errors come as
 * events.
 *
 * pkv_input_next() never blocks, whether the fd is blocking or not: where
 * a read() could wait (/dev/kmsg with @follow, a pipe, a terminal) it
 * returns PKV_EV_WAIT instead, and the caller polls the fd, from its own
 * event loop if it has one.
 */
int pkv_input_new(struct pkv_input **in, int fd, unsigned int flags, size_t record_max);
void pkv_input_free(struct pkv_input *in);
/* Fill @c with the next event; the bytes stay valid until the next call. */
void pkv_input_next(struct pkv_input *in, struct pkv_chunk *c);

/* Sequence numbers ---------------------------------------------------- */

/*
 * Records that should have come but did not: a JSON gap object. An unknown
 * count or seq is written as null.
 */
struct pkv_gap {
	const char *reason;		/* "overrun" or "seq" */
	bool lost_known, have_after, have_next;
	uint64_t lost, after_seq, next_seq;
};

enum pkv_resume {
	PKV_RESUME_NONE,
	PKV_RESUME_SKIP,	/* records up to t->last were read before */
	PKV_RESUME_NEW_BOOT,	/* t->last is another boot's */
};

/* Gaps and new boots; zero it to start. */
struct pkv_seqtrack {
	bool have_last;
	uint64_t last;
	bool overrun;			/* records were overwritten before the next one */
	enum pkv_resume resume;
};

/* Where a record's seq stands after the last one's. */
enum pkv_seq_step {
	PKV_SEQ_FIRST,		/* the first record seen */
	PKV_SEQ_NEXT,		/* last + 1 */
	PKV_SEQ_GAP,		/* records lost in between: *lost of them */
	PKV_SEQ_SAME,		/* the last one again (a replayed record) */
	PKV_SEQ_BACK,		/* lower: a new boot, or another boot's capture */
	PKV_SEQ_OLD,		/* at or before the resume point: read before, skip it */
};

/*
 * Step the tracker to @seq (back too, so that gaps are found after a new
 * boot); *lost is set for PKV_SEQ_GAP, 0 otherwise. No overflow: seq is
 * compared, never last + 1.
 */
enum pkv_seq_step pkv_seq_step(struct pkv_seqtrack *t, uint64_t seq, uint64_t *lost);

/*
 * Resume after @after_seq, the last record a reader read before. Of the
 * same boot: the records up to it are PKV_SEQ_OLD, and records lost after
 * it are a gap. Of another boot: the first record reports a new boot.
 */
void pkv_seq_resume(struct pkv_seqtrack *t, uint64_t after_seq, bool same_boot);
/* The input reported an overrun (PKV_EV_OVERRUN). */
void pkv_seq_overrun(struct pkv_seqtrack *t);

/* What a reader reports before a record: a new boot, then a gap. */
struct pkv_seq_event {
	enum pkv_seq_step step;
	bool new_boot;			/* the seq went back, or the boot id changed */
	uint64_t boot_after;		/* the old boot's last seq */
	bool gap;
	struct pkv_gap g;
};

/* Account for a record of @seq; PKV_SEQ_OLD: skip the record. */
enum pkv_seq_step pkv_seq_record(struct pkv_seqtrack *t, uint64_t seq,
				 struct pkv_seq_event *ev);
/* At the end of input: true, with @g, when an overrun came after the last record. */
bool pkv_seq_end(struct pkv_seqtrack *t, struct pkv_gap *g);

/*
 * A cursor: where a reader stopped, "b=BOOT_ID;s=SEQ" (the boot id's 32 hex
 * digits), or "s=SEQ" when the boot is not known (a saved stream).
 */
#define PKV_BOOT_ID_LEN	32
#define PKV_CURSOR_MAX	64
struct pkv_cursor {
	bool have_boot;
	char boot[PKV_BOOT_ID_LEN + 1];
	uint64_t seq;
};

/* Parse @n bytes (a final newline allowed): 0, or -EINVAL. */
int pkv_cursor_parse(struct pkv_cursor *c, const char *s, size_t n);
/* Write it NUL-terminated: its length, or -ENOSPC. */
int pkv_cursor_format(const struct pkv_cursor *c, char *buf, size_t n);
/* This boot's id, from /proc/sys/kernel/random/boot_id: 0 or -errno. */
int pkv_boot_id(char boot[PKV_BOOT_ID_LEN + 1]);

/* JSON ----------------------------------------------------------------- */

/*
 * The writer: one object per line, in an output buffer it owns, handed to
 * its sink in blocks between objects and by pkv_json_flush(). Every call
 * returns 0 or a negative errno: the sink's, or -ENOMEM; the first failure
 * sticks, and later calls return it without writing.
 */
struct pkv_json;

#define PKV_JSON_PRETTY	0x1u	/* indent the objects */
#define PKV_JSON_SEQ	0x2u	/* RFC 7464 (application/json-seq): RS before each object */

/* Where the output goes: all @n bytes, then 0, or a negative errno. */
typedef int (*pkv_json_sink)(void *ctx, const char *p, size_t n);

/*
 * A writer to @fd with write(2), which waits in poll() when the fd is
 * non-blocking and full (its flags are never changed); the fd stays the
 * caller's to close. 0, -EBADF, -EINVAL (unknown @flags) or -ENOMEM.
 */
int pkv_json_new(struct pkv_json **j, int fd, unsigned int flags);
/* A writer to the caller's @sink, called with @ctx. */
int pkv_json_new_sink(struct pkv_json **j, pkv_json_sink sink, void *ctx,
		      unsigned int flags);
/* Give the buffered output to the sink. */
int pkv_json_flush(struct pkv_json *j);
/* Free the writer; what was not flushed is dropped. NULL is a no-op. */
void pkv_json_free(struct pkv_json *j);

/*
 * Give each record a "time" member after ts_usec, the wall-clock time
 * (UTC, ISO 8601) of its timestamp from @boot_usec, the boot's time in usec
 * since the epoch. 0.
 */
int pkv_json_set_boot_time(struct pkv_json *j, int64_t boot_usec);
/*
 * Write only these members of record objects: a comma-separated list of
 * their names (kmsg2json(1), OUTPUT). Other objects are whole. 0, or
 * -EINVAL for an unknown name or an empty list.
 */
int pkv_json_select(struct pkv_json *j, const char *members);

/* One record object. */
int pkv_json_record(struct pkv_json *j, const struct pkv_record *r);
/* A malformed record: its reason and its bytes, escaped. */
int pkv_json_malformed(struct pkv_json *j, const char *why, const char *raw,
		       size_t len, size_t total);
/* Records that did not arrive. */
int pkv_json_gap(struct pkv_json *j, const struct pkv_gap *g);
/* {"new_boot":true,"after_seq":A,"next_seq":B}: the seq went back. */
int pkv_json_seq_back(struct pkv_json *j, uint64_t after_seq, uint64_t next_seq);
/* What pkv_seq_record() found: the new boot object, then the gap's. */
int pkv_json_seq_event(struct pkv_json *j, const struct pkv_seq_event *ev, uint64_t seq);

/*
 * Append @n bytes as one JSON string value, no newline (for callers that
 * write their own objects); invalid UTF-8 is an array of byte values.
 */
int pkv_json_string(struct pkv_json *j, const char *p, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* PKVKMSG_H */
