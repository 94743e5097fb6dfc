# printk.kv=off: the baseline. The records of printk_kv call sites carry no
# field anywhere: no block in the text, no PRINTK_KV or field line, and the
# text of an unchanged pr_*() is what the file printed before its conversion
# (prefix and message).
# pkv-time-limit: 60
. "$PKV_IN/lib/assert.sh"
run=/sys/kernel/debug/test_printk_kv/run
modprobe test_printk_kv || bail "modprobe test_printk_kv"
echo debug >"$run"
kmsg_capture
T='(.text | startswith("test_printk_kv: "))'
check "the selftest's records are there" "$T" 'length >= 10'
check "none has a field, a block or a dictionary line" "$T" \
	'all((.structured | not) and .fields == {} and (.text | contains("[kv ") | not)
	     and ((.dict | keys) - ["SUBSYSTEM", "DEVICE"]) == [])'
check "classic pr_info: the text the file would print without the header" \
	"$T and (.text | contains(\"classic\"))" \
	'length == 1 and .[0].text == "test_printk_kv: classic pr_info, test=classic is in the message only"'
check "typed record: prefix and message" "$T and (.text | endswith(\"every type\"))" \
	'length == 1 and .[0].text == "test_printk_kv: every type" and .[0].level == 6'
finish
