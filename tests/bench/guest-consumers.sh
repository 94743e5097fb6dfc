# What each consumer of the log sees of one structured record, l2tp's "no
# session found" (tests/guest/l2tp.sh printed it earlier in the boot), under
# this boot's printk.kv= encoding. Writes $PKV_OUT/consumers.json: the
# record as kmsg2json reads it, then per consumer {consumer, how, text (what
# it shows as the message), fields (the record's own fields it carries:
# dictionary or _KERNEL_ fields other than dev_printk's SUBSYSTEM and
# DEVICE, or kmsg2json's), works (it showed the record)}.
# Runs before guest-compare.sh, which stops journald.
# pkv-time-limit: 120
. "$PKV_IN/lib/assert.sh"
want='no session found'
kdir=/run/pkv-kernel
mkdir -p "$kdir"
mountpoint -q "$kdir" ||
	mount -t 9p -o trans=virtio,version=9p2000.L,ro pkvkernel "$kdir" ||
	bail "cannot mount the build's share pkvkernel"
tmp=${TMPDIR:-/tmp}/pkv-consumers
rm -rf "$tmp"
mkdir -p "$tmp"
out=$tmp/consumers.jsonl
# consumer NAME HOW TEXT FIELDS: one line of $out.
# A field count jq could not give is null, which compare.py refuses.
consumer() {
	jq -n -c --arg c "$1" --arg how "$2" --arg text "$3" --argjson fields "${4:-null}" \
		'{consumer: $c, how: $how, text: $text, fields: $fields, works: ($text != "")}' >>"$out"
}
record=$(kmsg2json | jq -c --arg w "$want" 'select((.text | type) == "string" and (.text | contains($w)))' | tail -n 1)
[ -n "$record" ] || bail "no record with \"$want\" in /dev/kmsg (did l2tp.sh run?)"
seq=$(jq .seq <<<"$record")
NOKEYS='["SUBSYSTEM", "DEVICE", "_KERNEL_SUBSYSTEM", "_KERNEL_DEVICE"]'

# dmesg (util-linux), and its JSON.
consumer dmesg "dmesg --notime" "$(dmesg --notime | grep -F "$want" | tail -n 1)" 0
j=$(dmesg -J | jq -c --arg w "$want" '.dmesg[] | select(.msg | contains($w))' | tail -n 1)
j=${j:-'{}'}
consumer "dmesg -J" "dmesg -J: .msg" "$(jq -r '.msg // empty' <<<"$j")" \
	"$(jq --argjson no "$NOKEYS" '[keys[] | select(. as $k | ["pri", "time", "msg", "caller"] + $no | index($k) | not)] | length' <<<"$j")"
# kmsg2json: the text and the fields it took from the dictionary.
consumer kmsg2json "kmsg2json: .text, .fields" "$(jq -r '.text' <<<"$record")" "$(jq '.fields | length' <<<"$record")"
# journald, from /dev/kmsg.
journal_query "$tmp/journal.json" 1 -o json --grep "$want"
e=$(tail -n 1 "$tmp/journal.json")
e=${e:-'{}'}
consumer journald "journalctl -k -o json: MESSAGE, _KERNEL_*" "$(jq -r '.MESSAGE // empty' <<<"$e")" \
	"$(jq --argjson no "$NOKEYS" '[keys[] | select(startswith("_KERNEL_")) | select(. as $k | $no | index($k) | not)] | length' <<<"$e")"
# The same entry exported and imported again, as a fleet's collector does.
remote=/lib/systemd/systemd-journal-remote
if [ -x "$remote" ]; then
	journalctl -k -o export --grep "$want" -n 1 >"$tmp/entry.export" &&
		"$remote" --split-mode=none -o "$tmp/remote.journal" - <"$tmp/entry.export" >"$tmp/remote.log" 2>&1
	r=$(journalctl --file "$tmp/remote.journal" -o json 2>/dev/null | tail -n 1)
	r=${r:-'{}'}
	consumer systemd-journal-remote "journalctl -o export | systemd-journal-remote; journalctl --file: MESSAGE, _KERNEL_*" \
		"$(jq -r '.MESSAGE // empty' <<<"$r")" \
		"$(jq --argjson no "$NOKEYS" '[keys[] | select(startswith("_KERNEL_")) | select(. as $k | $no | index($k) | not)] | length' <<<"$r")"
else
	fail "$remote: not in the guest image (Debian package systemd-journal-remote)"
	consumer systemd-journal-remote "not installed" "" 0
fi
# drgn's printk helper on the running kernel.
python3 "$PKV_IN/lib/drgn_printk.py" "$kdir/vmlinux" "$tmp/drgn.json" "$want" 2>"$tmp/drgn.err" ||
	{ fail "drgn_printk.py:"; cat "$tmp/drgn.err"; }
consumer drgn "get_printk_records(): .text, .context" "$(jq -r '.sample.drgn // empty' "$tmp/drgn.json" 2>/dev/null)" \
	"$(jq --argjson no "$NOKEYS" '.sample.drgn_context // {} | [keys[] | select(. as $k | $no | index($k) | not)] | length' "$tmp/drgn.json" 2>/dev/null)"

jq -s -c --argjson record "$record" '{record: $record, consumers: .}' "$out" >"$PKV_OUT/consumers.json"
check_file "$PKV_OUT/consumers.json" "every consumer showed the record (seq $seq), with a field count" true \
	'.[0].consumers | length == 6 and all(.works and (.fields | type) == "number")'
check_file "$PKV_OUT/consumers.json" "every consumer showed the same message" true \
	'[.[0].consumers[].text] | unique | length == 1'
finish
