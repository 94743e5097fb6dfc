#!/bin/sh
# burst-check.sh TOP: tests/guest/lib/burst-check.awk, the guest's checker of
# 100k burst records, passes a real capture (tests/data/burst-mixed.kmsg.json,
# selftest "burst_mixed 2" on 2 CPUs) and catches each kind of damage.
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
expect "the real capture" "records 8 sources 4 softirq 4 malformed 0 disorder 0 short 0 gaps 0" "$good"
sed '3s/0123456789abcdef0123/0123456789abcdef0124/' "$good" >"$tmp/pad"
expect "one byte of one record changed" "records 8 sources 4 softirq 4 malformed 1 disorder 0 short 0 gaps 0" "$tmp/pad"
sed '2s/ i=1 / i=7 /' "$good" >"$tmp/text"
expect "text and fields disagree" "records 8 sources 4 softirq 4 malformed 1 disorder 0 short 0 gaps 0" "$tmp/text"
sed '3s/"caller":"C0"/"caller":"T99"/' "$good" >"$tmp/caller"
expect "a softirq record from a task" "records 8 sources 4 softirq 4 malformed 1 disorder 0 short 0 gaps 0" "$tmp/caller"
sed '2s/burst record with a payload/burst record with a paylo/' "$good" >"$tmp/cut"
expect "a cut message" "records 8 sources 4 softirq 4 malformed 1 disorder 0 short 0 gaps 0" "$tmp/cut"
{ sed -n 2p "$good"; sed -n 1p "$good"; sed -n '3,8p' "$good"; } >"$tmp/order"
expect "two records of one source swapped" "records 8 sources 4 softirq 4 malformed 0 disorder 2 short 1 gaps 0" "$tmp/order"
{ sed -n '1p' "$good"; echo '{"gap":true,"reason":"overrun","lost":1}'; sed -n '3,8p' "$good"; } >"$tmp/gap"
expect "a record lost" "records 7 sources 4 softirq 4 malformed 0 disorder 0 short 1 gaps 1" "$tmp/gap"
exit $fail
