# The guest runs the kernel built from the series, and its boot records are in
# the journal and in kmsg2json's output.
# pkv-time-limit: 60
. "$PKV_IN/lib/assert.sh"
. "$PKV_IN/env"

J=/tmp/journal-k.json
journalctl -k -b -o json >"$J"
check_file "$J" "journal has the kernel's boot records" '._TRANSPORT == "kernel"' 'length > 100'
check_file "$J" "journal's Linux version record names the release and the series" \
	'.MESSAGE | type == "string" and startswith("Linux version ")' \
	'length == 1 and (.[0].MESSAGE | contains("Linux version " + $rel + " (pkv@" + $host + ")"))' \
	--arg rel "$PKV_KERNEL_RELEASE" --arg host "$PKV_KERNEL_BUILD_HOST"
[ "$(uname -r)" = "$PKV_KERNEL_RELEASE" ] && pass "uname -r is $PKV_KERNEL_RELEASE" ||
	fail "uname -r is $(uname -r), expected $PKV_KERNEL_RELEASE"

want=text
for a in $(cat /proc/cmdline); do
	case $a in printk.kv=*) want=${a#printk.kv=} ;; esac
done
check_equal "printk.kv= is the encoding the command line chose" "$PKV_KV" "$want"

kmsg_capture
check "kmsg2json sees the Linux version record first" '.seq == 0' \
	'length == 1 and (.[0].text | startswith("Linux version " + $rel))' --arg rel "$PKV_KERNEL_RELEASE"
check "every kmsg2json object is a well-formed record" 'true' \
	'all(has("seq") and has("text") and (has("error") | not))'
check "seqs are consecutive from 0, no gaps" 'has("seq")' \
	'[.[].seq] == [range(0; length)]'
check "caller ids are present (CONFIG_PRINTK_CALLER)" 'true' 'all(.caller | test("^[TC][0-9]+$"))'
check "virtio devices carry SUBSYSTEM/DEVICE dictionaries" '.dict.SUBSYSTEM == "virtio"' \
	'length > 0 and all(.dict.DEVICE | startswith("+virtio:"))'
# kmsg2json -o short prints what dmesg prints: every line of the records both
# read (dmesg first; records written in between are only kmsg2json's).
dmesg >/tmp/dmesg.txt
kmsg2json -o short >/tmp/short.txt || fail "kmsg2json -o short exited $?"
n=$(wc -l </tmp/dmesg.txt)
diffs=$(head -n "$n" /tmp/short.txt | diff /tmp/dmesg.txt - | head -4)
check_equal "kmsg2json -o short prints dmesg's $n lines, byte for byte" \
	"$([ "$n" -gt 100 ] && echo "${diffs:-same}" || echo "only $n lines")" same
finish
