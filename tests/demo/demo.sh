# ./pkv demo, in the guest: structured records of the converted code as JSON,
# queries by field with kmsg2json, and journalctl answering by field.
say() { printf '\n== %s\n' "$*"; }
say "kernel $(uname -r), built from the series: $(cut -d' ' -f1-4 /proc/version)"
kv=$(cat /sys/module/printk/parameters/kv)
say "printk.kv=$kv: printk_kv records keep their fields $(case $kv in
	text) echo "in a block of their text" ;; dict) echo "out of band, after their text" ;;
	*) echo "nowhere (the baseline)" ;; esac) (./pkv demo --kv text|dict|off)"
modprobe test_printk_kv
modprobe l2tp_netlink && modprobe l2tp_eth
echo 'module l2tp_core +p' >/proc/dynamic_debug/control
ip link set lo up
ip l2tp add tunnel tunnel_id 4 peer_tunnel_id 4 encap udp local 127.0.0.1 remote 127.0.0.1 \
	udp_sport 5000 udp_dport 5001
ip l2tp add session tunnel_id 4 session_id 7 peer_session_id 7 peer_cookie 0a0b0c0d
pkv-udpsend 127.0.0.1 5000 0003000000000063000000000000 5001	# unknown session 99
pkv-udpsend 127.0.0.1 5000 00030000000000070eadbeef000000000000 5001	# wrong cookie
sleep 1

say "dmesg: what a person reads$([ "$kv" = text ] && echo " (an unchanged pr_info() gains the static fields)")"
dmesg | grep -E 'l2tp_core|test_printk_kv' | grep -E 'L2TP core|no session|cookie|hostile|tests passed' | cut -c1-190

say "/dev/kmsg: one record as journald reads it (PRINTK_KV: the kernel's mark and the typed fields)"
kmsg2json --match session=99 | jq -r '"\(.level),\(.seq),\(.ts_usec),-;\(.text)", (.dict | to_entries[] | " \(.key)=\(.value)")'

say "kmsg2json --structured-only --match subsys=l2tp: the same records as data"
kmsg2json --structured-only --match subsys=l2tp | jq -c '{level, kv, text, fields}'

say "kmsg2json --match test=hostile --pretty: a hostile string, exact, no forged field"
kmsg2json --match test=hostile --pretty | jq '{fields, dict_agrees}'

say "journalctl -k _KERNEL_TUNNEL=4 _KERNEL_SESSION=7: journald indexes the fields"
journalctl -k -o json _KERNEL_TUNNEL=4 _KERNEL_SESSION=7 |
	jq -c '{MESSAGE, _KERNEL_MOD, _KERNEL_SUBSYS, _KERNEL_COOKIE_LEN, PRIORITY}'

say "journalctl -k -o json | jq: structured kernel records per module"
journalctl -k -o json | jq -s -c '[.[] | select(._KERNEL_MOD != null)] | group_by(._KERNEL_MOD)
	| map({mod: .[0]._KERNEL_MOD, records: length})'
