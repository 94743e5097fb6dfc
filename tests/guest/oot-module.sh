# A module built out of tree against the pristine 6.1 tree with only
# -I include-prototype loads, and its records parse with the right fields.
# Its printk() is the plain one: the kernel does not mark its records, so a
# reader takes their fields only when told to (kmsg2json --unmarked).
# pkv-time-limit: 60
. "$PKV_IN/lib/assert.sh"
# The kernel's parameter parser takes quotes and spaces itself; the truth is
# what the module holds, read back from sysfs.
modprobe pkv_oot_demo 'name=a\"b]=\x01[kv' || bail "modprobe pkv_oot_demo"
param=$(cat /sys/module/pkv_oot_demo/parameters/name)
echo "# module parameter name is: $param"
kmsg_capture
check "unmarked records: no field without --unmarked" '.text | startswith("pkv_oot_demo: [kv ")' \
	'length == 2 and all((.structured | not) and .fields == {} and (.dict | has("PRINTK_KV") | not))'
kmsg_capture --unmarked
check "classic pr_info gains the static fields" '.fields.mod == "pkv_oot_demo" and (body | startswith("loaded"))' \
	'length == 1 and .[0].structured and .[0].kv == "unmarked" and (.[0] | pfx) == "pkv_oot_demo: "
	 and (.[0].fields | keys) == ["mod"]
	 and (.[0] | body) == "loaded, classic pr_info with 1 static field" and .[0].level == 6'
check "typed record has exactly its fields, with their values and types" \
	'.fields.mod == "pkv_oot_demo" and body == "typed record"' \
	'length == 1 and .[0].level == 5 and (.[0].fields) ==
	 {"mod": "pkv_oot_demo", "name": $param, "answer": 42, "neg": -9000000000,
	  "oot": true, "err": "-ENODEV"}' --arg param "$param"
check "the parameter really is hostile (quote, bracket, [kv)" '.fields.mod == "pkv_oot_demo" and body == "typed record"' \
	'$param | contains("\"") and contains("]") and contains("[kv")' --arg param "$param"
finish
