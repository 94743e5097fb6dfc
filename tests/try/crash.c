// SPDX-License-Identifier: GPL-2.0
/*
 * ./pkv try must report a module that oopses (mode=oops, a NULL pointer
 * write in init) or panics (mode=panic) with the kernel's lines, and fail.
 */
#include <linux/module.h>
#include <linux/panic.h>
#include <linux/string.h>
#include <linux/printk_kv.h>

static char *mode = "oops";
module_param(mode, charp, 0444);

static int *target;

static int __init crash_init(void)
{
	pr_info_kv("about to crash", KV_STR(mode, mode));
	if (!strcmp(mode, "panic"))
		panic("crash: mode=panic");
	*READ_ONCE(target) = 1;
	return 0;
}

module_init(crash_init);
MODULE_LICENSE("GPL");
