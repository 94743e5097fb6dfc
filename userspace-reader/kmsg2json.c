// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kmsg2json - print /dev/kmsg records, or a saved stream of them, as JSON.
 * See kmsg2json(1).
 */
#define _GNU_SOURCE	/* ppoll, mkostemp */
#include "filter.h"
#include "pkvkmsg.h"
#include "text.h"
#include "when.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define KMSG2JSON_VERSION "1.0"
/* The JSON objects' members, as kmsg2json(1) documents them (OUTPUT). */
#define KMSG2JSON_SCHEMA 1

enum { EXIT_MALFORMED = 1, EXIT_USAGE = 2 };

static void usage(FILE *o)
{
	fputs("Usage: kmsg2json [OPTION]... [FILE]\n"
	      "Print kernel log records as JSON, one object per line.\n"
	      "\n"
	      "Reads /dev/kmsg (every record in the buffer, then exits) or FILE, a saved\n"
	      "stream in the format /dev/kmsg returns; '-' reads standard input.\n"
	      "Option letters are dmesg's and journalctl's where they have one.\n"
	      "\n"
	      "Reading:\n"
	      "  -w, --follow            keep reading /dev/kmsg for new records\n"
	      "  -W, --follow-new        only records written from now on, and keep reading\n"
	      "      --new               only records written from now on\n"
	      "      --since-seq N       start at sequence number N: records lost from N on\n"
	      "                          are a gap\n"
	      "      --after-cursor C    start after cursor C (\"b=BOOT_ID;s=SEQ\"), where an\n"
	      "                          earlier run stopped; another boot's is a new boot\n"
	      "      --cursor-file FILE  start after the cursor in FILE if there is one, and\n"
	      "                          write the last record's cursor to it at the end\n"
	      "      --unmarked          also take fields from a field block in the text of\n"
	      "                          records the kernel did not mark (kernels that use\n"
	      "                          printk_kv.h without its printk patches); untrusted\n"
	      "\n"
	      "Choosing records:\n"
	      "  -l, --level LIST        only these levels: emerg,alert,crit,err,warn,\n"
	      "                          notice,info,debug (any case; also panic, error,\n"
	      "                          warning) or 0-7; 'err+' is err and more severe,\n"
	      "                          '+err' is err and less severe\n"
	      "  -p, --priority LEVEL    as journalctl: LEVEL and every more severe one, or\n"
	      "                          FROM..TO (\"warning..err\")\n"
	      "  -f, --facility LIST     only these facilities: kern,user,daemon,... or 0-255\n"
	      "  -k, --kernel            only the kernel's records (facility kern)\n"
	      "  -u, --userspace         only user space's records (every other facility)\n"
	      "  -m, --match KEY=VALUE   only records whose field, dictionary entry or\n"
	      "                          prefix KEY is VALUE; repeat: all must hold\n"
	      "  -s, --structured-only   only records with printk_kv fields\n"
	      "  -g, --grep PATTERN      only records whose message matches the extended\n"
	      "                          regex PATTERN (without capitals: any case)\n"
	      "  -S, --since TIME        only records from TIME, -U, --until TIME up to it:\n"
	      "  -U, --until TIME        \"2026-12-07 10:00:00\", \"10:00\", \"today\",\n"
	      "                          \"yesterday\", \"-5min\", \"@EPOCH\" (/dev/kmsg only)\n"
	      "  -n, --lines N           only the last N records chosen, then any that follow\n"
	      "\n"
	      "Output:\n"
	      "  -o, --output MODE       json (the default), json-pretty, json-seq (RFC\n"
	      "                          7464), short (dmesg's lines, the fields in colour\n"
	      "                          on a terminal) or cat (the text alone)\n"
	      "      --output-fields LIST  only these members of a record object\n"
	      "  -T, --ctime             wall-clock times from the boot's (/dev/kmsg only):\n"
	      "                          a \"time\" member, or dmesg -T's stamp in short\n"
	      "      --pretty            the same as -o json-pretty\n"
	      "  -h, --help              show this help\n"
	      "  -V, --version           show the version and the JSON schema's\n"
	      "\n"
	      "Exit status: 0 if all input was read and well-formed, 1 if a record was\n"
	      "malformed or a read failed (it is still reported, as an \"error\" object or\n"
	      "on stderr), 2 on a usage error or when the input cannot be opened.\n", o);
}

