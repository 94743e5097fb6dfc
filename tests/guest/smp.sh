# SMP: a thread and a pinned timer (softirq) on every CPU at once, 25000
# records each: at least 100k records, read live. Runs last of the guest
# scenarios in the shared boot (only ./pkv compare's guest-compare.sh, which
# stops journald, comes after): journald's import of 100k records would
# slow every later scenario.
# pkv-time-limit: 120
. "$PKV_IN/lib/assert.sh"
modprobe test_printk_kv
run=/sys/kernel/debug/test_printk_kv/run
cpus=$(nproc)
[ "$cpus" -ge 2 ] || fail "only $cpus CPU online: no concurrency to test"
# The console is quieted for the burst (the
# serial console would pace the producers); lib/burst-check.awk checks every
# record whole, as jq takes minutes over 100k records under TCG.
M=/tmp/burst-mixed.json
n=25000
want=$((2 * cpus * n))
kmsg2json --follow --match test=burst_mixed >"$M" &
reader=$!
sleep 0.5
saved=$(cut -f1 /proc/sys/kernel/printk)
echo 4 >/proc/sys/kernel/printk
echo "burst_mixed $n" >"$run" || fail "burst_mixed $n was refused"
echo "$saved" >/proc/sys/kernel/printk
for _ in $(seq 120); do
	[ "$(wc -l <"$M")" -ge "$want" ] && break
	sleep 0.5
done
kill $reader
summary=$(awk -v n="$n" -f "$PKV_IN/lib/burst-check.awk" "$M")
check_equal "burst_mixed: $want records from $cpus threads and $cpus softirq timers, none lost, malformed, mixed or out of order" \
	"$summary" "records $want sources $((2 * cpus)) softirq $((cpus * n)) malformed 0 disorder 0 short 0 gaps 0"
finish
