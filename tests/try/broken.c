// SPDX-License-Identifier: GPL-2.0
/* ./pkv try must report the compiler's error with this file's own path. */
#include <linux/module.h>
#include <linux/printk_kv.h>

static int __init broken_init(void)
{
	pr_info_kv("never built", KV_S32(count, undeclared_count));
	return 0;
}

module_init(broken_init);
MODULE_LICENSE("GPL");
