# journald and kmsg2json agree on every structured record, field for field.
# Runs after the selftest and l2tp scenarios in the shared boot: their records
# are the corpus.
# pkv-time-limit: 240
. "$PKV_IN/lib/assert.sh"
run=/sys/kernel/debug/test_printk_kv/run
modprobe test_printk_kv
# A block of 62 fields built by hand and printed through "%s": kernel code,
# but no printk_kv call site, so no field (the header's items cannot make
# that many fields: journald's limit of 64 lines is out of their reach).
echo "wide 60" >"$run"
J=/tmp/journal-all.json
journal_query "$J" 1 --grep 'n=60 '
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
	end) | add // [] end;
def trail: if type == "string" then sub("\\s+$"; "") else . end;'
# Records are matched by time, text and PRINTK_KV (under dict, records of a
# burst share time and text); journald drops a trailing space of the text
# (the long record under dict is "test_printk_kv: "). The records whose
# journal entry is missing or differs go to a file of their own, so that a
# failure shows them.
D=/tmp/journal-differ.json
jq -c -s --slurpfile j "$J" "$BYTES"'
	($j | map({key: "\(._SOURCE_MONOTONIC_TIMESTAMP)|\(.MESSAGE | trail)|\(._KERNEL_PRINTK_KV)", value: .})
	 | from_entries) as $J
	| map(select(.dict_agrees != null)) | length as $n
	| {compared: $n}, (.[] | . as $r | $J["\($r.ts_usec)|\($r.text | trail)|\($r.dict.PRINTK_KV)"] as $e
	  | select($e == null
	      or (all($r.dict | to_entries[]; ($e["_KERNEL_" + .key] | bytes) == (.value | bytes)) | not)
	      or ([$e | keys[] | select(startswith("_KERNEL_"))] | sort) !=
	         ([$r.dict | keys[] | "_KERNEL_" + .] | sort))
	  | {seq, text, dict, journal: ($e // {} | with_entries(select(.key | startswith("_KERNEL_"))))})' \
	"$KMSG" >"$D"
check_file "$D" "journald stores every dictionary line of more than 50 structured records" 'has("compared")' \
	'length == 1 and .[0].compared > 50'
check_file "$D" "... and nothing more: no record missing or different in the journal" 'has("seq")' 'length == 0'
check "a hand-built 62-field block: no field, no PRINTK_KV or field line" \
	'.text | startswith("test_printk_kv: [kv test=wide n=60 ")' \
	'length == 1 and (.[0].structured | not) and .[0].dict == {}'
journalctl -k -o json --grep 'n=60 ' >"$J"
check_file "$J" "the hand-built record is in the journal, whole, without _KERNEL_ fields" 'true' \
	'length == 1 and (.[0].MESSAGE | endswith("f59=59] wide record")) and
	 ([.[0] | keys[] | select(startswith("_KERNEL_"))] == [])'
finish
