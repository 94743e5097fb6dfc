// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pkv-kmsgraw - read /dev/kmsg to the end, one read() per record, and count
 * the records: the floor any /dev/kmsg reader pays, for ./pkv bench.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char buf[8192];
	unsigned long n = 0, lost = 0;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd < 0) {
		perror("pkv-kmsgraw: /dev/kmsg");
		return 1;
	}
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r > 0)
			n++;
		else if (r < 0 && errno == EPIPE)
			lost++;
		else if (r < 0 && errno == EINTR)
			continue;
		else
			break;
	}
	printf("%lu records, %lu overruns\n", n, lost);
	return 0;
}
