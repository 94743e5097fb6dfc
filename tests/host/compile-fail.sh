#!/bin/sh
# compile-fail.sh CC TOP [CFLAGS]: misuses of printk_kv.h must not compile, and the same
# snippet written correctly must, so a broken harness cannot pass by accident.
# -Werror as the kernel's CONFIG_WERROR: -Wformat finds the numeric types,
# -Wint-conversion a non-string given to KV_STR().
set -u
cc=$1
top=$2
# CFLAGS: words added to every compile, as x86-32's -ffreestanding.
cflags=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# case NAME EXPECTED-ERROR-REGEX GOOD-BODY BAD-BODY [BAD-DEFINES [GOOD-DEFINES]]
case_() {
	name=$1 want=$2 good=$3 bad=$4 defs=${5:-} gdefs=${6:-}
	for kind in good bad; do
		body=$good d=$gdefs
		[ $kind = bad ] && body=$bad d=$defs
		cat >"$tmp/$name-$kind.c" <<EOC
#define KBUILD_MODNAME "cf"
$d
#include <linux/printk_kv.h>
void f(unsigned long long u64v, int i, const char *s);
void f(unsigned long long u64v, int i, const char *s)
{
	(void)u64v; (void)i; (void)s;
	$body;
}
EOC
		# shellcheck disable=SC2086 # CFLAGS are words
		"$cc" -std=gnu11 -O2 -Wall -Werror $cflags -c -I"$top/tests/host/shim" \
			-I"$top/include-prototype" "$tmp/$name-$kind.c" -o "$tmp/o.o" \
			>"$tmp/$name-$kind.log" 2>&1
		rc=$?
		if [ $kind = good ] && [ $rc -ne 0 ]; then
			echo "FAIL $name: the correct form does not compile:"; cat "$tmp/$name-$kind.log"
			fail=$((fail + 1)); return
		fi
		if [ $kind = bad ] && { [ $rc -eq 0 ] || ! grep -Eq "$want" "$tmp/$name-$kind.log"; }; then
			echo "FAIL $name: compiled, or failed without /$want/:"; cat "$tmp/$name-$kind.log"
			fail=$((fail + 1)); return
		fi
	done
	echo "ok   $name"
	pass=$((pass + 1))
}

case_ u32-given-u64 "format" 'pr_info_kv("m", KV_U32(n, i))' 'pr_info_kv("m", KV_U32(n, u64v))'
case_ u64-given-int "format" 'pr_info_kv("m", KV_U64(n, u64v))' 'pr_info_kv("m", KV_U64(n, i))'
case_ str-given-int "pointer|integer" 'pr_info_kv("m", KV_STR(n, s))' 'pr_info_kv("m", KV_STR(n, i))'
case_ conversion-in-msg "format" 'pr_info_kv("m 100%%", KV_U32(n, i))' 'pr_info_kv("m %d", KV_U32(n, i))'
case_ key-uppercase "printk_kv: key" 'pr_info_kv("m", KV_U32(ok_key2, i))' 'pr_info_kv("m", KV_U32(Bad, i))'
case_ key-digit-first "printk_kv: key|expected" 'pr_info_kv("m", KV_U32(k9, i))' 'pr_info_kv("m", KV_U32(_k, i))'
case_ key-too-long "printk_kv: key" 'pr_info_kv("m", KV_U32(a_very_long_key_of_32_bytes_xyzw, i))' \
	'pr_info_kv("m", KV_U32(a_very_long_key_of_33_bytes_xyzwv, i))'
case_ key-reserved-mod "printk_kv: key" 'pr_info_kv("m", KV_U32(mode, i))' 'pr_info_kv("m", KV_U32(mod, i))'
case_ key-reserved-device "printk_kv: key" 'pr_info_kv("m", KV_U32(devices, i))' 'pr_info_kv("m", KV_U32(device, i))'
case_ prefix-with-bracket "PKV_PREFIX" 'pr_info_kv("m", KV_U32(n, i))' 'pr_info_kv("m", KV_U32(n, i))' \
	'#define PKV_PREFIX "[x] "'
