#!/bin/sh
# burst-check.sh TOP: tests/guest/lib/burst-check.awk, the guest's checker of
# 100k burst records, passes a real capture (tests/data/burst-mixed.kmsg.json,
# selftest "burst_mixed 2" on 2 CPUs, and burst-mixed-dict.kmsg.json, the same
# under printk.kv=dict) and catches each kind of damage.
set -u
top=$1
awkf=$top/tests/guest/lib/burst-check.awk
good=$top/tests/data/burst-mixed.kmsg.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {	# expect NAME WANT-SUMMARY FILE
	got=$(awk -v n=2 -f "$awkf" "$3" 2>/dev/null)
	if [ "$got" = "$2" ]; then
		echo "ok   $1"
	else
		echo "FAIL $1: got '$got', expected '$2'"
		fail=1
	fi
}
expect "the real capture (printk.kv=text)" "records 8 sources 4 softirq 4 malformed 0 disorder 0 short 0 gaps 0" "$good"
expect "the real capture (printk.kv=dict)" "records 8 sources 4 softirq 4 malformed 0 disorder 0 short 0 gaps 0" \
	"$top/tests/data/burst-mixed-dict.kmsg.json"
# Lines of the capture by what they hold, wherever the capture put them.
line() { grep -n "$1" "$good" | head -n 1 | cut -d: -f1; }
t0=$(line '"ctx":"thread","cpu":0,"i":0,')
t1=$(line '"ctx":"thread","cpu":0,"i":1,')
s0=$(line '"ctx":"softirq","cpu":0,"i":0,')
sed "${s0}s/0123456789abcdef0123/0123456789abcdef0124/" "$good" >"$tmp/pad"
expect "one byte of one record changed" "records 8 sources 4 softirq 4 malformed 1 disorder 0 short 0 gaps 0" "$tmp/pad"
sed "${t1}s/ i=1 / i=7 /" "$good" >"$tmp/text"
expect "text and fields disagree" "records 8 sources 4 softirq 4 malformed 1 disorder 0 short 0 gaps 0" "$tmp/text"
sed "${s0}s/\"caller\":\"C0\"/\"caller\":\"T99\"/" "$good" >"$tmp/caller"
expect "a softirq record from a task" "records 8 sources 4 softirq 4 malformed 1 disorder 0 short 0 gaps 0" "$tmp/caller"
sed "${t1}s/burst record with a payload/burst record with a paylo/" "$good" >"$tmp/cut"
expect "a cut message" "records 8 sources 4 softirq 4 malformed 1 disorder 0 short 0 gaps 0" "$tmp/cut"
awk -v a="$t0" -v b="$t1" 'NR == a { x = $0; next } { print } NR == b { print x }' "$good" >"$tmp/order"
expect "two records of one source swapped" "records 8 sources 4 softirq 4 malformed 0 disorder 2 short 1 gaps 0" "$tmp/order"
awk -v b="$t1" 'NR == b { print "{\"gap\":true,\"reason\":\"overrun\",\"lost\":1}"; next } { print }' "$good" >"$tmp/gap"
expect "a record lost" "records 7 sources 4 softirq 4 malformed 0 disorder 0 short 1 gaps 1" "$tmp/gap"
[ -n "$t0" ] && [ -n "$t1" ] && [ -n "$s0" ] || { echo "FAIL the capture lacks the records the cases change"; fail=1; }
exit $fail
