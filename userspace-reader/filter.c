// SPDX-License-Identifier: LGPL-2.1-or-later
/* Record filters; level and facility names as syslog(3) and dmesg(1) use them. */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static const char *const level_names[] = {
	"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
};

/* The other spellings of syslog(3), journalctl -p and the kernel (KERN_*). */
static const struct {
	const char *name;
	int level;
} level_aliases[] = {
	{ "panic", 0 }, { "emergency", 0 }, { "critical", 2 }, { "error", 3 },
	{ "warning", 4 },
};

static const char *const facility_names[] = {
	"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news",
	"uucp", "cron", "authpriv", "ftp", "ntp", "security", "console", "solaris-cron",
	"local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7",
};

/* A name of @names (@nnames of them, any case) or a number below @max; -1 if neither. */
static int lookup(const char *s, size_t len, const char *const *names, int nnames, int max)
{
	char *end;
	long v;
	int i;

	for (i = 0; i < nnames; i++)
		if (strlen(names[i]) == len && !strncasecmp(s, names[i], len))
			return i;
	if (!len || len > 4)
		return -1;
	v = strtol(s, &end, 10);
	if (end != s + len || v < 0 || v >= max)
		return -1;
	return (int)v;
}

/* A level: its name, another spelling of it, or 0-7; -1 if none. */
static int lookup_level(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(level_aliases) / sizeof(level_aliases[0]); i++)
		if (strlen(level_aliases[i].name) == len && !strncasecmp(s, level_aliases[i].name, len))
			return level_aliases[i].level;
	return lookup(s, len, level_names, 8, 8);
}

int filter_add_levels(struct filter *f, const char *list, char *why, size_t n)
{
	const char *p = list;

	while (*p) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		bool up = false, down = false;
		const char *s = p;
		int lvl, i;

		if (len && s[0] == '+') {
			down = true;
			s++;
			len--;
		} else if (len && s[len - 1] == '+') {
			up = true;
			len--;
		}
		lvl = lookup_level(s, len);
		if (lvl < 0) {
			snprintf(why, n, "unknown level '%.*s' (emerg alert crit err warn notice info debug, 0-7, name+ or +name)",
				 (int)len, s);
			return -1;
		}
		for (i = 0; i < 8; i++)
			if (i == lvl || (up && i < lvl) || (down && i > lvl))
				f->levels |= 1u << i;
		p = e ? e + 1 : p + len + (up || down);
	}
	return 0;
}

int filter_add_priority(struct filter *f, const char *spec, char *why, size_t n)
{
	const char *dots = strstr(spec, "..");
	int from, to, i;

	/* journalctl -p: LEVEL and every more severe one, or FROM..TO. */
	if (dots) {
		from = lookup_level(spec, (size_t)(dots - spec));
		to = lookup_level(dots + 2, strlen(dots + 2));
	} else {
		from = 0;
		to = lookup_level(spec, strlen(spec));
	}
	if (from < 0 || to < 0) {
		snprintf(why, n, "unknown priority '%s' (a level, emerg to debug or 0-7, or FROM..TO)", spec);
		return -1;
	}
	if (from > to) {
		i = from;
		from = to;
		to = i;
	}
	for (i = from; i <= to; i++)
		f->levels |= 1u << i;
	return 0;
}

int filter_add_facilities(struct filter *f, const char *list, char *why, size_t n)
{
	const char *p = list;

	while (*p) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		/* syslog's 24 names; the kernel's facility is a u8. */
		int fac = lookup(p, len, facility_names, 24, 256);

		if (fac < 0) {
			snprintf(why, n, "unknown facility '%.*s'", (int)len, p);
			return -1;
		}
		f->facilities[fac / 64] |= 1ull << (fac % 64);
		f->any_facility = true;
		p = e ? e + 1 : p + len;
	}
	return 0;
}

void filter_kernel_only(struct filter *f, bool kernel)
{
	/* -k: facility kern (0); -u: every other one, up to 255. */
	f->any_facility = true;
	f->facilities[0] |= kernel ? 1 : ~1ull;
	if (!kernel)
		f->facilities[1] = f->facilities[2] = f->facilities[3] = ~0ull;
}