case_ key-reserved-printk-kv "printk_kv: key" 'pr_info_kv("m", KV_U32(printk_k, i))' 'pr_info_kv("m", KV_U32(printk_kv, i))'
case_ prefix-with-percent "PKV_PREFIX|more '%' conversions" 'pr_info_kv("m", KV_U32(n, i))' 'pr_info_kv("m", KV_U32(n, i))' \
	'#define PKV_PREFIX "cf%d: "'
case_ debug-compiled-out-still-checked "format" 'pr_debug_kv("m", KV_U32(n, i))' 'pr_debug_kv("m", KV_U32(n, u64v))'
case_ dev-dbg-compiled-out-still-checked "format" \
	'dev_dbg_kv((struct device *)0, "m", KV_U32(n, i))' 'dev_dbg_kv((struct device *)0, "m", KV_U32(n, u64v))'

# printk_kv_vaf(): its items and its literal are checked as pr_*_kv()'s are.
case_ vaf-key-reserved "printk_kv: key" 'printk_kv_vaf(s, "e: ", (struct va_format *)0, KV_U32(devno, i))' \
	'printk_kv_vaf(s, "e: ", (struct va_format *)0, KV_U32(dev, i))'
case_ vaf-msg-conversion "format" 'printk_kv_vaf(s, "100%% ", (struct va_format *)0, KV_U32(n, i))' \
	'printk_kv_vaf(s, "%d ", (struct va_format *)0, KV_U32(n, i))'

# KV_MSG(): its arguments are checked against its format, after the items'.
case_ kv-msg-wrong-type "format" 'pr_info_kv(KV_MSG("m %d %s", i, s), KV_U32(n, i))' \
	'pr_info_kv(KV_MSG("m %d %s", s, i), KV_U32(n, i))'
case_ kv-msg-missing-arg "format" 'pr_warn_kv(KV_MSG("m %llu", u64v), KV_U32(n, i))' \
	'pr_warn_kv(KV_MSG("m %llu %d", u64v), KV_U32(n, i))'
case_ vaf-kv-msg-wrong-type "format" \
	'printk_kv_vaf(s, KV_MSG("e %s: ", s), (struct va_format *)0, KV_U32(n, i))' \
	'printk_kv_vaf(s, KV_MSG("e %s: ", i), (struct va_format *)0, KV_U32(n, i))'

# Each key once in a record, static fields included: printk and the readers
# refuse a block with a key twice, so the call must not compile.
case_ key-twice-in-call "twice in one record" 'pr_info_kv("m", KV_U32(a, i), KV_U32(b, i))' \
	'pr_info_kv("m", KV_U32(a, i), KV_U32(b, i), KV_STR(a, s))'
case_ key-twice-not-a-prefix "twice in one record" 'pr_info_kv("m", KV_U32(ab, i), KV_U32(a, i))' \
	'pr_info_kv("m", KV_U32(ab, i), KV_U64_NZ(ab, u64v))'
case_ key-of-a-static-field "twice in one record" 'pr_info_kv("m", KV_U32(subsys2, i))' \
	'pr_info_kv("m", KV_U32(subsys, i))' \
	'#define PKV_STATIC PKV_FIELD(subsys, x)' '#define PKV_STATIC PKV_FIELD(subsys, x)'
case_ static-field-twice "twice in one record" 'pr_info_kv("m", KV_U32(n, i))' 'pr_info_kv("m", KV_U32(n, i))' \
	'#define PKV_STATIC PKV_FIELD(a, x) PKV_FIELD(b, y) PKV_FIELD(a, z)' \
	'#define PKV_STATIC PKV_FIELD(a, x) PKV_FIELD(b, y) PKV_FIELD(c, z)'
case_ dev-key-of-a-static-field "twice in one record" 'dev_err_kv((struct device *)0, "m", KV_U32(n, i))' \
	'dev_err_kv((struct device *)0, "m", KV_U32(layer, i))' \
	'#define PKV_STATIC PKV_FIELD(subsys, x) PKV_FIELD(layer, y)' '#define PKV_STATIC PKV_FIELD(subsys, x) PKV_FIELD(layer, y)'
# PKV_FIELD(): the key as a per-call key, the value a bare word.
case_ static-value-two-words "PKV_FIELD" 'pr_info_kv("m", KV_U32(n, i))' 'pr_info_kv("m", KV_U32(n, i))' \
	'#define PKV_STATIC PKV_FIELD(subsys, ext4 fs)' '#define PKV_STATIC PKV_FIELD(subsys, ext4-fs/1.0:a_b+c)'
