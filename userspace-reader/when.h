/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* kmsg2json's wall-clock times: --since, --until and -T. */
#ifndef PKV_WHEN_H
#define PKV_WHEN_H

#include <stdint.h>

/* The wall-clock time of the boot, in usec since the epoch: 0 or -errno. */
int when_boot_realtime(int64_t *usec);

/*
 * A time as journalctl takes it, to usec since the epoch: "YYYY-MM-DD
 * HH:MM:SS", "YYYY-MM-DD", "HH:MM[:SS]" (today), "now", "today",
 * "yesterday", "tomorrow", "@EPOCH", or "-5min"/"+1h" from @now.
 * 0 or -EINVAL.
 */
int when_parse(const char *s, int64_t now, int64_t *usec);

#endif
