# Records carry no call site (docs/FORMAT.md, "Call sites"): a reader finds
# it in printk index, from the record's module, level, fields and text
# (lib/callsite.py). Run after the driver scenarios, over every record of
# the boot: each record of a module whose formats the index holds (built in,
# or loaded) must match at least one format, under text and under dict alike.
# l1oip is loaded again, since misdn.sh unloaded it and a module's formats
# leave the index with it; cs89x0 never stays loaded (no chip).
# pkv-time-limit: 90
. "$PKV_IN/lib/assert.sh"
index=/sys/kernel/debug/printk/index
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
[ -d "$index" ] || bail "no printk index at $index (CONFIG_PRINTK_INDEX)"
ip link set lo up
modprobe mISDN_core && modprobe l1oip type=1 codec=0 ip=127,0,0,1 port=5090 remoteport=5091 ||
	fail "modprobe l1oip"
modprobe test_printk_kv || fail "modprobe test_printk_kv"
kmsg=${TMPDIR:-/tmp}/pkv-callsite.kmsg
out=${TMPDIR:-/tmp}/pkv-callsite.json
dd if=/dev/kmsg iflag=nonblock bs=8192 of="$kmsg" 2>/dev/null
python3 "$PKV_IN/lib/callsite.py" "$kmsg" "$index" "$out" || bail "callsite.py"
# The raw data, for the measurement of what each static field costs.
mkdir -p "$PKV_OUT/index"
cp "$kmsg" "$PKV_OUT/kmsg"
cp "$out" "$PKV_OUT/callsite.json"
for f in "$index"/*; do cp "$f" "$PKV_OUT/index/"; done

jq -r -s 'group_by(.mod)[] | "     \(.[0].mod): \(length) records, \(map(select(.sites | length == 1)) | length) one site,
	\(map(select(.sites | length > 1)) | length) several, \(map(select(.sites == [])) | length) none\(
	if .[0].indexed then "" else " (not in the index: module not loaded)" end)"' "$out"
# A read that ends anywhere loses no format (patch "printk/index: do not
# skip an entry when a read ends before it"): each module's index file read
# one byte at a time is the file read whole (vmlinux's is left out: ~10^5
# one-byte reads under TCG), and the index lists every format of l1oip.
differ=
for f in "$index"/*; do
	[ "${f##*/}" = vmlinux ] && continue
	[ "$(dd if="$f" bs=1 2>/dev/null | md5sum)" = "$(dd if="$f" bs=1M 2>/dev/null | md5sum)" ] ||
		differ="$differ ${f##*/}"
done
check_equal "printk index files read a byte at a time are the files read whole" "${differ:-none}" none
check_equal "l1oip's index lists the receive path's two packet errors of l1oip_socket_recv()" \
	"$(grep -c 'l1oip_socket_recv "\[kv mod=l1oip card=%127pq channel=%d\]' "$index/l1oip")" 2
for m in l2tp_core ext4 l1oip mISDN_core test_printk_kv; do
	check_file "$out" "$m: records of this boot, each with its call site in printk index" ".mod == \"$m\"" \
		'length >= 2 and all(.indexed and (.sites | length) >= 1)'
done
check_file "$out" "every marked record of an indexed module has a call site" '.indexed' \
	'length >= 50 and all((.sites | length) >= 1)'
check_file "$out" "the selftest's typed record: one site, the line of its call" \
	'.mod == "test_printk_kv" and (.text | endswith("every type"))' \
	'length >= 1 and all(.sites | length == 1 and (.[0] | test("^lib/test_printk_kv\\.c:[0-9]+ emit_records$")))'
check_file "$out" "l2tp's session-not-found record: the receive path's call" \
	'.mod == "l2tp_core" and (.text | contains("no session found"))' \
	'length >= 1 and all(.sites | length == 1 and (.[0] | test("^net/l2tp/l2tp_core\\.c:[0-9]+ l2tp_udp_recv_core$")))'
check_file "$out" "an ext4 error: the site is ext4's helper, the caller is in func and line" \
	'.mod == "ext4" and (.kv | contains("func=\"trigger_test_error\""))' \
	'length >= 1 and all(.sites | length >= 1 and all(test("^fs/ext4/super\\.c:[0-9]+ __ext4_")))'
finish
