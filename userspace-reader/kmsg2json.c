// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kmsg2json - print /dev/kmsg records, or a saved stream of them, as JSON.
 * See kmsg2json(1).
 */
#include "filter.h"
#include "pkvkmsg.h"

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
#include <unistd.h>

#define KMSG2JSON_VERSION "0.1"

enum { EXIT_MALFORMED = 1, EXIT_USAGE = 2 };

static void usage(FILE *o)
{
	fputs("Usage: kmsg2json [OPTION]... [FILE]\n"
	      "Print kernel log records as JSON, one object per line.\n"
	      "\n"
	      "Reads /dev/kmsg (every record in the buffer, then exits) or FILE, a saved\n"
	      "stream in the format /dev/kmsg returns; '-' reads standard input.\n"
	      "\n"
	      "  -f, --follow            keep reading /dev/kmsg for new records\n"
	      "  -n, --new               skip the records already in the buffer: only\n"
	      "                          those written after kmsg2json opened /dev/kmsg\n"
	      "  -l, --level LIST        only these levels: emerg,alert,crit,err,warn,\n"
	      "                          notice,info,debug or 0-7; 'err+' is err and more\n"
	      "                          severe, '+err' is err and less severe\n"
	      "      --facility LIST     only these facilities: kern,user,daemon,... or numbers\n"
	      "      --since-seq N       start at sequence number N: records lost from N on\n"
	      "                          are a gap\n"
	      "      --after-cursor C    start after cursor C (\"b=BOOT_ID;s=SEQ\"), where an\n"
	      "                          earlier run stopped; another boot's is a new boot\n"
	      "      --cursor-file FILE  start after the cursor in FILE if there is one, and\n"
	      "                          write the last record's cursor to it at the end\n"
	      "  -m, --match KEY=VALUE   only records whose field, dictionary entry or\n"
	      "                          prefix KEY is VALUE; repeat: all must hold\n"
	      "  -s, --structured-only   only records with printk_kv fields\n"
	      "  -u, --unmarked          also take fields from a field block in the text of\n"
	      "                          records the kernel did not mark (kernels that use\n"
	      "                          printk_kv.h without its printk patches); untrusted\n"
	      "  -p, --pretty            indent the JSON\n"
	      "  -h, --help              show this help\n"
	      "  -V, --version           show the version\n"
	      "\n"
	      "Exit status: 0 if all input was read and well-formed, 1 if a record was\n"
	      "malformed or a read failed (it is still reported, as an \"error\" object or\n"
	      "on stderr), 2 on a usage error or when the input cannot be opened.\n", o);
}