enum output { OUT_JSON, OUT_JSON_PRETTY, OUT_JSON_SEQ, OUT_SHORT, OUT_CAT };

struct options {
	struct filter filter;
	bool follow, new_only, ctime;
	enum output output;
	const char *output_fields;
	const char *since, *until;	/* --since, --until, as given */
	int64_t since_wall, until_wall;	/* their wall-clock times, usec since the epoch */
	int starts;			/* --since-seq and --after-cursor given */
	size_t lines;			/* -n: 0 for all */
	bool have_lines;
	unsigned int parse_flags;	/* PKV_PARSE_* */
	const char *file;
	bool have_start;		/* --since-seq, --after-cursor or a cursor file's */
	struct pkv_cursor start;	/* start after it */
	const char *cursor_file;
};

/* Set by SIGINT and SIGTERM when a cursor file is to be written at the end. */
static volatile sig_atomic_t stop_requested;

static void request_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* --since, --until: @s (if given) as usec since the epoch; 0 or -1 with a message. */
static int parse_when(const char *opt, const char *s, int64_t *wall)
{
	struct timespec now;

	if (!s)
		return 0;
	clock_gettime(CLOCK_REALTIME, &now);
	if (when_parse(s, (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000, wall) == 0)
		return 0;
	fprintf(stderr, "kmsg2json: %s '%s': not a time (\"2026-12-07 10:00:00\", \"10:00\", "
		"\"today\", \"-5min\", \"@EPOCH\")\n", opt, s);
	return -1;
}

/* A decimal option value up to @max: digits only (strtoull takes a sign and spaces). */
static bool parse_count(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && s[0] >= '0' && s[0] <= '9' && !*end && *v <= max;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "follow", no_argument, NULL, 'w' },
		{ "follow-new", no_argument, NULL, 'W' },
		{ "new", no_argument, NULL, 'N' },
		{ "level", required_argument, NULL, 'l' },
		{ "facility", required_argument, NULL, 'f' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "userspace", no_argument, NULL, 'u' },
		{ "since-seq", required_argument, NULL, 'Q' },
		{ "after-cursor", required_argument, NULL, 'A' },
		{ "cursor-file", required_argument, NULL, 'C' },
		{ "match", required_argument, NULL, 'm' },
		{ "structured-only", no_argument, NULL, 's' },
		{ "grep", required_argument, NULL, 'g' },
		{ "since", required_argument, NULL, 'S' },
		{ "until", required_argument, NULL, 'U' },
		{ "lines", required_argument, NULL, 'n' },
		{ "unmarked", no_argument, NULL, 'M' },
		{ "output", required_argument, NULL, 'o' },
		{ "output-fields", required_argument, NULL, 'F' },
		{ "ctime", no_argument, NULL, 'T' },
		{ "priority", required_argument, NULL, 'p' },
		{ "pretty", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const outputs[] = {
		[OUT_JSON] = "json", [OUT_JSON_PRETTY] = "json-pretty", [OUT_JSON_SEQ] = "json-seq",
		[OUT_SHORT] = "short", [OUT_CAT] = "cat",
	};
	char why[160];
	uint64_t v;
	size_t i;
	int c;

	while ((c = getopt_long(argc, argv, "wWl:f:kum:sg:S:U:n:o:Tp:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			o->follow = true;
			break;
		case 'W':
			o->follow = o->new_only = true;
			break;
		case 'N':
			o->new_only = true;
			break;
		case 'l':
			if (filter_add_levels(&o->filter, optarg, why, sizeof(why)))
				goto bad;
			break;
		case 'f':
			if (filter_add_facilities(&o->filter, optarg, why, sizeof(why)))
				goto bad;
			break;
		case 'k':
		case 'u':
			filter_kernel_only(&o->filter, c == 'k');
			break;
		case 'Q':
			if (!parse_count(optarg, UINT64_MAX, &v)) {
				snprintf(why, sizeof(why), "--since-seq '%s' is not a sequence number", optarg);
				goto bad;
			}
			/* Record 0 has no record before it: start at the beginning. */
			o->have_start = v > 0;
			o->start = (struct pkv_cursor){ .seq = v - (v > 0) };
			o->starts++;
			break;
		case 'A':
			if (pkv_cursor_parse(&o->start, optarg, strlen(optarg))) {
				snprintf(why, sizeof(why),
					 "--after-cursor '%.80s' is not a cursor (b=BOOT_ID;s=SEQ)", optarg);
				goto bad;
			}
			o->have_start = true;
			o->starts++;
			break;
		case 'C':
			o->cursor_file = optarg;
			break;
		case 'm':
			if (filter_add_match(&o->filter, optarg, why, sizeof(why)))
				goto bad;
			break;
		case 's':
			o->filter.structured_only = true;
			break;
		case 'g':
			if (filter_set_grep(&o->filter, optarg, why, sizeof(why)))
				goto bad;
			break;
		case 'S':
			o->since = optarg;
			break;
		case 'U':
			o->until = optarg;
			break;
		case 'n':
			if (!parse_count(optarg, 1000000, &v)) {
				snprintf(why, sizeof(why), "--lines '%s' is not a count from 0 to 1000000", optarg);
				goto bad;
			}
			o->lines = (size_t)v;
			o->have_lines = true;
			break;
		case 'M':
			o->parse_flags |= PKV_PARSE_UNMARKED;
			break;
		case 'o':
			for (i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
				if (!strcmp(optarg, outputs[i]))
					break;
			if (i == sizeof(outputs) / sizeof(outputs[0])) {
				snprintf(why, sizeof(why),
					 "--output '%s': json, json-pretty, json-seq, short or cat", optarg);
				goto bad;
			}
			o->output = (enum output)i;
			break;
		case 'F':
			o->output_fields = optarg;
			break;
		case 'T':
			o->ctime = true;
			break;
		case 'p':
			if (filter_add_priority(&o->filter, optarg, why, sizeof(why)))
				goto bad;
			break;
		case 'P':
			o->output = OUT_JSON_PRETTY;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("kmsg2json %s (JSON schema %d)\n", KMSG2JSON_VERSION, KMSG2JSON_SCHEMA);
			exit(0);
		default:
			fputs("Try 'kmsg2json --help' for more information.\n", stderr);
			return -1;
		}
	}
	if (o->starts > 1) {
		snprintf(why, sizeof(why), "--since-seq and --after-cursor: give one start");
		goto bad;
	}
	if (o->new_only && (o->have_start || o->cursor_file)) {
		snprintf(why, sizeof(why), "--new or -W reads only new records: no start to give");
		goto bad;
	}
	if (o->output_fields && (o->output == OUT_SHORT || o->output == OUT_CAT)) {
		snprintf(why, sizeof(why), "--output-fields chooses JSON members: not with -o short or cat");
		goto bad;
	}
	if (parse_when("--since", o->since, &o->since_wall) ||
	    parse_when("--until", o->until, &o->until_wall))
		return -1;
	if (optind < argc)
		o->file = argv[optind++];
	if (optind < argc) {
		snprintf(why, sizeof(why), "more than one FILE given ('%s')", argv[optind]);
		goto bad;
	}
	return 0;
bad:
	fprintf(stderr, "kmsg2json: %s\n", why);
	return -1;
}

/* /dev/kmsg: char 1:11 (drivers/char/mem.c). */
static bool is_kmsg(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 11;
}

/*
 * Open the input. Only the kmsg device is read a record per read(); any
 * other file, a terminal or a pipe among them, is a stream. The descriptor's
 * flags are never changed (standard input's are shared with the caller):
 * without --follow the input layer polls before each read instead.
 */
static int open_input(const struct options *o, const char **name, bool *device)
{
	struct stat fst;
	int fd;

	*name = o->file ? o->file : "/dev/kmsg";
	if (o->file && !strcmp(o->file, "-")) {
		*name = "<stdin>";
		fd = STDIN_FILENO;
	} else {
		struct stat st;
		/*
		 * The kmsg device, opened by us, non-blocking: one read() per
		 * record, EAGAIN at the end, no poll() in between. Anything else
		 * as it is (a FIFO's open waits for its writer).
		 */
		bool kmsg = stat(*name, &st) == 0 && is_kmsg(&st);

		fd = open(*name, O_RDONLY | O_CLOEXEC | (kmsg ? O_NONBLOCK : 0));
		if (fd < 0) {
			fprintf(stderr, "kmsg2json: %s: cannot open: %s\n", *name, strerror(errno));
			return -1;
		}
	}
	*device = fstat(fd, &fst) == 0 && is_kmsg(&fst);
	if (o->follow && !*device)
		fprintf(stderr, "kmsg2json: %s: not a device; --follow ignored\n", *name);
	if (o->new_only && !*device) {
		fprintf(stderr, "kmsg2json: %s: not a device; --new reads /dev/kmsg only\n", *name);
		return -1;
	}
	/* /dev/kmsg: SEEK_END places the reader after the last record. */
	if (o->new_only && lseek(fd, 0, SEEK_END) < 0) {
		fprintf(stderr, "kmsg2json: %s: cannot seek to the end: %s\n", *name, strerror(errno));
		return -1;
	}
	return fd;
}

/*
 * The cursor file: read the cursor to start after, if the file has one (a
 * missing or empty file is a first run). 0, or -1 with a message.
 */
static int read_cursor_file(struct options *o)
{
	char buf[PKV_CURSOR_MAX + 2];
	ssize_t n;
	int fd = open(o->cursor_file, O_RDONLY | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0) {
		fprintf(stderr, "kmsg2json: %s: cannot open: %s\n", o->cursor_file, strerror(errno));
		return -1;
	}
	do
		n = read(fd, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0) {
		fprintf(stderr, "kmsg2json: %s: cannot read: %s\n", o->cursor_file, strerror(errno));
		return -1;
	}
	if (n == 0)
		return 0;
	if (o->have_start) {
		fprintf(stderr, "kmsg2json: %s: a cursor file and --since-seq or --after-cursor: "
			"give one start\n", o->cursor_file);
		return -1;
	}
	if ((size_t)n == sizeof(buf) || pkv_cursor_parse(&o->start, buf, (size_t)n)) {
		fprintf(stderr, "kmsg2json: %s: not a cursor (b=BOOT_ID;s=SEQ); remove the file "
			"to start from the oldest record\n", o->cursor_file);
		return -1;
	}
	o->have_start = true;
	return 0;
}

/*
 * Write @c to the cursor file by rename() of a new file in its directory,
 * so that it is whole or old, and sync the directory.
 */
static int write_cursor_file(const char *path, const struct pkv_cursor *c)
{
	char text[PKV_CURSOR_MAX + 1], tmp[4096], dir[4096];
	int len = pkv_cursor_format(c, text, sizeof(text) - 1);
	const char *slash = strrchr(path, '/');
	int fd, dfd, err = ENAMETOOLONG;

	if (len < 0 || snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		goto fail;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
	text[len++] = '\n';
	/* mkstemp(): O_EXCL, a name no one else chose; not a planted symlink. */
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		goto fail;
	}
	if (fchmod(fd, 0644) || write(fd, text, (size_t)len) != len || fsync(fd)) {
		err = errno ? errno : EIO;
		close(fd);
		unlink(tmp);
		goto fail;
	}
	if (close(fd) || rename(tmp, path)) {
		err = errno;
		unlink(tmp);
		goto fail;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
fail:
	fprintf(stderr, "kmsg2json: %s: cannot write the cursor: %s\n", path, strerror(err));
	return -1;
}

/* Where records go: the JSON writer, or dmesg-like text on stdout. */
struct out {
	enum output mode;
	struct pkv_json *j;		/* the json modes */
	struct text_opts t;		/* short, cat */
};

static bool out_text(const struct out *w)
{
	return w->mode == OUT_SHORT || w->mode == OUT_CAT;
}

static int out_record(struct out *w, const struct pkv_record *r)
{
	if (!out_text(w))
		return pkv_json_record(w->j, r);
	text_record(stdout, r, &w->t);
	return 0;
}

static void out_seq_event(struct out *w, const struct pkv_seq_event *ev, uint64_t seq)
{
	char what[96];

	if (!out_text(w)) {
		pkv_json_seq_event(w->j, ev, seq);
		return;
	}
	if (ev->new_boot)
		text_note(stdout, &w->t, "a new boot");
	if (ev->gap && ev->g.lost_known) {
		snprintf(what, sizeof(what), "%" PRIu64 " records lost (%s)", ev->g.lost, ev->g.reason);
		text_note(stdout, &w->t, what);
	} else if (ev->gap) {
		snprintf(what, sizeof(what), "records lost (%s)", ev->g.reason);
		text_note(stdout, &w->t, what);
	}
}

static void out_gap(struct out *w, const struct pkv_gap *g)
{
	struct pkv_seq_event ev = { .gap = true, .g = *g };

	out_seq_event(w, &ev, 0);
}

static void out_malformed(struct out *w, const struct pkv_record *r, const struct pkv_chunk *c)
{
	char what[192];

	if (!out_text(w)) {
		pkv_json_malformed(w->j, r->why, c->raw, c->len, c->total);
		return;
	}
	snprintf(what, sizeof(what), "malformed record: %s", r->why);
	text_note(stdout, &w->t, what);
}

static int out_flush(struct out *w)
{
	if (!out_text(w))
		return pkv_json_flush(w->j);
	return fflush(stdout) ? -errno : 0;
}

/* -n N: the last N records chosen, kept raw until the buffer is read. */
struct ring {
	size_t cap, n, next;
	struct {
		char *raw;
		size_t len;
	} *e;
};

static int ring_add(struct ring *g, const char *raw, size_t len)
{
	char *copy;

	if (!g->cap)
		return 0;
	copy = malloc(len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, raw, len);
	if (g->n == g->cap)
		free(g->e[g->next].raw);
	else
		g->n++;
	g->e[g->next].raw = copy;
	g->e[g->next].len = len;
	g->next = (g->next + 1) % g->cap;
	return 0;
}

/* Print what the ring holds, oldest first (@w NULL: drop it), and empty it. */
static int ring_flush(struct ring *g, struct out *w, struct pkv_record *r, unsigned int flags)
{
	size_t i, first = (g->next + g->cap - g->n) % (g->cap ? g->cap : 1);
	int err = 0;

	for (i = 0; i < g->n; i++) {
		size_t k = (first + i) % g->cap;

		if (w && !err && pkv_record_parse_flags(r, g->e[k].raw, g->e[k].len, flags) == 0)
			err = out_record(w, r);
		free(g->e[k].raw);
	}
	g->n = g->next = 0;
	return err;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct out w = { 0 };
	struct ring ring = { 0 };
	struct pkv_seqtrack seq = { 0 };
	struct pkv_cursor here = { 0 };
	struct pkv_record *r = NULL;
	struct pkv_input *in = NULL;
	struct pkv_gap end_gap;
	const char *name;
	int64_t boot = 0;
	bool device, draining, filtering, out_failed = false, have_wait_mask = false;
	sigset_t wait_mask;
	int fd, err, status = 0;

	if (parse_options(argc, argv, &o) || (o.cursor_file && read_cursor_file(&o))) {
		filter_free(&o.filter);
		return EXIT_USAGE;
	}
	fd = open_input(&o, &name, &device);
	if (fd < 0) {
		filter_free(&o.filter);
		return EXIT_USAGE;
	}
	/* Wall-clock times need the boot's: only the running kernel's records have it. */
	if ((o.ctime || o.since || o.until) && !device) {
		fprintf(stderr, "kmsg2json: %s: -T, --since and --until need /dev/kmsg: the boot "
			"time of a saved stream is not known\n", name);
		status = EXIT_USAGE;
		goto done;
	}
	if ((o.ctime || o.since || o.until) && (err = when_boot_realtime(&boot))) {
		fprintf(stderr, "kmsg2json: the boot's wall-clock time: %s\n", strerror(-err));
		status = EXIT_USAGE;
		goto done;
	}
	o.filter.have_since = o.since;
	o.filter.have_until = o.until;
	o.filter.since_usec = o.since_wall - boot;
	o.filter.until_usec = o.until_wall - boot;
	/* The boot of a saved stream is not known: its cursors hold the seq only. */
	here.have_boot = device && pkv_boot_id(here.boot) == 0;
	if (o.have_start)
		pkv_seq_resume(&seq, o.start.seq, !o.start.have_boot || !here.have_boot ||
			       !strcmp(o.start.boot, here.boot));
	w.mode = o.output;
	w.t.mode = o.output == OUT_CAT ? TEXT_CAT : TEXT_SHORT;
	w.t.colour = isatty(STDOUT_FILENO) && !getenv("NO_COLOR") &&
		     (!getenv("TERM") || strcmp(getenv("TERM"), "dumb"));
	w.t.have_boot = o.ctime;
	w.t.boot_usec = boot;
	err = pkv_record_new(&r, 0);
	if (!err)
		err = pkv_input_new(&in, fd, (device ? PKV_INPUT_DEVICE : 0) |
				    (o.follow ? PKV_INPUT_FOLLOW : 0), 0);
	if (!err && !out_text(&w))
		err = pkv_json_new(&w.j, STDOUT_FILENO, o.output == OUT_JSON_PRETTY ? PKV_JSON_PRETTY :
				   o.output == OUT_JSON_SEQ ? PKV_JSON_SEQ : 0);
	if (!err && o.have_lines && o.lines) {
		ring.cap = o.lines;
		ring.e = calloc(o.lines, sizeof(*ring.e));
		err = ring.e ? 0 : -ENOMEM;
	}
	if (err) {
		fprintf(stderr, "kmsg2json: cannot set up the reader: %s\n", strerror(-err));
		status = EXIT_USAGE;
		goto done;
	}
	if (w.j && o.ctime)
		pkv_json_set_boot_time(w.j, boot);
	if (w.j && o.output_fields && pkv_json_select(w.j, o.output_fields)) {
		fprintf(stderr, "kmsg2json: --output-fields '%s': a comma-separated list of a "
			"record's members (kmsg2json(1), OUTPUT)\n", o.output_fields);
		status = EXIT_USAGE;
		goto done;
	}
	if (o.cursor_file && o.follow) {
		/*
		 * Blocked but while waiting in ppoll(): a signal that comes while
		 * a record is handled ends the next wait, not a wait that has
		 * already begun. Then the cursor is written.
		 */
		struct sigaction sa = { .sa_handler = request_stop };
		sigset_t stop;

		sigemptyset(&stop);
		sigaddset(&stop, SIGINT);
		sigaddset(&stop, SIGTERM);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigprocmask(SIG_BLOCK, &stop, &wait_mask);
		have_wait_mask = true;
	}
	/* -n: the records already there go to the ring, then the last of them out. */
	draining = o.have_lines;
	filtering = !filter_empty(&o.filter);
	while (!stop_requested) {
		struct pkv_seq_event sev;
		struct pkv_chunk c;
		bool bad;

		pkv_input_next(in, &c);
		/* The buffer is read: /dev/kmsg waits for new records, a stream ends. */
		if ((c.ev == PKV_EV_END || (c.ev == PKV_EV_WAIT && device)) && draining) {
			draining = false;
			if (ring_flush(&ring, &w, r, o.parse_flags)) {
				out_failed = true;
				break;
			}
		}
		if (c.ev == PKV_EV_END)
			break;
		if (c.ev == PKV_EV_WAIT) {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			/* Whatever was written reaches the reader before the wait. */
			if (out_flush(&w)) {
				out_failed = true;
				break;
			}
			if (ppoll(&p, 1, NULL, have_wait_mask ? &wait_mask : NULL) < 0 && errno != EINTR) {
				fprintf(stderr, "kmsg2json: %s: poll failed: %s\n", name, strerror(errno));
				status = EXIT_MALFORMED;
				break;
			}
			continue;
		}
		if (c.ev == PKV_EV_ERROR) {
			fprintf(stderr, "kmsg2json: %s: read failed: %s\n", name, strerror(c.err));
			status = EXIT_MALFORMED;
			break;
		}
		if (c.ev == PKV_EV_OVERRUN) {
			pkv_seq_overrun(&seq);
			continue;
		}
		/* Of an over-long record only the head is kept: its header still counts. */
		bad = pkv_record_parse_flags(r, c.raw, c.len, o.parse_flags) != 0 || c.ev == PKV_EV_OVERLONG;
		if (c.ev == PKV_EV_OVERLONG)
			snprintf(r->why, sizeof(r->why), "record of %zu bytes is longer than %zu",
				 c.total, r->record_max);
		/* A malformed record whose header parsed still accounts for its seq. */
		if (r->have_seq) {
			if (pkv_seq_record(&seq, r->seq, &sev) == PKV_SEQ_OLD)
				continue;
			if (!draining)
				out_seq_event(&w, &sev, r->seq);
			here.seq = r->seq;
		}
		if (bad) {
			if (!draining)
				out_malformed(&w, r, &c);
			status = EXIT_MALFORMED;
			continue;
		}
		if (filtering && !filter_pass(&o.filter, r))
			continue;
		if (draining && ring_add(&ring, c.raw, c.len)) {
			fprintf(stderr, "kmsg2json: out of memory for --lines\n");
			out_failed = true;
			break;
		}
		if (!draining && out_record(&w, r)) {
			out_failed = true;
			break;
		}
	}
	if (pkv_seq_end(&seq, &end_gap))
		out_gap(&w, &end_gap);
	err = out_flush(&w);
	if (err) {
		fprintf(stderr, "kmsg2json: write failed: %s\n", strerror(-err));
		out_failed = true;
	}
	if (out_failed)
		status = EXIT_MALFORMED;
	/*
	 * The last record read, shown or filtered out. Without a record past
	 * the start, the file keeps the cursor it had; after output that did
	 * not all go out, too: the next run gives it again.
	 */
	if (o.cursor_file && seq.have_last && seq.resume == PKV_RESUME_NONE && !out_failed &&
	    write_cursor_file(o.cursor_file, &here))
		status = EXIT_MALFORMED;
done:
	filter_free(&o.filter);
	ring_flush(&ring, NULL, r, 0);
	free(ring.e);
	pkv_json_free(w.j);
	pkv_input_free(in);
	pkv_record_free(r);
	if (fd != STDIN_FILENO)
		close(fd);
	return status;
}