case_ static-value-quoted "PKV_FIELD" 'pr_info_kv("m", KV_U32(n, i))' 'pr_info_kv("m", KV_U32(n, i))' \
	'#define PKV_STATIC PKV_FIELD(subsys, "ext4")' '#define PKV_STATIC PKV_FIELD(subsys, EXT4)'
case_ static-value-bracket "PKV_FIELD" 'pr_info_kv("m", KV_U32(n, i))' 'pr_info_kv("m", KV_U32(n, i))' \
	'#define PKV_STATIC PKV_FIELD(subsys, a]b)' '#define PKV_STATIC PKV_FIELD(subsys, ab)'
case_ static-value-empty "PKV_FIELD" 'pr_info_kv("m", KV_U32(n, i))' 'pr_info_kv("m", KV_U32(n, i))' \
	'#define PKV_STATIC PKV_FIELD(subsys, )' '#define PKV_STATIC PKV_FIELD(subsys, 0)'
case_ static-key-reserved "PKV_FIELD" 'pr_info_kv("m", KV_U32(n, i))' 'pr_info_kv("m", KV_U32(n, i))' \
	'#define PKV_STATIC PKV_FIELD(mod, x)' '#define PKV_STATIC PKV_FIELD(modx, x)'
case_ static-key-uppercase "PKV_FIELD" 'pr_info_kv("m", KV_U32(n, i))' 'pr_info_kv("m", KV_U32(n, i))' \
	'#define PKV_STATIC PKV_FIELD(Subsys, x)' '#define PKV_STATIC PKV_FIELD(subsys, X)'
case_ static-checked-in-vaf "PKV_FIELD" \
	'printk_kv_vaf(s, "e: ", (struct va_format *)0, KV_U32(n, i))' \
	'printk_kv_vaf(s, "e: ", (struct va_format *)0, KV_U32(n, i))' \
	'#define PKV_STATIC PKV_FIELD(subsys, a=b)' '#define PKV_STATIC PKV_FIELD(subsys, a.b)'
case_ static-fields-five "more_than_four" 'pr_info_kv("m", KV_U32(n, i))' 'pr_info_kv("m", KV_U32(n, i))' \
	'#define PKV_STATIC PKV_FIELD(a, 1) PKV_FIELD(b, 2) PKV_FIELD(c, 3) PKV_FIELD(d, 4) PKV_FIELD(e, 5)' \
	'#define PKV_STATIC PKV_FIELD(a, 1) PKV_FIELD(b, 2) PKV_FIELD(c, 3) PKV_FIELD(d, 4)'

case_ static-fields-five-plain-pr "more_than_four" 'pr_info("m")' 'pr_info("m")' \
	'#define PKV_STATIC PKV_FIELD(a, 1) PKV_FIELD(b, 2) PKV_FIELD(c, 3) PKV_FIELD(d, 4) PKV_FIELD(e, 5)' \
	'#define PKV_STATIC PKV_FIELD(a, 1) PKV_FIELD(b, 2) PKV_FIELD(c, 3) PKV_FIELD(d, 4)'
case_ vaf-key-of-a-static-field "twice in one record" \
	'printk_kv_vaf(s, "e: ", (struct va_format *)0, KV_U32(n, i))' \
	'printk_kv_vaf(s, "e: ", (struct va_format *)0, KV_U32(subsys, i))' \
	'#define PKV_STATIC PKV_FIELD(subsys, x)' '#define PKV_STATIC PKV_FIELD(subsys, x)'
case_ netdev-key-twice "twice in one record" \
	'netdev_err_kv((struct net_device *)0, "m", KV_U32(n, i), KV_U32(q, i))' \
	'netdev_err_kv((struct net_device *)0, "m", KV_U32(q, i), KV_U32(q, i))'
# A key is the word as written, even when it is also a macro name.
case_ key-that-is-a-macro "twice in one record" \
	'pr_info_kv("m", KV_U32(foo, i), KV_U32(bar, i))' 'pr_info_kv("m", KV_U32(foo, i))' \
	'#define PKV_STATIC PKV_FIELD(foo, a)
#define foo bar' '#define foo bar'

echo "compile-fail: $pass passed, $fail failed"
[ $fail -eq 0 ]
