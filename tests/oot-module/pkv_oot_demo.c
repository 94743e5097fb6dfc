// SPDX-License-Identifier: GPL-2.0
/*
 * pkv_oot_demo - printk_kv.h used out of tree, on an unpatched 6.1, with only
 * -I include-prototype. On load it prints one classic and one typed record;
 * the guest scenario oot-module.sh checks their fields.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/errno.h>
#include <linux/printk_kv.h>	/* after the other includes: it replaces pr_fmt */

static char *name = "oot";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "a string printed as a field, escaped");

static int __init pkv_oot_demo_init(void)
{
	pr_info("loaded, classic pr_info with %d static field\n", 1);
	pr_notice_kv("typed record", KV_STR(name, name), KV_U32(answer, 42),
		     KV_S64(neg, -9000000000LL), KV_BOOL(oot, true),
		     KV_ERR(err, -ENODEV));
	return 0;
}

static void __exit pkv_oot_demo_exit(void)
{
}

module_init(pkv_oot_demo_init);
module_exit(pkv_oot_demo_exit);
MODULE_DESCRIPTION("printk_kv.h out-of-tree demo");
MODULE_LICENSE("GPL");
