// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Raw records from /dev/kmsg or from a saved stream.
 *
 * /dev/kmsg returns one record per read() and EPIPE when the records the
 * reader was about to get were overwritten (the next read() goes on with the
 * oldest one left). A stream is the same records one after another: a
 * record ends at a newline that is not followed by a space, since dictionary
 * lines start with one.
 */
#include "pkvkmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The stream buffer: this, or two records if that is more. The fuzzer
 * builds with 0 (tests/fuzz/run.sh) and small records: its inputs are
 * small, so the refill and over-long paths are reached, and a run does
 * not allocate a megabyte.
 */
#ifndef PKV_STREAM_BUF
#define PKV_STREAM_BUF	(1u << 20)
#endif

struct pkv_input {
	int fd;
	bool device, follow, eof, failed;
	bool regular;		/* a regular file: the next byte is a read() away */
	bool nonblock;		/* O_NONBLOCK: read() says EAGAIN, no poll() first */
	size_t record_max;
	char *buf;
	size_t cap, start, fill, scan;
	/* An over-long record being skipped: its head and its length so far. */
	bool skipping;
	size_t skipped;
	char *head;		/* record_max bytes */
};

int pkv_input_new(struct pkv_input **inp, int fd, unsigned int flags, size_t record_max)
{
	struct pkv_input *in;
	struct stat st;
	int fl;

	*inp = NULL;
	if (!record_max)
		record_max = PKV_RECORD_MAX;
	/*
	 * The kernel moves a reader past a record its read() buffer cannot
	 * hold (EINVAL): from the device, take the longest it writes.
	 */
	if (fd < 0 || (flags & ~(PKV_INPUT_DEVICE | PKV_INPUT_FOLLOW)) || record_max < 64 ||
	    record_max > SIZE_MAX / 4 || (flags & PKV_INPUT_DEVICE && record_max < PKV_RECORD_MAX))
		return -EINVAL;
	in = calloc(1, sizeof(*in));
	if (!in)
		return -ENOMEM;
	in->fd = fd;
	in->regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	fl = fcntl(fd, F_GETFL);
	in->nonblock = fl >= 0 && (fl & O_NONBLOCK);
	in->device = flags & PKV_INPUT_DEVICE;
	in->follow = flags & PKV_INPUT_FOLLOW;
	in->record_max = record_max;
	in->cap = in->device ? record_max :
		  PKV_STREAM_BUF > 2 * record_max ? PKV_STREAM_BUF : 2 * record_max;
	in->buf = malloc(in->cap);
	in->head = in->device ? NULL : malloc(record_max);
	if (!in->buf || (!in->device && !in->head)) {
		pkv_input_free(in);
		return -ENOMEM;
	}
	*inp = in;
	return 0;
}

void pkv_input_free(struct pkv_input *in)
{
	if (!in)
		return;
	free(in->buf);
	free(in->head);
	free(in);
}

/* Is a byte or a record ready on @fd now? 1, 0, or -errno. */
static int ready_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n;

	do
		n = poll(&p, 1, 0);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

/*
 * /dev/kmsg. The library never blocks: on a blocking descriptor (an
 * inherited one's flags are the caller's) poll() is asked before each
 * read(); a non-blocking one is read at once, one system call per record
 * as any reader pays, and says EAGAIN at the end. Nothing ready is the end
 * without follow, PKV_EV_WAIT with it. POLLERR/POLLPRI is an overrun: the
 * read() says EPIPE.
 */
static void device_next(struct pkv_input *in, struct pkv_chunk *c)
{
	for (;;) {
		int ready = in->nonblock ? 1 : ready_now(in->fd);
		ssize_t n;

		if (ready < 0) {
			c->ev = PKV_EV_ERROR;
			c->err = -ready;
			return;
		}
		if (!ready) {
			c->ev = in->follow ? PKV_EV_WAIT : PKV_EV_END;
			return;
		}
		n = read(in->fd, in->buf, in->cap);
		if (n > 0) {
			c->ev = PKV_EV_RECORD;
			c->raw = in->buf;
			c->len = c->total = (size_t)n;
			return;
		}
		if (n == 0) {
			c->ev = PKV_EV_END;
			return;
		}
		if (errno == EINTR)
			continue;
		if (errno == EPIPE) {
			c->ev = PKV_EV_OVERRUN;
			return;
		}
		if (errno == EAGAIN) {
			c->ev = in->follow ? PKV_EV_WAIT : PKV_EV_END;
			return;
		}
		c->ev = PKV_EV_ERROR;
		c->err = errno;
		return;
	}
}

