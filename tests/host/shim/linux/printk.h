/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim of the kernel interfaces printk_kv.h uses, so the header can be
 * compiled and its exact output checked without a kernel. The macros mirror
 * include/linux/printk.h, dynamic_debug.h and compiler_types.h of 6.1; the
 * printk() behind them models vprintk_store(): the record text is the
 * formatted output cut to LOG_LINE_MAX - 1 bytes, less the level prefix and
 * one trailing newline.
 */
#ifndef PKV_SHIM_PRINTK_H
#define PKV_SHIM_PRINTK_H

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

typedef unsigned char u8;
typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;
typedef long long s64;

#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define __maybe_unused		__attribute__((unused))
#define noinline		__attribute__((noinline))
/* glibc's <sys/cdefs.h> has it too; a -ffreestanding build has no glibc. */
#ifndef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#endif
#define __noreturn		__attribute__((noreturn))
#define __compiletime_error(m)	__attribute__((error(m)))
#define ___PASTE(a, b)		a##b
#define __PASTE(a, b)		___PASTE(a, b)
#define __compiletime_assert(condition, msg, prefix, suffix)		\
	do {								\
		__noreturn extern void prefix ## suffix(void)		\
			__compiletime_error(msg);			\
		if (!(condition))					\
			prefix ## suffix();				\
	} while (0)
#define _compiletime_assert(condition, msg, prefix, suffix)		\
	__compiletime_assert(condition, msg, prefix, suffix)
#define compiletime_assert(condition, msg)				\
	_compiletime_assert(condition, msg, __compiletime_assert_, __COUNTER__)

/*
 * include/linux/kconfig.h's IS_ENABLED(), for the one option the header
 * asks about. PKV_SHIM_NO_PRINTK models CONFIG_PRINTK=n: printk() then
 * must not be reached at all.
 */
#define IS_ENABLED(option)	__SHIM_ENABLED_##option
#ifdef PKV_SHIM_NO_PRINTK
#define __SHIM_ENABLED_CONFIG_PRINTK	0
#else
#define CONFIG_PRINTK			1
#define __SHIM_ENABLED_CONFIG_PRINTK	1
#endif

#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)

#define MAX_ERRNO	4095
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }

#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_CONT	KERN_SOH "c"
#define LOGLEVEL_EMERG		0
#define LOGLEVEL_ALERT		1
#define LOGLEVEL_CRIT		2
#define LOGLEVEL_ERR		3
#define LOGLEVEL_WARNING	4
#define LOGLEVEL_NOTICE		5
#define LOGLEVEL_INFO		6
#define LOGLEVEL_DEBUG		7

/* The guest kernel has CONFIG_PRINTK_CALLER=y: PREFIX_MAX 48. */
#define LOG_LINE_MAX	(1024 - 48)

/* include/linux/printk.h: what %pV prints. */
struct va_format {
	const char *fmt;
	va_list *va;
};

/* One captured record. */
struct shim_record {
	int level;
	char text[LOG_LINE_MAX];
	size_t len;
	char subsystem[16];
	char device[48];
};

/* The records captured since shim_reset(), oldest first. */
extern struct shim_record shim_log[256];
extern int shim_nlog;
extern bool shim_dyndbg_on;
void shim_reset(void);

__printf(1, 2) int _printk(const char *fmt, ...);
__printf(3, 4) int shim_snprintf(char *buf, size_t size, const char *fmt, ...);
int shim_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
#define snprintf shim_snprintf

#define __printk_index_emit(fmt, level, prefix)	do { } while (0)
#define printk_index_subsys_emit(subsys_fmt_prefix, level, fmt, ...)	\
	__printk_index_emit(fmt, level, subsys_fmt_prefix)
#define printk(fmt, ...)	_printk(fmt, ##__VA_ARGS__)

#define no_printk(fmt, ...)				\
({							\
	if (0)						\
		_printk(fmt, ##__VA_ARGS__);		\
	0;						\
})

#define printk_once(fmt, ...)						\
({									\
	static bool __already_done;					\
	if (!__already_done) {						\
		__already_done = true;					\
		printk(fmt, ##__VA_ARGS__);				\
	}								\
})

/* DEFAULT_RATELIMIT_BURST records per call site; the interval never ends. */
#define printk_ratelimited(fmt, ...)					\
({									\
	static int __shim_rs;						\
	if (__shim_rs < 10) {						\
		__shim_rs++;						\
		printk(fmt, ##__VA_ARGS__);				\
	}								\
})

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info_once(fmt, ...)	printk_once(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err_ratelimited(fmt, ...)					\
	printk_ratelimited(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)

/* dynamic_debug.h: one switch for every call site. */
#define _dynamic_func_call_no_desc(fmt, func, ...)			\
do {									\
	static const char *__shim_ddebug_fmt __maybe_unused = fmt;	\
	if (shim_dyndbg_on)						\
		func(__VA_ARGS__);					\
} while (0)

#if defined(CONFIG_DYNAMIC_DEBUG)
#define pr_debug(fmt, ...)						\
	_dynamic_func_call_no_desc(fmt, printk, KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#elif defined(DEBUG)
#define pr_debug(fmt, ...)	printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#else
#define pr_debug(fmt, ...)	no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#endif

/* device.h and netdevice.h, as much as dev_printk_emit() needs. */
struct device {
	const char *name;
	const char *driver;
	const char *subsystem;
	const char *devid;
	struct device *parent;
};

struct net_device {
	char name[16];
	int ifindex;
	int registered;
	struct device dev;
};

static inline const char *dev_name(const struct device *dev) { return dev->name; }
static inline const char *dev_driver_string(const struct device *dev)
{
	return dev->driver ? dev->driver : dev->subsystem;
}
static inline const char *netdev_name(const struct net_device *dev) { return dev->name; }
static inline const char *netdev_reg_state(const struct net_device *dev)
{
	return dev->registered ? "" : " (unregistered)";
}
__printf(3, 4) int dev_printk_emit(int level, const struct device *dev, const char *fmt, ...);

#endif
