// SPDX-License-Identifier: GPL-2.0
/*
 * Host model of printk() for the header tests: a vsnprintf() with the
 * kernel's %pe, and records cut and stripped as vprintk_store() does.
 */
#define _GNU_SOURCE
#include <linux/printk.h>
#undef snprintf
#include <stdio.h>
#include <string.h>

struct shim_record shim_log[256];
int shim_nlog;
bool shim_dyndbg_on;

void shim_reset(void)
{
	shim_nlog = 0;
	shim_dyndbg_on = false;
}

/* Kernel-internal errnos (include/linux/errno.h) that libc does not name. */
static const char *kernel_errname(int err)
{
	static const char *const names[] = {
		[512 - 512] = "ERESTARTSYS", [513 - 512] = "ERESTARTNOINTR",
		[514 - 512] = "ERESTARTNOHAND", [515 - 512] = "ENOIOCTLCMD",
		[516 - 512] = "ERESTART_RESTARTBLOCK", [517 - 512] = "EPROBE_DEFER",
		[518 - 512] = "EOPENSTALE", [519 - 512] = "ENOPARAM",
		[521 - 512] = "EBADHANDLE", [522 - 512] = "ENOTSYNC",
		[523 - 512] = "EBADCOOKIE", [524 - 512] = "ENOTSUPP",
		[525 - 512] = "ETOOSMALL", [526 - 512] = "ESERVERFAULT",
		[527 - 512] = "EBADTYPE", [528 - 512] = "EJUKEBOX",
		[529 - 512] = "EIOCBQUEUED", [530 - 512] = "ERECALLCONFLICT",
	};

	if (err >= 512 && err < 512 + (int)(sizeof(names) / sizeof(names[0])))
		return names[err - 512];
	if (err == 35)	/* the kernel's table lists EDEADLK, not EDEADLOCK */
		return "EDEADLK";
	return strerrorname_np(err);
}

int shim_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t n = 0;

	while (*fmt) {
		char spec[32];
		size_t sl = 0;
		int w;

		if (*fmt != '%') {
			if (n + 1 < size)
				buf[n] = *fmt;
			n++;
			fmt++;
			continue;
		}
		/* Copy one conversion: flags, width, precision, length, type. */
		spec[sl++] = *fmt++;
		while (*fmt && strchr("-+ #0", *fmt) && sl < 20)
			spec[sl++] = *fmt++;
		int star[2], nstar = 0;

		while (*fmt && (strchr("0123456789.*", *fmt)) && sl < 20) {
			if (*fmt == '*')
				star[nstar++] = va_arg(ap, int);
			spec[sl++] = *fmt++;
		}
		int lng = 0;

		while (*fmt && strchr("hlzt", *fmt) && sl < 24) {
			if (*fmt == 'l' || *fmt == 'z' || *fmt == 't')
				lng++;
			spec[sl++] = *fmt++;
		}
		char conv = *fmt ? *fmt++ : '\0';

		spec[sl++] = conv;
		spec[sl] = '\0';
		char tmp[LOG_LINE_MAX * 2];
		char *out = tmp;
		size_t room = sizeof(tmp);

		if (conv == 'p' && *fmt == 'e') {
			long err = PTR_ERR(va_arg(ap, void *));
			const char *name = kernel_errname((int)-err);

			fmt++;
			w = name ? snprintf(out, room, "-%s", name) :
				   snprintf(out, room, "%ld", err);
		} else if (conv == 'p' && *fmt == 'V') {
			const struct va_format *vaf = va_arg(ap, const struct va_format *);
			va_list va;

			fmt++;
			va_copy(va, *vaf->va);
			w = shim_vsnprintf(out, room, vaf->fmt, va);
			va_end(va);
		} else if (conv == '%') {
			w = snprintf(out, room, "%%");
		} else if (conv == 's' || conv == 'p') {
			void *arg = va_arg(ap, void *);

			w = nstar == 2 ? snprintf(out, room, spec, star[0], star[1], arg) :
			    nstar == 1 ? snprintf(out, room, spec, star[0], arg) :
					 snprintf(out, room, spec, arg);
		} else if (lng >= 2) {
			long long arg = va_arg(ap, long long);

			w = nstar ? snprintf(out, room, spec, star[0], arg) :
				    snprintf(out, room, spec, arg);
		} else if (lng == 1) {
			long arg = va_arg(ap, long);

			w = nstar ? snprintf(out, room, spec, star[0], arg) :
				    snprintf(out, room, spec, arg);
		} else {
			int arg = va_arg(ap, int);

			w = nstar ? snprintf(out, room, spec, star[0], arg) :
				    snprintf(out, room, spec, arg);
		}
		for (int i = 0; i < w && i < (int)room - 1; i++, n++)
			if (n + 1 < size)
				buf[n] = out[i];
	}
	if (size)
		buf[n < size ? n : size - 1] = '\0';
	return (int)n;
}

int shim_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = shim_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* vprintk_store(): reserve min(len + 1, LOG_LINE_MAX), then printk_sprint(). */
static struct shim_record *store(int level, const char *fmt, va_list ap)
{
	struct shim_record *r;
	char *t;
	size_t len;

	if (shim_nlog == (int)(sizeof(shim_log) / sizeof(shim_log[0])))
		return NULL;
	r = &shim_log[shim_nlog++];
	memset(r, 0, sizeof(*r));
	t = r->text;
	len = shim_vsnprintf(t, LOG_LINE_MAX, fmt, ap);
	if (len > LOG_LINE_MAX - 1)
		len = LOG_LINE_MAX - 1;
	if (len && t[len - 1] == '\n')
		len--;
	r->level = level;
	if (len >= 2 && t[0] == '\001' && t[1] >= '0' && t[1] <= '7') {
		r->level = t[1] - '0';
		memmove(t, t + 2, len - 2);
		len -= 2;
	}
	t[len] = '\0';
	r->len = len;
	return r;
}

int _printk(const char *fmt, ...)
{
	va_list ap;
	struct shim_record *r;

	va_start(ap, fmt);
	r = store(LOGLEVEL_INFO, fmt, ap);
	va_end(ap);
	return r ? (int)r->len : 0;
}

int dev_printk_emit(int level, const struct device *dev, const char *fmt, ...)
{
	va_list ap;
	struct shim_record *r;

	va_start(ap, fmt);
	r = store(level, fmt, ap);
	va_end(ap);
	if (!r)
		return 0;
	snprintf(r->subsystem, sizeof(r->subsystem), "%s", dev->subsystem);
	snprintf(r->device, sizeof(r->device), "%s", dev->devid);
	return (int)r->len;
}
