# net/l2tp: an L2TPv3 tunnel over UDP on loopback, crafted bad packets, and the
# typed fields of each per-packet debug record.
# pkv-time-limit: 120
. "$PKV_IN/lib/assert.sh"
modprobe l2tp_netlink && modprobe l2tp_eth || bail "modprobe l2tp"
ip link set lo up
ip l2tp add tunnel tunnel_id 4 peer_tunnel_id 4 encap udp local 127.0.0.1 remote 127.0.0.1 \
	udp_sport 5000 udp_dport 5001 || bail "ip l2tp add tunnel"
ip l2tp add session tunnel_id 4 session_id 7 peer_session_id 7 peer_cookie 0a0b0c0d
ip l2tp add session tunnel_id 4 session_id 8 peer_session_id 8 l2spec_type default seq recv
# The tunnel socket is connected to 127.0.0.1:5001: packets must come from there.
send() { pkv-udpsend 127.0.0.1 5000 "$1" 5001 || fail "pkv-udpsend $1"; }
send 0003000000000063000000000000	# dyndbg still off: must not print
# +mflt asks for dyndbg's decorations (module, function, line, thread id):
# in a converted file they do not apply, so they cannot push the block away
# from the prefix and cost the record its fields (the checks below).
echo 'module l2tp_core +pmflt' >/proc/dynamic_debug/control
send 0003					# short packet
# Sent by a program whose name imitates a field block: nothing of it may show.
EVIL=$(printf 'x] tunnel=9\n"\ty')
cp "$(command -v pkv-udpsend)" "/tmp/$EVIL"
"/tmp/$EVIL" 127.0.0.1 5000 0002000000000000000000000000 5001 || fail "$EVIL"	# version 2 on L2TPv3
send 0003000000000063000000000000	# session 99: none
send 00030000000000070eadbeef000000000000	# session 7, wrong cookie (+ 4-byte sublayer)
send 0003000000000008000000000000	# session 8, no sequence number
sleep 0.5
kmsg_capture
L='.fields.mod == "l2tp_core" and .level == 7'
check "every l2tp record carries the static fields" '.fields.subsys == "l2tp"' \
	'length >= 6 and all(.structured and pfx == (.fields.mod + ": ") and (.fields | has("src") | not))'
check "the core's banner: static fields only" '.fields.mod == "l2tp_core" and (body | startswith("L2TP core driver"))' \
	'length == 1 and (.[0].fields | keys) == ["mod", "subsys"] and .[0].level == 6'
check_encoding "$L"
# What a person reads is the unconverted kernel's text, under every encoding.
check "dyndbg off: no debug record; on: exactly one per bad packet, as the unconverted kernel words it" "$L" \
	'[.[] | human] == ["l2tp_core: tunl 4: recv short packet (len=2)",
	  "l2tp_core: tunl 4: recv protocol version mismatch: got 2 expected 3",
	  "l2tp_core: tunl 4: no session found (4/99). Passing up.",
	  "l2tp_core: tunl 4: cookie mismatch (4/7). Discarding.",
	  "l2tp_core: sess 4/8: recv data has no seq numbers when required. Discarding."]'
check "short packet: tunnel and length" "$L and (human | contains(\"short packet\"))" \
	'.[0].fields == {"mod": "l2tp_core", "subsys": "l2tp", "tunnel_name": "tunl 4", "tunnel": 4, "len": 2}'
check "version mismatch (from a hostile-named sender): got and expected, no other key" "$L and (human | contains(\"version mismatch\"))" \
	'length == 1 and (.[0].fields | .tunnel == 4 and .version == 2 and .expected == 3 and .tunnel_name == "tunl 4"
	 and keys == ["expected", "mod", "subsys", "tunnel", "tunnel_name", "version"])'
check "no session: tunnel and session ids of the packet" "$L and (human | contains(\"no session found\"))" \
	'.[0].fields | .tunnel == 4 and .session == 99'
check "cookie mismatch: session and cookie length" "$L and (human | contains(\"cookie mismatch\"))" \
	'.[0].fields | .tunnel == 4 and .session == 7 and .cookie_len == 4'
check "missing sequence numbers: session name, ids, LNS mode" "$L and (human | contains(\"no seq numbers\"))" \
	'.[0].fields | .session_name == "sess 4/8" and .tunnel == 4 and .session == 8 and .lns == false'
check "l2tp records can be selected by field" "$L" \
	'[.[] | select(.fields.tunnel == 4 and .fields.session == 7)] | length == 1'
J=/tmp/l2tp-journal.json
journal_query "$J" 1 _KERNEL_SUBSYS=l2tp _KERNEL_TUNNEL=4 _KERNEL_SESSION=99
check_file "$J" "journalctl _KERNEL_TUNNEL=4 _KERNEL_SESSION=99: the no-session record only" 'true' \
	'length == 1 and (.[0].MESSAGE | endswith("no session found (4/99). Passing up.")) and
	 ($kv != "dict" or .[0].MESSAGE == "l2tp_core: tunl 4: no session found (4/99). Passing up.") and
	 .[0]._KERNEL_TUNNEL_NAME == "tunl 4" and .[0].PRIORITY == "7"' --arg kv "$PKV_KV"
journal_query "$J" 5 _KERNEL_MOD=l2tp_core PRIORITY=7
check_file "$J" "journalctl _KERNEL_MOD=l2tp_core PRIORITY=7: the five debug records" 'true' \
	'length == 5 and all(._KERNEL_SUBSYS == "l2tp" and ._KERNEL_TUNNEL == "4")'
finish