int filter_set_grep(struct filter *f, const char *pattern, char *why, size_t n)
{
	int flags = REG_EXTENDED | REG_NOSUB, err;
	const char *c;

	/* journalctl's rule: a pattern without capitals ignores case. */
	for (c = pattern; *c && !(*c >= 'A' && *c <= 'Z'); c++)
		;
	if (!*c)
		flags |= REG_ICASE;
	if (f->have_grep) {
		snprintf(why, n, "--grep given twice");
		return -1;
	}
	err = regcomp(&f->grep, pattern, flags);
	if (err) {
		char msg[96];

		regerror(err, &f->grep, msg, sizeof(msg));
		snprintf(why, n, "--grep '%.40s': %s", pattern, msg);
		return -1;
	}
	f->have_grep = true;
	return 0;
}

void filter_free(struct filter *f)
{
	for (size_t i = 0; i < f->nmatch; i++)
		free((char *)f->match[i].key);
	if (f->have_grep)
		regfree(&f->grep);
}

int filter_add_match(struct filter *f, const char *kv, char *why, size_t n)
{
	const char *eq = strchr(kv, '=');

	if (!eq || eq == kv) {
		snprintf(why, n, "--match '%s' is not KEY=VALUE", kv);
		return -1;
	}
	if (f->nmatch == FILTER_MAX_MATCH) {
		snprintf(why, n, "more than %d --match options", FILTER_MAX_MATCH);
		return -1;
	}
	f->match[f->nmatch].key = strndup(kv, (size_t)(eq - kv));
	if (!f->match[f->nmatch].key) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	f->match[f->nmatch].value = eq + 1;
	f->match[f->nmatch].value_len = strlen(eq + 1);
	f->nmatch++;
	return 0;
}

static bool span_eq(struct pkv_span s, const char *v, size_t n)
{
	return s.n == n && !memcmp(s.p, v, n);
}

/* prefix=l2tp matches "l2tp: " as well as itself. */
static bool prefix_eq(struct pkv_span s, const char *v, size_t n)
{
	while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == ':'))
		s.n--;
	return span_eq(s, v, n);
}

bool filter_empty(const struct filter *f)
{
	return !f->levels && !f->any_facility && !f->structured_only && !f->nmatch &&
	       !f->have_since && !f->have_until && !f->have_grep;
}

bool filter_pass(const struct filter *f, const struct pkv_record *r)
{
	size_t i;

	if (f->levels && !(f->levels & (1u << r->level)))
		return false;
	if (f->any_facility && (r->facility > 255 ||
				!(f->facilities[r->facility / 64] & (1ull << (r->facility % 64)))))
		return false;
	if (f->structured_only && !r->structured)
		return false;
	if (f->have_since && (int64_t)r->ts_usec < f->since_usec)
		return false;
	if (f->have_until && (int64_t)r->ts_usec > f->until_usec)
		return false;
	for (i = 0; i < f->nmatch; i++) {
		const char *k = f->match[i].key, *v = f->match[i].value;
		size_t vn = f->match[i].value_len;
		const struct pkv_field *fl;
		const struct pkv_dict_entry *d;

		if (!strcmp(k, "prefix")) {
			if (!r->structured || !prefix_eq(r->prefix, v, vn))
				return false;
			continue;
		}
		fl = pkv_field_get(r, k);
		if (fl && span_eq(fl->value, v, vn))
			continue;
		d = pkv_dict_get(r, k);
		if (d && span_eq(d->value, v, vn))
			continue;
		return false;
	}
	if (f->have_grep) {
		/* regexec() reads a C string: the message up to a NUL byte in it. */
		char buf[1024], *m = r->msg.n < sizeof(buf) ? buf : malloc(r->msg.n + 1);
		bool hit;

		if (!m)
			return true;
		memcpy(m, r->msg.p, r->msg.n);
		m[r->msg.n] = '\0';
		hit = regexec(&f->grep, m, 0, NULL, 0) == 0;
		if (m != buf)
			free(m);
		if (!hit)
			return false;
	}
	return true;
}