struct options {
	struct filter filter;
	bool follow, pretty, new_only;
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

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "follow", no_argument, NULL, 'f' },
		{ "new", no_argument, NULL, 'n' },
		{ "level", required_argument, NULL, 'l' },
		{ "facility", required_argument, NULL, 'F' },
		{ "since-seq", required_argument, NULL, 'S' },
		{ "after-cursor", required_argument, NULL, 'A' },
		{ "cursor-file", required_argument, NULL, 'C' },
		{ "match", required_argument, NULL, 'm' },
		{ "structured-only", no_argument, NULL, 's' },
		{ "unmarked", no_argument, NULL, 'u' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char why[160];
	uint64_t v;
	int c;

	while ((c = getopt_long(argc, argv, "fnl:m:suphV", longopts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'f':
			o->follow = true;
			break;
		case 'n':
			o->new_only = true;
			break;
		case 'l':
			if (filter_add_levels(&o->filter, optarg, why, sizeof(why)))
				goto bad;
			break;
		case 'F':
			if (filter_add_facilities(&o->filter, optarg, why, sizeof(why)))
				goto bad;
			break;
		case 'S':
			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-') {
				snprintf(why, sizeof(why), "--since-seq '%s' is not a sequence number", optarg);
				goto bad;
			}
			/* Record 0 has no record before it: start at the beginning. */
			o->have_start = v > 0;
			o->start = (struct pkv_cursor){ .seq = v - (v > 0) };
			break;
		case 'A':
			if (pkv_cursor_parse(&o->start, optarg, strlen(optarg))) {
				snprintf(why, sizeof(why),
					 "--after-cursor '%.80s' is not a cursor (b=BOOT_ID;s=SEQ)", optarg);
				goto bad;
			}
			o->have_start = true;
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
		case 'u':
			o->parse_flags |= PKV_PARSE_UNMARKED;
			break;
		case 'p':
			o->pretty = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			puts("kmsg2json " KMSG2JSON_VERSION);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
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
static bool is_kmsg(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) &&
	       major(st.st_rdev) == 1 && minor(st.st_rdev) == 11;
}

/*
 * Open the input. Only the kmsg device is read a record per read(); any
 * other file, a terminal or a pipe among them, is a stream. The descriptor's
 * flags are never changed (standard input's are shared with the caller):
 * without --follow the input layer polls before each read instead.
 */
static int open_input(const struct options *o, const char **name, bool *device)
{
	int fd;

	*name = o->file ? o->file : "/dev/kmsg";
	if (o->file && !strcmp(o->file, "-")) {
		*name = "<stdin>";
		fd = STDIN_FILENO;
	} else {
		fd = open(*name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "kmsg2json: %s: cannot open: %s\n", *name, strerror(errno));
			return -1;
		}
	}
	*device = is_kmsg(fd);
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

/* Write @c to the cursor file by rename(), so that it is whole or old. */
static int write_cursor_file(const char *path, const struct pkv_cursor *c)
{
	char text[PKV_CURSOR_MAX + 1], tmp[4096];
	int len = pkv_cursor_format(c, text, sizeof(text) - 1);
	int fd;

	if (len < 0 || snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		goto fail;
	text[len++] = '\n';
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		goto fail;
	if (write(fd, text, (size_t)len) != len || fsync(fd)) {
		close(fd);
		unlink(tmp);
		goto fail;
	}
	if (close(fd) || rename(tmp, path)) {
		unlink(tmp);
		goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "kmsg2json: %s: cannot write the cursor: %s\n", path, strerror(errno));
	return -1;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct pkv_json *j = NULL;
	struct pkv_seqtrack seq = { 0 };
	struct pkv_cursor here = { 0 };
	struct pkv_record *r = NULL;
	struct pkv_input *in = NULL;
	struct pkv_gap end_gap;
	const char *name;
	bool device;
	int fd, err, status = 0;

	if (parse_options(argc, argv, &o))
		return EXIT_USAGE;
	if (o.cursor_file && read_cursor_file(&o))
		return EXIT_USAGE;
	fd = open_input(&o, &name, &device);
	if (fd < 0)
		return EXIT_USAGE;
	/* The boot of a saved stream is not known: its cursors hold the seq only. */
	here.have_boot = device && pkv_boot_id(here.boot) == 0;
	if (o.have_start)
		pkv_seq_resume(&seq, o.start.seq, !o.start.have_boot || !here.have_boot ||
			       !strcmp(o.start.boot, here.boot));
	err = pkv_record_new(&r, 0);
	if (!err)
		err = pkv_input_new(&in, fd, (device ? PKV_INPUT_DEVICE : 0) |
				    (o.follow ? PKV_INPUT_FOLLOW : 0), 0);
	if (!err)
		err = pkv_json_new(&j, STDOUT_FILENO, o.pretty ? PKV_JSON_PRETTY : 0);
	if (err) {
		fprintf(stderr, "kmsg2json: cannot set up the reader: %s\n", strerror(-err));
		return EXIT_USAGE;
	}
	if (o.cursor_file && o.follow) {
		/* No SA_RESTART: poll() below returns, and the cursor is written. */
		struct sigaction sa = { .sa_handler = request_stop };

		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	while (!stop_requested) {
		struct pkv_seq_event sev;
		struct pkv_chunk c;
		bool bad;

		pkv_input_next(in, &c);
		if (c.ev == PKV_EV_END)
			break;
		if (c.ev == PKV_EV_WAIT) {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			/* Whatever was written reaches the reader before the wait. */
			if (pkv_json_flush(j))
				break;
			if (poll(&p, 1, -1) < 0 && errno != EINTR) {
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
			pkv_json_seq_event(j, &sev, r->seq);
			here.seq = r->seq;
		}
		if (bad) {
			pkv_json_malformed(j, r->why, c.raw, c.len, c.total);
			status = EXIT_MALFORMED;
			continue;
		}
		if (filter_pass(&o.filter, r) && pkv_json_record(j, r))
			break;
	}
	if (pkv_seq_end(&seq, &end_gap))
		pkv_json_gap(j, &end_gap);
	err = pkv_json_flush(j);
	if (err) {
		fprintf(stderr, "kmsg2json: write failed: %s\n", strerror(-err));
		status = EXIT_MALFORMED;
	}
	/*
	 * The last record read, shown or filtered out. Without a record past
	 * the start, the file keeps the cursor it had.
	 */
	if (o.cursor_file && seq.have_last && seq.resume == PKV_RESUME_NONE &&
	    write_cursor_file(o.cursor_file, &here))
		status = EXIT_MALFORMED;
	for (size_t i = 0; i < o.filter.nmatch; i++)
		free((char *)o.filter.match[i].key);
	pkv_json_free(j);
	pkv_input_free(in);
	pkv_record_free(r);
	if (fd != STDIN_FILENO)
		close(fd);
	return status;
}
