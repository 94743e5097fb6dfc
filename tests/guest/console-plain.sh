#!/bin/sh
# console-plain.sh CONSOLE.LOG: the shared boot ran with printk.kv_console_plain=1,
# so its serial console shows structured records without their field block
# (the scenarios checked that /dev/kmsg and the journal have the block).
log=$1
[ -s "$log" ] || { echo "FAIL no console log at $log"; exit 1; }
fail=0
tr -d '\r' <"$log" >"$log.txt"
# A complete block ends in "] " and a message; a block cut by printk has no
# closing bracket and is printed whole, by design.
# Records the kernel did not mark are printed as they are, block and all:
# the out-of-tree module built against the unpatched tree, the selftest's
# hand-built wide block, the trust scenario's forged texts.
unmarked='pkv_oot_demo: \[kv |test_printk_kv: \[kv test=wide |forged=1'
if grep -a '\[kv ' "$log.txt" | grep -a -v -E "$unmarked" | grep -a -q -E '\] [^"]*$'; then
	echo "FAIL console lines with a complete field block:"
	grep -a '\[kv ' "$log.txt" | grep -a -v -E "$unmarked" | grep -a -E '\] [^"]*$' | head -5
	fail=1
else
	echo "ok   no console line has a complete field block ($(grep -a -c '\[kv ' "$log.txt") cut one(s) printed whole)"
fi
for want in 'test_printk_kv: all 11 tests passed' 'test_printk_kv: hostile strings' \
	'l2tp_core: L2TP core driver, V2.0'; do
	if grep -a -q "\] $want\$" "$log.txt"; then
		echo "ok   console: '$want'"
	else
		echo "FAIL console has no line ending in '$want'"
		fail=1
	fi
done
grep -a -q 'printk.kv_console_plain=1' "$log.txt" || { echo "FAIL the boot did not have printk.kv_console_plain=1"; fail=1; }
rm -f "$log.txt"
exit $fail
