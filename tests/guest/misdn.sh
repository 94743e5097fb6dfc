# drivers/isdn/mISDN: the core and l1oip (layer 1 over IP), loaded with module
# parameters for two BRI cards on loopback, then crafted UDP packets to their
# ports and two loads that fail on bad parameters.
. "$PKV_IN/lib/assert.sh"
ip link set lo up
modprobe mISDN_core debug=0xff || { echo "FAIL modprobe mISDN_core"; exit 1; }
# Card 1 has no id (the driver warns), card 2 has id 0x1234.
modprobe l1oip type=1,1 codec=0,0 ip=127,0,0,1,127,0,0,1 port=5070,5072 \
	remoteport=5071,5073 id=0,0x1234 debug=0x10000 || { echo "FAIL modprobe l1oip"; exit 1; }
send() { pkv-udpsend 127.0.0.1 "$1" "$2" || echo "FAIL pkv-udpsend $1 $2"; }
send 5070 0000		# 2 bytes
send 5070 c0000000	# version 3
send 5070 20000000	# E1 packet on a BRI card
send 5070 05000000	# codec 5
send 5070 1000000000	# an id, the card has none
send 5070 0000000001	# channel 0
send 5070 0005000001	# channel 5: a BRI card has 1, 2 and the D channel 3
send 5070 0081050000	# multiframe of 5 bytes in a 5-byte packet
send 5072 100000009900000001	# id 0x99, the card has 0x1234
send 5072 0001000001	# no id, the card has one
sleep 1
rmmod l1oip
modprobe l1oip type=1 codec=7 2>/dev/null && echo "FAIL l1oip accepted codec 7"
modprobe l1oip type=9 2>/dev/null && echo "FAIL l1oip accepted card type 9"
kmsg_capture

L='.fields.mod == "l1oip"'
M='.fields.mod == "mISDN_core"'
P="$L and (body | startswith(\"packet error\"))"
check "every l1oip and mISDN core record carries the module and the call site" "$L or $M" \
	'length >= 20 and all(.structured and pfx == .fields.mod + ": "
	  and (.fields.src | test("^(l1oip_core|core|stack|layer[12]|tei|socket|clock|fsm|hwchannel|timerdev)\\.c:[0-9]+$")))'
check "load: two cards registered, one record" "$L and body == \"virtual devices registered\"" \
	'length == 1 and .[0].level == 6 and .[0].fields.cards == 2'
check "card 1 has no id: a warning naming the card" "$L and (body | startswith(\"no id given\"))" \
	'length == 1 and .[0].level == 4 and .[0].fields.card == "l1oip-s0.1"'
check "debug=0x10000: each card's addresses as fields" "$L and body == \"using addresses\"" \
	'length == 2 and .[0].level == 7 and [.[].fields | {card, local_port, remote_ip, remote_port, ondemand}] ==
	 [{"card": "l1oip-s0.1", "local_port": 5070, "remote_ip": "127.0.0.1", "remote_port": 5071, "ondemand": false},
	  {"card": "l1oip-s0.2", "local_port": 5072, "remote_ip": "127.0.0.1", "remote_port": 5073, "ondemand": false}]'
check "card 2's id, in hexadecimal" "$L and body == \"using id\"" \
	'[.[].fields | {card, id}] == [{"card": "l1oip-s0.1", "id": 0}, {"card": "l1oip-s0.2", "id": 4660}]'
check "the core: each card registered with its id, protocols and B channels" "$M and body == \"device registered\"" \
	'length == 2 and [.[].fields.card] == ["l1oip-s0.1", "l1oip-s0.2"] and all(.fields.bchannels == 2)
	 and .[0].fields.id != .[1].fields.id'
check "the core: each card unregistered on rmmod" "$M and body == \"device unregistered\"" \
	'[.[].fields.card] | sort == ["l1oip-s0.1", "l1oip-s0.2"]'
check "one warning per bad packet, in order, at warning level" "$P" \
	'all(.level == 4) and [.[] | body] == ["packet error: shorter than 4 bytes", "packet error: unknown version",
	 "packet error: E1 packet on an S0 interface", "packet error: codec unsupported",
	 "packet error: packet has an id, the card has none", "packet error: channel out of range",
	 "packet error: channel not in the stack", "packet error: frame exceeds the packet",
	 "packet error: id mismatch", "packet error: packet has no id, the card has one"]'
check "packet errors: the values of each packet" "$P" \
	'map(.fields | del(.mod, .src)) == [{"card": "l1oip-s0.1", "len": 2},
	 {"card": "l1oip-s0.1", "version": 3, "expected": 0}, {"card": "l1oip-s0.1"},
	 {"card": "l1oip-s0.1", "codec": 5}, {"card": "l1oip-s0.1"},
	 {"card": "l1oip-s0.1", "channel": 0}, {"card": "l1oip-s0.1", "channel": 5},
	 {"card": "l1oip-s0.1", "frame_len": 5, "offset": 2, "len": 5},
	 {"card": "l1oip-s0.2", "id": 153, "expected": 4660}, {"card": "l1oip-s0.2"}]'
check "codec 7: the load fails with the card and the codec" "$L and body == \"codec not supported\"" \
	'length == 1 and .[0].level == 3 and .[0].fields.card == "l1oip-s0.1" and .[0].fields.codec == 7'
check "card type 9: the load fails with the index and the type" "$L and body == \"card type not supported\"" \
	'length == 1 and .[0].fields.index == 0 and .[0].fields.type == 9'
J=/tmp/misdn-journal.json
journal_query "$J" 1 _KERNEL_MOD=l1oip _KERNEL_CARD=l1oip-s0.2 PRIORITY=4
check_file "$J" "journalctl _KERNEL_CARD=l1oip-s0.2 PRIORITY=4: card 2's two packet errors" 'true' \
	'length == 2 and .[0]._KERNEL_EXPECTED == "0x1234" and .[0]._KERNEL_ID == "0x99"'
finish
