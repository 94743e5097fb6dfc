// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Sequence numbers: records lost between two reads, a new boot, and where
 * a reader resumes (a cursor: the boot id and the last seq it read).
 *
 * The kernel numbers its records from 0 at boot, one by one. A reader sees a
 * gap when the ring buffer overwrote records before it read them (read()
 * says EPIPE on /dev/kmsg, or the numbers jump), and a new boot when the
 * numbers go back or the boot id differs.
 */
#include "pkvkmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum pkv_seq_step pkv_seq_step(struct pkv_seqtrack *t, uint64_t seq, uint64_t *lost)
{
	uint64_t last = t->last;
	bool had = t->have_last;

	*lost = 0;
	t->last = seq;
	t->have_last = true;
	if (!had)
		return PKV_SEQ_FIRST;
	if (seq == last)
		return PKV_SEQ_SAME;
	if (seq < last)
		return PKV_SEQ_BACK;
	if (seq - last == 1)
		return PKV_SEQ_NEXT;
	*lost = seq - last - 1;
	return PKV_SEQ_GAP;
}

void pkv_seq_resume(struct pkv_seqtrack *t, uint64_t after_seq, bool same_boot)
{
	t->have_last = true;
	t->last = after_seq;
	t->resume = same_boot ? PKV_RESUME_SKIP : PKV_RESUME_NEW_BOOT;
}

void pkv_seq_overrun(struct pkv_seqtrack *t)
{
	t->overrun = true;
}

enum pkv_seq_step pkv_seq_record(struct pkv_seqtrack *t, uint64_t seq,
				 struct pkv_seq_event *ev)
{
	uint64_t after = t->last, lost;
	bool known;

	memset(ev, 0, sizeof(*ev));
	/* Up to the resume point: read before. An overrun there cost nothing. */
	if (t->resume == PKV_RESUME_SKIP && seq <= t->last) {
		t->overrun = false;
		ev->step = PKV_SEQ_OLD;
		return ev->step;
	}
	ev->step = pkv_seq_step(t, seq, &lost);
	if (t->resume == PKV_RESUME_NEW_BOOT || ev->step == PKV_SEQ_BACK) {
		ev->step = PKV_SEQ_BACK;
		ev->new_boot = true;
		ev->boot_after = after;
	}
	t->resume = PKV_RESUME_NONE;
	/*
	 * An overrun before the first record, or across a new boot: how many
	 * were lost is unknown, and so is the seq before.
	 */
	if (ev->step == PKV_SEQ_GAP || t->overrun) {
		known = ev->step != PKV_SEQ_FIRST && ev->step != PKV_SEQ_BACK;
		ev->gap = true;
		ev->g.reason = t->overrun ? "overrun" : "seq";
		ev->g.lost_known = known;
		ev->g.lost = lost;
		ev->g.have_after = known;
		ev->g.after_seq = after;
		ev->g.have_next = true;
		ev->g.next_seq = seq;
	}
	t->overrun = false;
	return ev->step;
}

bool pkv_seq_end(struct pkv_seqtrack *t, struct pkv_gap *g)
{
	if (!t->overrun)
		return false;
	/* No record came after it: neither the count nor the next seq is known. */
	memset(g, 0, sizeof(*g));
	g->reason = "overrun";
	g->have_after = t->have_last && t->resume != PKV_RESUME_NEW_BOOT;
	g->after_seq = t->last;
	t->overrun = false;
	return true;
}

/* Cursors ------------------------------------------------------------- */

static int parse_boot(const char *p, size_t n, char boot[PKV_BOOT_ID_LEN + 1])
{
	size_t i, k = 0;

	/* 32 hex digits, with or without the dashes of /proc's boot_id. */
	for (i = 0; i < n; i++) {
		char c = p[i];

		if (c == '-' && (k == 8 || k == 12 || k == 16 || k == 20))
			continue;
		if (c >= 'A' && c <= 'F')
			c = (char)(c - 'A' + 'a');
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) || k == PKV_BOOT_ID_LEN)
			return -EINVAL;
		boot[k++] = c;
	}
	if (k != PKV_BOOT_ID_LEN)
		return -EINVAL;
	boot[k] = '\0';
	return 0;
}

int pkv_cursor_parse(struct pkv_cursor *c, const char *s, size_t n)
{
	bool have_seq = false;
	size_t i = 0;

	memset(c, 0, sizeof(*c));
	/* A cursor file ends with a newline. */
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	while (i < n) {
		const char *f = s + i, *semi = memchr(f, ';', n - i);
		size_t len = semi ? (size_t)(semi - f) : n - i;

		if (len > 2 && f[0] == 'b' && f[1] == '=' && !c->have_boot) {
			if (parse_boot(f + 2, len - 2, c->boot))
				return -EINVAL;
			c->have_boot = true;
		} else if (len > 2 && f[0] == 's' && f[1] == '=' && !have_seq) {
			uint64_t v = 0;
			size_t k;

			if (len - 2 > 20)
				return -EINVAL;
			for (k = 2; k < len; k++) {
				unsigned int d = (unsigned char)f[k] - '0';

				if (d > 9 || v > (UINT64_MAX - d) / 10)
					return -EINVAL;
				v = v * 10 + d;
			}
			c->seq = v;
			have_seq = true;
		} else {
			return -EINVAL;
		}
		i += len + (semi != NULL);
		if (semi && i == n)
			return -EINVAL;		/* a trailing ';' */
	}
	return have_seq ? 0 : -EINVAL;
}

int pkv_cursor_format(const struct pkv_cursor *c, char *buf, size_t n)
{
	int len;

	if (c->have_boot)
		len = snprintf(buf, n, "b=%s;s=%" PRIu64, c->boot, c->seq);
	else
		len = snprintf(buf, n, "s=%" PRIu64, c->seq);
	return len < 0 || (size_t)len >= n ? -ENOSPC : len;
}

int pkv_boot_id(char boot[PKV_BOOT_ID_LEN + 1])
{
	char buf[64];
	ssize_t n;
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	while (n && buf[n - 1] == '\n')
		n--;
	return parse_boot(buf, (size_t)n, boot) ? -EBADMSG : 0;
}
