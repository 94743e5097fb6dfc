# kselftest: the series' tools/testing/selftests/lib/printk_kv.sh, which
# loads test_printk_kv through kselftest/module.sh as
# "make -C tools/testing/selftests TARGETS=lib run_tests" does. The module
# is unloaded first (earlier scenarios loaded it), so that the load is real.
# pkv-time-limit: 60
. "$PKV_IN/lib/assert.sh"
wrapper=$PKV_IN/selftests/lib/printk_kv.sh
[ -f "$wrapper" ] || bail "no $wrapper: boot.sh copies it from the kernel tree"
rmmod test_printk_kv 2>/dev/null
out=$(sh "$wrapper" 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
check_equal "kselftest lib/printk_kv.sh exits 0 (4 is a skip, 1 a failure)" "$rc" 0
check_equal "kselftest lib/printk_kv.sh says ok" "$out" "printk_kv: ok"
# The last records only: this scenario runs after smp.sh's 100k-record
# bursts, which jq -s over the whole log would take minutes to read here.
kmsg_capture -n 2000
check "the load it made ran the module's checks (their record, once since this scenario started)" \
	".seq > $(start_seq) and human == \"test_printk_kv: all 11 tests passed\"" 'length == 1'
modprobe test_printk_kv || fail "modprobe test_printk_kv again, for the scenarios after this one"
finish
