// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/printk_kv.h>

static int port = 1701;
module_param(port, int, 0444);

static int __init hello_init(void)
{
	pr_info_kv("listening", KV_S32(port, port), KV_STR(proto, "udp"));
	return 0;
}

static void __exit hello_exit(void)
{
	pr_info("bye\n");
}

module_init(hello_init);
module_exit(hello_exit);
MODULE_LICENSE("GPL");
