# ./pkv demo, in the guest: the converted code's records as JSON, then journalctl.
echo "== kernel: $(uname -r)"
for m in pkv_oot_demo test_printk_kv l2tp_core l2tp_eth mISDN_core; do
	modprobe -q "$m" 2>/dev/null && echo "== loaded $m"
done
echo
echo "== kmsg2json --structured-only (last 8 structured records)"
kmsg2json --structured-only | tail -n 8 | jq -c '{seq, level, prefix, fields, msg}'
echo
echo "== one record in full: kmsg2json --structured-only --pretty --match mod=pkv_oot_demo"
kmsg2json --structured-only --pretty --match mod=pkv_oot_demo | tail -n 40
echo
echo "== journalctl -k -o json | jq: kernel records of the last module loaded"
journalctl -k -o json | jq -c 'select((.MESSAGE | type) == "string" and (.MESSAGE | contains("[kv mod=")))
	| {seq: ._KERNEL_SEQNUM? , MESSAGE, SYSLOG_IDENTIFIER, PRIORITY}' | tail -n 5
