// SPDX-License-Identifier: LGPL-2.1-or-later
#define _GNU_SOURCE	/* strptime */
/*
 * Times of kmsg2json's --since and --until, as journalctl(1) takes them,
 * and the boot's wall-clock time that maps them onto the records' clock.
 */
#include "when.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define USEC_PER_SEC	1000000ll

static int64_t timespec_usec(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * USEC_PER_SEC + ts->tv_nsec / 1000;
}

int when_boot_realtime(int64_t *usec)
{
	struct timespec rt, bt;

	/* As dmesg -T: the records' clock stops in suspend, this one does not. */
	if (clock_gettime(CLOCK_REALTIME, &rt) || clock_gettime(CLOCK_BOOTTIME, &bt))
		return -errno;
	*usec = timespec_usec(&rt) - timespec_usec(&bt);
	return 0;
}

/* "5min", "2h", "1.5s" ...: usec, or -1. */
static int64_t span_usec(const char *s)
{
	static const struct {
		const char *unit;
		int64_t usec;
	} units[] = {
		{ "us", 1 }, { "usec", 1 }, { "ms", 1000 }, { "msec", 1000 },
		{ "s", USEC_PER_SEC }, { "sec", USEC_PER_SEC }, { "second", USEC_PER_SEC },
		{ "seconds", USEC_PER_SEC }, { "m", 60 * USEC_PER_SEC }, { "min", 60 * USEC_PER_SEC },
		{ "minute", 60 * USEC_PER_SEC }, { "minutes", 60 * USEC_PER_SEC },
		{ "h", 3600 * USEC_PER_SEC }, { "hour", 3600 * USEC_PER_SEC },
		{ "hours", 3600 * USEC_PER_SEC }, { "d", 86400 * USEC_PER_SEC },
		{ "day", 86400 * USEC_PER_SEC }, { "days", 86400 * USEC_PER_SEC },
		{ "w", 604800 * USEC_PER_SEC }, { "week", 604800 * USEC_PER_SEC },
		{ "weeks", 604800 * USEC_PER_SEC },
	};
	char *end;
	double v;
	size_t i;

	/* Digits and a point only: strtod() would take "nan", "inf" and hex. */
	if (!(s[0] >= '0' && s[0] <= '9') || s[strspn(s, "0123456789.")] == 'x')
		return -1;
	v = strtod(s, &end);
	if (end == s || !(v >= 0 && v <= 1e6))
		return -1;
	while (*end == ' ')
		end++;
	/* At most a million of the unit: 19 years of weeks, well inside int64. */
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit))
			return (int64_t)(v * (double)units[i].usec);
	return -1;
}

int when_parse(const char *s, int64_t now, int64_t *usec)
{
	struct tm tm = { 0 };
	time_t t = (time_t)(now / USEC_PER_SEC);
	const char *rest;
	int64_t d;

	if (!strcasecmp(s, "now")) {
		*usec = now;
		return 0;
	}
	if (s[0] == '-' || s[0] == '+') {
		d = span_usec(s + 1);
		if (d < 0)
			return -EINVAL;
		*usec = s[0] == '-' ? now - d : now + d;
		return 0;
	}
	if (s[0] == '@') {
		char *end;
		long long e;

		errno = 0;
		e = strtoll(s + 1, &end, 10);
		/* Up to the year 2554: usec since the epoch stay inside int64. */
		if (errno || end == s + 1 || *end || e < 0 || e > (INT64_MAX / USEC_PER_SEC) / 16)
			return -EINVAL;
		*usec = e * USEC_PER_SEC;
		return 0;
	}
	localtime_r(&t, &tm);
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	if (!strcasecmp(s, "today") || !strcasecmp(s, "yesterday") ||
	    !strcasecmp(s, "tomorrow")) {
		tm.tm_mday += !strcasecmp(s, "yesterday") ? -1 : !strcasecmp(s, "tomorrow") ? 1 : 0;
	} else {
		struct tm day = tm;

		/* "YYYY-MM-DD[ HH:MM[:SS]]" or "HH:MM[:SS]" today. */
		rest = strptime(s, "%Y-%m-%d", &day);
		if (rest) {
			tm = day;
			while (*rest == ' ' || *rest == 'T')
				rest++;
		} else {
			rest = s;
		}
		if (*rest) {
			const char *e = strptime(rest, "%H:%M:%S", &tm);

			if (!e) {
				tm.tm_sec = 0;
				e = strptime(rest, "%H:%M", &tm);
			}
			if (!e || *e)
				return -EINVAL;
		}
	}
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t == (time_t)-1)
		return -EINVAL;
	*usec = (int64_t)t * USEC_PER_SEC;
	return 0;
}
