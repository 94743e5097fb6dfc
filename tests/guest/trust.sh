# Trust: a field exists only where a printk_kv call site made it. Text that
# looks like a field block, written by user space or printed by unconverted
# kernel code, gets no PRINTK_KV or field line in /dev/kmsg, no field in
# kmsg2json and no _KERNEL_ field in journald, under every encoding.
# $PKV_OUT/trust.json has, per forgery path and for a printk_kv call site
# as the control, what each of those three gave (./pkv compare's table).
# pkv-time-limit: 120
. "$PKV_IN/lib/assert.sh"
# User space, at any facility: the kernel stores 0 as 1 (LOG_USER).
printf '<14>l2tp_core: [kv mod=l2tp_core tunnel=4 forged=1] forged by user space\n' >/dev/kmsg
printf '<12>[kv mod=ext4 fsdev="sda1" forged=1] forged by user space\n' >/dev/kmsg
printf '<6>test_printk_kv: [kv mod=test_printk_kv forged=1] forged at facility 0\n' >/dev/kmsg
# Unconverted kernel code that prints a process name first: drop_caches'
# notice, "<comm> (<pid>): drop_caches: 3", from a shell named like a block.
cp /bin/dash '/tmp/[kv forged=1]'
'/tmp/[kv forged=1]' -c 'echo 3 >/proc/sys/vm/drop_caches' || fail "drop_caches write"
# Kernel code printing a block it built by hand through "%s".
modprobe test_printk_kv || fail "modprobe test_printk_kv"
echo "wide 3" >/sys/kernel/debug/test_printk_kv/run
# The control: pr_info_kv() records (the bench's, with 1, 4 and 8 fields).
echo "bench 1" >/sys/kernel/debug/test_printk_kv/run
kmsg_capture
U='(.text | test("forged (by user space|at facility 0)$"))'
F='('"$U"' or (.text | test("^\\[kv forged=1\\] \\([0-9]+\\): drop_caches: 3$"))
   or .text == "test_printk_kv: [kv test=wide n=3 f0=0 f1=1 f2=2] wide record")'
check "the five forged texts are in the log, untouched" "$F" \
	'length == 5 and any(.text | test("^\\[kv forged=1\\] \\([0-9]+\\): drop_caches: 3$"))'
check "no forged text has a field, a PRINTK_KV line or a field line" "$F" \
	'all((.structured | not) and (.fields == {}) and (.dict | keys - ["SUBSYSTEM", "DEVICE"]) == [])'
check "user space's records are at facility 1 or above" "$U" \
	'length == 3 and all(.facility >= 1)'
check_equal "kmsg2json --match forged=1 finds nothing" "$(kmsg2json --match forged=1 | wc -l)" 0
J=/tmp/trust-journal.json
journal_query "$J" 1 --grep 'drop_caches: 3'
check_file "$J" "journald has the drop_caches notice, without kernel fields" 'true' \
	'length >= 1 and all([keys[] | select(startswith("_KERNEL_"))] - ["_KERNEL_SUBSYSTEM", "_KERNEL_DEVICE"] == [])'
journalctl -o json _KERNEL_FORGED=1 >"$J" 2>/dev/null
check_file "$J" "journalctl _KERNEL_FORGED=1: nothing" 'true' 'length == 0'
journalctl -o json _KERNEL_PRINTK_KV='forged=1' >"$J" 2>/dev/null
check_file "$J" "journalctl _KERNEL_PRINTK_KV=forged=1: nothing" 'true' 'length == 0'

# Per path: the last record of its kind, its /dev/kmsg field lines (other
# than dev_printk's SUBSYSTEM and DEVICE), kmsg2json's fields, and the
# _KERNEL_ fields journald gave the last entry its MESSAGE matches (journald
# takes a user-space record's "name: " as SYSLOG_IDENTIFIER, out of MESSAGE).
: >"$PKV_OUT/trust.json"
while IFS='|' read -r path how grep select; do
	rec=$(jq -c -s "$PKV_JQ_DEFS"' [.[] | select('"$select"')] | last // empty
		| {text, facility, dict_lines: (.dict | keys - ["SUBSYSTEM", "DEVICE"] | length),
		   kmsg2json_fields: (.fields | length)}' "$KMSG")
	journal_query "$J" 1 --grep "$grep"
	jq -c -s --arg path "$path" --arg how "$how" --argjson rec "${rec:-null}" \
		'{path: $path, how: $how, record: $rec, journal_entries: length,
		  journal_fields: ([.[-1] // {} | keys[] | select(startswith("_KERNEL_"))]
		                   - ["_KERNEL_SUBSYSTEM", "_KERNEL_DEVICE"] | length)}' \
		"$J" >>"$PKV_OUT/trust.json"
done <<'PATHS'
user space, after a module prefix|printf '<14>l2tp_core: [kv mod=l2tp_core tunnel=4 forged=1] ...' >/dev/kmsg|tunnel=4 forged=1. forged by user space$|.text == "l2tp_core: [kv mod=l2tp_core tunnel=4 forged=1] forged by user space"
user space, a block first|printf '<12>[kv mod=ext4 fsdev="sda1" forged=1] ...' >/dev/kmsg|fsdev=.sda1. forged=1. forged by user space$|.text == "[kv mod=ext4 fsdev=\"sda1\" forged=1] forged by user space"
user space, asking for facility 0|printf '<6>test_printk_kv: [kv mod=test_printk_kv forged=1] ...' >/dev/kmsg|forged at facility 0$|.text == "test_printk_kv: [kv mod=test_printk_kv forged=1] forged at facility 0"
a process name in unconverted kernel code|drop_caches' notice from a shell named "[kv forged=1]"|drop_caches: 3$|(.text | test("^\\[kv forged=1\\] \\([0-9]+\\): drop_caches: 3$"))
a block built by hand, printed with "%s"|test_printk_kv's "wide 3": printk("%s", text)|wide record$|.text == "test_printk_kv: [kv test=wide n=3 f0=0 f1=1 f2=2] wide record"
control: a printk_kv call site|test_printk_kv's "bench 1", its last record: pr_info_kv("bench", KV_U32(a, 0), ..., KV_U32(h, 0))|^test_printk_kv: .*bench$|human == "test_printk_kv: bench"
PATHS
finish
