// SPDX-License-Identifier: GPL-2.0
/*
 * The other include order: <linux/printk.h> first (it defines the default
 * pr_fmt), printk_kv.h last, with a custom prefix and static fields, as a
 * converted ext4 file would have them.
 */
#include <linux/printk.h>
#include <stdio.h>

#define KBUILD_MODNAME "kvtest"
#define PKV_PREFIX "EXT4-fs: "
#define PKV_STATIC PKV_FIELD(subsys, ext4) PKV_FIELD(layer, core)
#include <linux/printk_kv.h>
#include <linux/printk.h>	/* again: the include guard keeps our pr_fmt */

#include "kvtest.h"

void kvtest_order_emit(void)
{
	pr_info("classic %s", "x");
	pr_err_kv("typed", KV_U32(ino, 12));
}
