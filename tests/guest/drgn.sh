# What drgn reads from the running kernel's log (Debian's python3-drgn,
# get_printk_records() over /proc/kcore, the build's vmlinux from the host
# share pkvkernel): for every record it holds, exactly the text /dev/kmsg
# shows. Under dict that text has no field: the dictionary stored after the
# text in the data block is past text_len, which drgn, crash and syslog(2)
# read to; under text the block is part of the text, and drgn sees it.
# (Under both, /dev/kmsg adds the fields as dictionary lines.)
# pkv-time-limit: 90
. "$PKV_IN/lib/assert.sh"
kdir=/run/pkv-kernel
mkdir -p "$kdir"
mountpoint -q "$kdir" ||
	mount -t 9p -o trans=virtio,version=9p2000.L,ro pkvkernel "$kdir" ||
	bail "cannot mount the build's share pkvkernel"
[ -f "$kdir/vmlinux" ] || bail "no vmlinux in the build's share"
# The selftest's records (its KV_MSG() record among them) are there already
# when selftest.sh ran in this boot; loading it prints them otherwise.
modprobe test_printk_kv || bail "modprobe test_printk_kv"
out=${TMPDIR:-/tmp}/pkv-drgn.json
t0=$(date +%s)
if ! python3 "$PKV_IN/lib/drgn_printk.py" "$kdir/vmlinux" "$out" 2>"$out.err"; then
	sed 's/^/# /' "$out.err"
	bail "drgn could not read the log"
fi
echo "# drgn took $(($(date +%s) - t0)) s (TCG); $(head -c 300 "$out.err")"
cp "$out" "$PKV_OUT/drgn.json" 2>/dev/null
check_file "$out" "drgn read the log, and the records /dev/kmsg holds" true \
	'.[0] | .drgn > 100 and .compared >= .drgn - 1'
check_file "$out" "every record's text is the same in drgn and /dev/kmsg" true \
	'.[0].ndiffer == 0'
check_file "$out" "the selftest's KV_MSG() record is among them" true \
	'.[0].sample != null'
# The selftest record as each side reads it, for the log.
jq -r '.sample | "     drgn: \(.drgn)\n     kmsg: \(.kmsg)\n     dict: \(.dict | join(" "))"' "$out"
case $PKV_KV in
text)
	check_file "$out" "text: drgn reads the field block, it is in the text" true \
		'.[0].sample | (.drgn | startswith("test_printk_kv: [kv ")) and (.drgn | endswith("] printf-style message: 42% of it"))'
	;;
dict)
	check_file "$out" "dict: drgn reads the text only; the fields are in /dev/kmsg's dictionary" true \
		'.[0].sample | .drgn == "test_printk_kv: printf-style message: 42% of it"
		 and any(.dict[]; startswith("PRINTK_KV=")) and (.dict | index("N=42")) != null'
	;;
off)
	check_file "$out" "off: drgn reads the text, there is no field anywhere" true \
		'.[0].sample | .drgn == "test_printk_kv: printf-style message: 42% of it" and .dict == []'
	;;
*) fail "unknown printk.kv encoding '$PKV_KV'" ;;
esac
finish
