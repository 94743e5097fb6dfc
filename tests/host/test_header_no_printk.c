// SPDX-License-Identifier: GPL-2.0
/*
 * printk_kv.h under CONFIG_PRINTK=n (PKV_SHIM_NO_PRINTK): every _kv macro
 * still compiles with its checks, and runs nothing: no record, no value
 * rendered, no argument evaluated. Built a second time with printk, where
 * the same calls must print and evaluate, so that the first run cannot
 * pass by not calling anything. TAP on stdout, for meson.
 */
#define KBUILD_MODNAME "noprintk"
#define PKV_STATIC PKV_FIELD(subsys, test)
#include <linux/printk_kv.h>

#include <stdio.h>

static int evaluated;

static const char *name(void)
{
	evaluated++;
	return "x";
}

static int err(void)
{
	evaluated++;
	return -22;
}

static void vaf_call(const char *fmt, ...)
{
	struct va_format vaf;
	va_list ap;

	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	printk_kv_vaf(KERN_ERR, "e: ", &vaf, KV_STR(s, name()));
	va_end(ap);
}

int main(void)
{
	struct device dev = { .name = "d0", .driver = "drv", .subsystem = "platform" };
	struct net_device nd = { .name = "eth0", .ifindex = 2, .registered = 1 };
	int want_evaluated = IS_ENABLED(CONFIG_PRINTK) ? 7 : 0;
	int want_records = IS_ENABLED(CONFIG_PRINTK) ? 6 : 0;
	int fail = 0;

	shim_reset();
	pr_err_kv("m", KV_STR(s, name()), KV_ERR(e, err()));
	pr_warn_kv_ratelimited("m", KV_STR(s, name()));
	pr_info_kv_once(KV_MSG("m %s", name()), KV_U32(n, 1));
	dev_err_kv(&dev, "m", KV_STR(s, name()));
	netdev_warn_kv(&nd, "m", KV_ERR_NZ(e, err()));
	vaf_call("%d", 1);

	printf("TAP version 13\n1..2\n");
	printf("# CONFIG_PRINTK=%s: %d arguments evaluated, %d records\n",
	       IS_ENABLED(CONFIG_PRINTK) ? "y" : "n", evaluated, shim_nlog);
	if (evaluated != want_evaluated)
		fail = 1;
	printf("%sok 1 - %d arguments evaluated, as expected\n",
	       evaluated == want_evaluated ? "" : "not ", want_evaluated);
	if (shim_nlog != want_records)
		fail = 1;
	printf("%sok 2 - %d records printed, as expected\n",
	       shim_nlog == want_records ? "" : "not ", want_records);
	return fail;
}
