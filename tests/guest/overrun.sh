# Overrun, in a boot of its own with log_buf_len=1M: kmsg2json --follow and
# journald are both stopped while a flood of selftest records (far more than
# the buffer holds) overwrites the ring; resumed, kmsg2json reports the loss
# as a gap with an exact count: records delivered plus records reported lost
# equals what the selftest emitted. journald reads the same surviving records:
# what it stored and what it says about the loss are set against our count,
# and every record it stored must have all its fields.
# pkv-time-limit: 90
. "$PKV_IN/lib/assert.sh"
modprobe test_printk_kv
run=/sys/kernel/debug/test_printk_kv/run
cpus=$(nproc)
n=10000
emitted=$((cpus * n))
O=/tmp/overrun.json
journald=$(pidof systemd-journald)
cursor=$(journalctl --show-cursor -n 0 -q | sed -n 's/^-- cursor: //p')
kmsg2json --follow --new >"$O" &
reader=$!
sleep 1	# --new: the reader must have opened /dev/kmsg before the marker
printf 'user overrun-start' >"$run"
for _ in $(seq 40); do grep -q '"data":"overrun-start"' "$O" && break; sleep 0.25; done
grep -q '"data":"overrun-start"' "$O" || fail "the reader did not see the start marker"
journal_query /tmp/overrun-start.json 1 _KERNEL_TEST=user _KERNEL_DATA=overrun-start
kill -STOP $reader $journald
saved=$(cut -f1 /proc/sys/kernel/printk)
echo 4 >/proc/sys/kernel/printk	# quiet console: the serial port would pace the flood
echo "burst $n" >"$run" || fail "burst $n was refused"
echo "$saved" >/proc/sys/kernel/printk
printf 'user overrun-end' >"$run"
kill -CONT $reader $journald
for _ in $(seq 120); do grep -q '"data":"overrun-end"' "$O" && break; sleep 0.25; done
kill $reader
# awk counts the lines; jq checks the gap objects.
counts=$(awk '/"data":"overrun-start"/ { in_window = 1 } !in_window { next }
	/^\{"gap":/ { next } /"test":"burst"/ { b++; next }
	/"data":"overrun-(start|end)"/ { m++; if (/overrun-end/) in_window = 0; next }
	/^\{"error":/ { e++; next } { o++ }
	END { printf "delivered %d markers %d other %d malformed %d\n", b, m, o, e }' "$O")
grep '^{"gap":' "$O" >/tmp/overrun-gaps.json
lost=$(jq -s 'map(.lost) | add // 0' /tmp/overrun-gaps.json)
delivered=$(echo "$counts" | awk '{ print $2 }')
echo "# kmsg2json: $counts; reported lost $lost; the selftest emitted $emitted"
# More than one gap is legitimate: while the resumed reader catches up on a
# full ring, journald's notice and the end marker overwrite its oldest
# unread records. Each gap must be an overrun whose count fits its sequence
# numbers; the total is checked against the selftest's count below.
check_file /tmp/overrun-gaps.json "the reader saw an overrun and counted it (gaps, after the start marker, each exact)" 'true' \
	'length >= 1 and all(.reason == "overrun" and .lost > 0 and .next_seq == .after_seq + .lost + 1)'
check_equal "records delivered + records reported lost = records the selftest emitted" \
	"$((delivered + lost))" "$emitted"
check_equal "the window holds some survivors, both markers, nothing else and nothing malformed" \
	"$([ "$delivered" -ge 1 ] && echo "some" || echo "none") ${counts#delivered * }" "some markers 2 other 0 malformed 0"
# journald: once it has read up to the end marker.
journal_query /tmp/overrun-end.json 1 _KERNEL_TEST=user _KERNEL_DATA=overrun-end
J=/tmp/overrun-journal.json
journalctl -k --after-cursor "$cursor" _KERNEL_TEST=burst -o json \
	--output-fields=_KERNEL_MOD,_KERNEL_SUBSYS,_KERNEL_TEST,_KERNEL_CPU,_KERNEL_I,_KERNEL_PAD >"$J"
stored=$(wc -l <"$J")
notices=$(kmsg2json --since-seq "$(jq -s '.[0].next_seq // 0' /tmp/overrun-gaps.json)" --facility syslog |
	jq -s '[.[] | select(.msg // "" | test("systemd-journald.*overrun"))] | length')
missed=$(journalctl --after-cursor "$cursor" -o cat | awk '/^Missed [0-9]+ kernel messages/ { m += $2 } END { print m + 0 }')
echo "# journald: stored $stored of the $emitted flood records; said \"Missed N\" for $missed," \
	"wrote $notices overrun notice(s) to /dev/kmsg (no count); kmsg2json counted $lost lost"
# journald's account is reported, not judged: in runs here it kept one or two
# fewer survivors than kmsg2json read and its Missed N was off by one. What
# is judged: it cannot store records that were not there, and it must say it
# lost some. The field check below holds only if it stored any.
echo "# journald: stored + missed = $((stored + missed)) of $emitted emitted" \
	"($((emitted - stored - missed)) unaccounted); kmsg2json: $((delivered + lost)) of $emitted"
check_equal "journald stored some flood records, and no more than survived the overrun" \
	"$([ "$stored" -ge 1 ] && [ "$stored" -le "$delivered" ] && echo "1 to $delivered" || echo "$stored")" "1 to $delivered"
check_equal "journald reported its loss (a Missed count or an overrun notice)" \
	"$([ $((missed + notices)) -gt 0 ] && echo reported || echo silent)" reported
incomplete=$(jq -c 'select((._KERNEL_MOD == "test_printk_kv" and ._KERNEL_SUBSYS == "selftest"
	and ._KERNEL_PAD == "0123456789abcdef0123456789abcdef" and (._KERNEL_CPU | test("^[0-9]+$"))
	and (._KERNEL_I | test("^[0-9]+$"))) | not)' "$J" | wc -l)
check_equal "journald: every stored flood record has all its fields" "$incomplete incomplete" "0 incomplete"
finish