/* Read more of the stream; false at end of input or on error (c filled). */
static bool refill(struct pkv_input *in, struct pkv_chunk *c)
{
	ssize_t n;

	if (in->start) {
		memmove(in->buf, in->buf + in->start, in->fill - in->start);
		in->fill -= in->start;
		in->scan -= in->start;
		in->start = 0;
	}
	if (in->fill == in->cap) {
		/*
		 * Longer than the buffer: keep its head, drop the rest as it
		 * comes. What is not scanned yet stays: a newline at the very
		 * end may be the record's last byte, then the next one starts.
		 */
		if (!in->skipping) {
			memcpy(in->head, in->buf, in->record_max);
			in->skipping = true;
			in->skipped = 0;
		}
		in->skipped += in->scan;
		memmove(in->buf, in->buf + in->scan, in->fill - in->scan);
		in->fill -= in->scan;
		in->scan = 0;
	}
	do
		n = read(in->fd, in->buf + in->fill, in->cap - in->fill);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		c->ev = PKV_EV_ERROR;
		c->err = errno;
		in->failed = true;
		return false;
	}
	if (n == 0)
		in->eof = true;
	in->fill += (size_t)n;
	return true;
}

static void stream_next(struct pkv_input *in, struct pkv_chunk *c)
{
	for (;;) {
		size_t end = 0;
		bool found = false;

		while (in->scan < in->fill) {
			char *nl = memchr(in->buf + in->scan, '\n', in->fill - in->scan);

			if (!nl) {
				in->scan = in->fill;
				break;
			}
			end = (size_t)(nl - in->buf) + 1;
			if (end < in->fill) {
				if (in->buf[end] != ' ') {
					found = true;
					break;
				}
				in->scan = end;
				continue;
			}
			/*
			 * A newline at the end of what was read: decided by the
			 * next byte, a space for a dictionary line. From a pipe
			 * or a terminal, a record waits for no byte that is not
			 * there yet: a writer writes a record with its
			 * dictionary in one write(), as read() of /dev/kmsg
			 * returns them.
			 */
			if (in->eof || (!in->regular && ready_now(in->fd) == 0))
				found = true;
			else
				in->scan = (size_t)(nl - in->buf);
			break;
		}
		/* At the end, what is left is a record; an over-long one may end
		 * exactly where a full buffer was dropped, with nothing left. */
		if (!found && in->eof && (in->fill > in->start || in->skipping)) {
			end = in->fill;
			found = true;
		}
		if (found) {
			const char *p = in->buf + in->start;
			size_t len = end - in->start;

			in->start = in->scan = end;
			if (in->skipping) {
				in->skipping = false;
				c->ev = PKV_EV_OVERLONG;
				c->raw = in->head;
				c->len = in->record_max;
				c->total = in->skipped + len;
				return;
			}
			/* An empty line is no record. */
			if ((len == 1 && p[0] == '\n') || (len == 2 && p[0] == '\r' && p[1] == '\n'))
				continue;
			if (len > in->record_max) {
				c->ev = PKV_EV_OVERLONG;
				c->raw = p;
				c->len = in->record_max;
				c->total = len;
				return;
			}
			c->ev = PKV_EV_RECORD;
			c->raw = p;
			c->len = c->total = len;
			return;
		}
		if (in->eof || in->failed) {
			c->ev = PKV_EV_END;
			return;
		}
		/* A pipe or a terminal with nothing to read yet: never block. */
		if (!in->regular && ready_now(in->fd) == 0) {
			c->ev = PKV_EV_WAIT;
			return;
		}
		if (!refill(in, c))
			return;
	}
}

void pkv_input_next(struct pkv_input *in, struct pkv_chunk *c)
{
	memset(c, 0, sizeof(*c));
	if (in->device)
		device_next(in, c);
	else
		stream_next(in, c);
}
