# journald and kmsg2json agree on every structured record, field for field,
# and journald's limit of 64 dictionary lines per record is respected.
# Runs after the selftest and l2tp scenarios in the shared boot: their records
# are the corpus.
. "$PKV_IN/lib/assert.sh"
run=/sys/kernel/debug/test_printk_kv/run
modprobe test_printk_kv
echo "wide 60" >"$run"		# 62 fields: SUBSYSTEM/DEVICE + 62 = journald's 64
echo "wide 61" >"$run"		# 63 fields: over the limit, no dictionary lines
J=/tmp/journal-all.json
journal_query "$J" 1 _KERNEL_TEST=wide	# the 62-field one; the other has no fields
journal_query "$J" 1 --grep 'n=61 '
journalctl -k -o json >"$J"
kmsg_capture
check "kmsg2json: the text's fields and the kernel's dictionary lines agree" '.dict_agrees != null' \
	'length > 50 and all(.dict_agrees)'
# journalctl writes a value with control bytes as an array of bytes, kmsg2json
# only one that is not UTF-8: compare bytes.
BYTES='def bytes: if type == "array" then . else explode | map(
	if . < 128 then [.] elif . < 2048 then [192 + (. / 64 | floor), 128 + . % 64]
	elif . < 65536 then [224 + (. / 4096 | floor), 128 + (. / 64 | floor) % 64, 128 + . % 64]
	else [240 + (. / 262144 | floor), 128 + (. / 4096 | floor) % 64, 128 + (. / 64 | floor) % 64, 128 + . % 64]
	end) | add // [] end;'
check "journald stores every dictionary line of every structured record, nothing more" '.dict_agrees != null' \
	"$BYTES"'($j | map({key: "\(._SOURCE_MONOTONIC_TIMESTAMP)|\(.MESSAGE)", value: .}) | from_entries) as $J
	 | map(. as $r | $J["\($r.ts_usec)|\($r.text)"] as $e
	       | $e != null
	         and all($r.dict | to_entries[]; ($e["_KERNEL_" + .key] | bytes) == (.value | bytes))
	         and ([$e | keys[] | select(startswith("_KERNEL_"))] | sort) ==
	             ([$r.dict | keys[] | "_KERNEL_" + .] | sort))
	 | length > 50 and all' --slurpfile j "$J"
check "a 62-field block: all 62 lines, journald keeps them all" '.fields.test == "wide" and .fields.n == 60' \
	'length == 1 and .[0].dict_agrees and (.[0].dict | length) == 62'
journal_query "$J" 1 _KERNEL_TEST=wide _KERNEL_N=60
check_file "$J" "journalctl _KERNEL_N=60: 62 _KERNEL_ fields, the last one included" 'true' \
	'length == 1 and ([.[0] | keys[] | select(startswith("_KERNEL_"))] | length) == 62 and .[0]._KERNEL_F59 == "59"'
check "a 63-field block: parsed by the reader, no dictionary lines from the kernel" \
	'.fields.test == "wide" and .fields.n == 61' \
	'length == 1 and (.[0].fields | length) == 63 and .[0].dict == {} and (.[0] | has("dict_agrees") | not)'
journalctl -k -o json --grep 'n=61 ' >"$J"
check_file "$J" "the 63-field record is still in the journal, whole" 'true' \
	'length == 1 and (.[0].MESSAGE | endswith("f60=60] wide record"))'
finish
