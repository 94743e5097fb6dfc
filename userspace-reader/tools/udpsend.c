// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pkv-udpsend HOST PORT HEX [SRCPORT] - send one UDP datagram whose payload
 * is HEX (pairs of hex digits); for crafting bad packets in guest scenarios.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET }, src = { .sin_family = AF_INET };
	unsigned char buf[2048];
	size_t n = 0, len;
	int fd;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: pkv-udpsend HOST PORT HEX [SRCPORT]\n");
		return 2;
	}
	len = strlen(argv[3]);
	if (len % 2 || len / 2 > sizeof(buf) || inet_pton(AF_INET, argv[1], &dst.sin_addr) != 1) {
		fprintf(stderr, "pkv-udpsend: bad HOST or HEX\n");
		return 2;
	}
	for (; n < len / 2; n++) {
		unsigned int b;

		if (sscanf(argv[3] + 2 * n, "%2x", &b) != 1) {
			fprintf(stderr, "pkv-udpsend: bad hex at %zu\n", 2 * n);
			return 2;
		}
		buf[n] = (unsigned char)b;
	}
	dst.sin_port = htons((unsigned short)atoi(argv[2]));
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("pkv-udpsend: socket");
		return 1;
	}
	if (argc == 5) {
		src.sin_port = htons((unsigned short)atoi(argv[4]));
		if (bind(fd, (struct sockaddr *)&src, sizeof(src)) < 0) {
			perror("pkv-udpsend: bind");
			return 1;
		}
	}
	if (sendto(fd, buf, n, 0, (struct sockaddr *)&dst, sizeof(dst)) != (ssize_t)n) {
		perror("pkv-udpsend: sendto");
		return 1;
	}
	close(fd);
	return 0;
}
