# KUnit: the printk_kv suite (kernel/printk/printk_kv_kunit.c, a module that
# runs its cases when loaded). Its KTAP, from debugfs, becomes this
# scenario's results: one per case, with KUnit's diagnostics of a failed
# case before it; the raw KTAP is kept as $PKV_OUT/printk_kv.ktap. Then
# test_printf, vsprintf's own selftest, which has the series' %pq cases.
# pkv-time-limit: 90
. "$PKV_IN/lib/assert.sh"
modprobe printk_kv_kunit || bail "modprobe printk_kv_kunit"
results=/sys/kernel/debug/kunit/printk_kv/results
[ -r "$results" ] || bail "no KUnit results at $results (CONFIG_KUNIT_DEBUGFS)"
ktap=$PKV_OUT/printk_kv.ktap
cp "$results" "$ktap"
rmmod printk_kv_kunit
# 6.1 keeps 512 bytes of log per case: a long failure report is cut
# without its newline, and the next result line is glued to it. Put that
# line back on its own; a result cut off altogether fails the plan check.
sed -i 's/\([^ ]\)\( \{4\}\(not \)\{0,1\}ok [0-9]\)/\1\n\2/' "$ktap"
# The suite's KTAP: its cases one level in ("    ok 1 - pkv_str_cut" in
# 6.1, without the dash later), each after its diagnostics, and the suite's
# own line ("ok 1 - printk_kv") last.
plan=$(sed -n 's/^ \{1,\}1\.\.\([0-9]\{1,\}\)$/\1/p' "$ktap" | head -n 1)
cases=0
diag=$(mktemp)
while IFS= read -r line; do
	case "$line" in
	" "*"ok "[0-9]*)
		name=$(echo "$line" | sed 's/^ *\(not \)\{0,1\}ok [0-9]* \(- \)\{0,1\}//; s/ #.*//')
		cases=$((cases + 1))
		if [ "${line#*not ok}" = "$line" ]; then
			pass "KUnit printk_kv.$name"
		else
			sed 's/^ */# /' "$diag"
			fail "KUnit printk_kv.$name"
		fi
		: >"$diag"
		;;
	" "*) echo "$line" >>"$diag" ;;
	esac
done <"$ktap"
rm -f "$diag"
if [ "$cases" != "${plan:-}" ]; then
	echo "# a case without its result: 6.1's per-case log (512 bytes) cut it; the kernel log has them all:"
	dmesg | sed -n 's/^\[ *[0-9.]*\] \{4,\}\(\(not \)\{0,1\}ok [0-9].*\)/#   \1/p' | tail -n "${plan:-20}"
fi
check_equal "KUnit printk_kv: a result for each of the plan's cases" "$cases" "${plan:-no plan}"
check_equal "KUnit printk_kv: the suite's own result" \
	"$(grep -E '^(not )?ok [0-9]+ (- )?printk_kv$' "$ktap" | sed 's/ [0-9].*//')" "ok"
# test_printf, vsprintf's selftest (kselftest-style: loading fails when a
# case does), with the %pq cases of the series.
printf_ok=yes
modprobe test_printf || printf_ok="no: $(dmesg | grep 'test_printf:' | tail -n 5 | tr '\n' ' ')"
check_equal "test_printf (vsprintf, %pq included): every case passed" "$printf_ok" yes
finish
