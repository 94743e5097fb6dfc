// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kmsg2json - print /dev/kmsg records, or a saved stream of them, as JSON.
 * See kmsg2json(1).
 */
#include "filter.h"
#include "pkvkmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/sysmacros.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	      "      --since-seq N       only records with sequence number N or later\n"
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
};

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "follow", no_argument, NULL, 'f' },
		{ "new", no_argument, NULL, 'n' },
		{ "level", required_argument, NULL, 'l' },
		{ "facility", required_argument, NULL, 'F' },
		{ "since-seq", required_argument, NULL, 'S' },
		{ "match", required_argument, NULL, 'm' },
		{ "structured-only", no_argument, NULL, 's' },
		{ "unmarked", no_argument, NULL, 'u' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char why[160];
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
			o->filter.since_seq = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-') {
				snprintf(why, sizeof(why), "--since-seq '%s' is not a sequence number", optarg);
				goto bad;
			}
			o->filter.have_since = true;
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

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct pkv_json j = { .out = stdout };
	struct pkv_seqtrack seq = { 0 };
	struct pkv_record *r;
	struct pkv_input *in;
	const char *name;
	bool device, overrun = false;
	int fd, status = 0;

	if (parse_options(argc, argv, &o))
		return EXIT_USAGE;
	j.pretty = o.pretty;
	fd = open_input(&o, &name, &device);
	if (fd < 0)
		return EXIT_USAGE;
	r = malloc(sizeof(*r));
	in = pkv_input_new(fd, device, o.follow);
	if (!r || !in) {
		fprintf(stderr, "kmsg2json: out of memory\n");
		return EXIT_USAGE;
	}
	if (!o.follow)
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);

	for (;;) {
		struct pkv_chunk c;
		uint64_t lost;
		bool bad;

		pkv_input_next(in, &c);
		if (c.ev == PKV_EV_END)
			break;
		if (c.ev == PKV_EV_ERROR) {
			fprintf(stderr, "kmsg2json: %s: read failed: %s\n", name, strerror(c.err));
			status = EXIT_MALFORMED;
			break;
		}
		if (c.ev == PKV_EV_OVERRUN) {
			overrun = true;
			continue;
		}
		/* Of an over-long record only the head is kept: its header still counts. */
		bad = pkv_record_parse_flags(r, c.raw, c.len, o.parse_flags) != 0 || c.ev == PKV_EV_OVERLONG;
		if (c.ev == PKV_EV_OVERLONG)
			snprintf(r->why, sizeof(r->why), "record of %zu bytes is longer than %d",
				 c.total, PKV_RECORD_MAX);
		/* A malformed record whose header parsed still accounts for its seq. */
		if (r->have_seq) {
			uint64_t after = seq.last;
			enum pkv_seq_step step = pkv_seq_step(&seq, r->seq, &lost);

			if (step == PKV_SEQ_BACK)
				pkv_json_seq_back(&j, after, r->seq);
			/*
			 * An overrun before the first record, or across a new
			 * boot: how many is unknown, and so is the seq before.
			 */
			if (step == PKV_SEQ_GAP || overrun) {
				bool known = step != PKV_SEQ_FIRST && step != PKV_SEQ_BACK;
				struct pkv_gap g = {
					.reason = overrun ? "overrun" : "seq",
					.lost_known = known, .lost = lost,
					.have_after = known, .after_seq = after,
					.have_next = true, .next_seq = r->seq,
				};

				pkv_json_gap(&j, &g);
			}
			overrun = false;
		}
		if (bad) {
			pkv_json_malformed(&j, r->why, c.raw, c.len, c.total);
			status = EXIT_MALFORMED;
			if (o.follow)
				fflush(stdout);
			continue;
		}
		if (filter_pass(&o.filter, r) && pkv_json_record(&j, r)) {
			fprintf(stderr, "kmsg2json: write failed: %s\n", strerror(errno));
			return EXIT_MALFORMED;
		}
		if (o.follow)
			fflush(stdout);
	}
	if (overrun) {
		/* At the end: no record came after it. */
		struct pkv_gap g = { .reason = "overrun", .have_after = seq.have_last,
				     .after_seq = seq.last };

		pkv_json_gap(&j, &g);
	}
	if (fflush(stdout)) {
		fprintf(stderr, "kmsg2json: write failed: %s\n", strerror(errno));
		status = EXIT_MALFORMED;
	}
	for (size_t i = 0; i < o.filter.nmatch; i++)
		free((char *)o.filter.match[i].key);
	pkv_input_free(in);
	free(r);
	if (fd != STDIN_FILENO)
		close(fd);
	return status;
}
