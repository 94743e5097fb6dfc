# drivers/isdn/mISDN: the core and l1oip (layer 1 over IP), loaded with module
# parameters for two BRI cards on loopback, then crafted UDP packets to their
# ports and two loads that fail on bad parameters.
# pkv-time-limit: 150
. "$PKV_IN/lib/assert.sh"
ip link set lo up
modprobe mISDN_core debug=0xff || bail "modprobe mISDN_core"
# Card 1 has no id (the driver warns), card 2 has id 0x1234.
modprobe l1oip type=1,1 codec=0,0 ip=127,0,0,1,127,0,0,1 port=5070,5072 \
	remoteport=5071,5073 id=0,0x1234 debug=0x10000 || bail "modprobe l1oip"
send() { pkv-udpsend 127.0.0.1 "$1" "$2" || fail "pkv-udpsend $1 $2"; }
# Packet errors are net_ratelimit()ed: a burst of 13 in a window that the
# first packet opens (the old one has ended) and that lasts the test.
sysctl -q -w net.core.message_burst=13 net.core.message_cost=1 || bail "sysctl net.core.message_*"
sleep 2
send 5070 0000		# 2 bytes
sysctl -q -w net.core.message_cost=600 || bail "sysctl net.core.message_cost"
send 5070 c0000000	# version 3
send 5070 20000000	# E1 packet on a BRI card
send 5070 05000000	# codec 5
send 5070 1000000000	# an id, the card has none
send 5070 0000000001	# channel 0
send 5070 0005000001	# channel 5: a BRI card has 1, 2 and the D channel 3
send 5070 0081050000	# multiframe of 5 bytes in a 5-byte packet
send 5072 100000009900000001	# id 0x99, the card has 0x1234
send 5072 0001000001	# no id, the card has one
# A flood from the network: 3 of the burst are left for its 20 packets.
for i in $(seq 20); do send 5072 c0000000; done
sleep 1
sysctl -q -w net.core.message_burst=10 net.core.message_cost=5
rmmod l1oip
modprobe l1oip type=1 codec=7 2>/dev/null && fail "l1oip accepted codec 7"
modprobe l1oip type=9 2>/dev/null && fail "l1oip accepted card type 9"
kmsg_capture

L='.fields.mod == "l1oip"'
M='.fields.mod == "mISDN_core"'
F="$L and .fields.card == \"l1oip-s0.2\" and .fields.version == 3"
P="$L and (human | contains(\"packet error\")) and ($F | not)"
check "the converted records of l1oip and the core: the module" "$L or $M" \
	'length >= 20 and all(.structured and (.fields.mod | test("^(l1oip|mISDN_core)$")))'
check_encoding "$L or $M"
check "the records left as printk(): the unconverted text, no field, under every encoding" \
	'(.text | startswith("mISDN: Layer-1-over-IP driver Rev.")) or (.text | startswith("Modular ISDN core version"))' \
	'length >= 2 and all(.structured | not) and all(.fields == {} and .dict == {} and has("kv") == false)'
# What a person reads is the unconverted kernel's text, under every encoding.
check "load: two cards registered, one record" "$L and .fields.cards != null" \
	'length == 1 and .[0].level == 6 and .[0].fields.cards == 2 and (.[0] | human) == "2 virtual devices registered"'
check "card 1 has no id: a warning naming the card" "$L and (human | startswith(\"Warning: No\"))" \
	'length == 1 and .[0].level == 4 and .[0].fields.card == "l1oip-s0.1" and (.[0] | human) ==
	 "Warning: No '"'id'"' value given or 0, this is highly unsecure. Please use 32 bit random number 0x..."'
check "debug=0x10000: each card's addresses as fields" "$L and .fields.local_port != null" \
	'length == 2 and .[0].level == 7 and [.[].fields | {card, local_port, remote_ip, remote_port, ondemand}] ==
	 [{"card": "l1oip-s0.1", "local_port": 5070, "remote_ip": "127.0.0.1", "remote_port": 5071, "ondemand": false},
	  {"card": "l1oip-s0.2", "local_port": 5072, "remote_ip": "127.0.0.1", "remote_port": 5073, "ondemand": false}]
	 and [.[] | human] == ["init_card: using local port 5070 remote ip 127.0.0.1 port 5071 ondemand 0",
	  "init_card: using local port 5072 remote ip 127.0.0.1 port 5073 ondemand 0"]'
check "card 2's id, in hexadecimal" "$L and (human | startswith(\"init_card: using id\"))" \
	'[.[].fields | {card, id}] == [{"card": "l1oip-s0.1", "id": 0}, {"card": "l1oip-s0.2", "id": 4660}]
	 and [.[] | human] == ["init_card: using id 0x0", "init_card: using id 0x1234"]'
check "the core: each card registered with its id, protocols and B channels" "$M and (human | startswith(\"mISDN_register \"))" \
	'length == 2 and [.[].fields.card] == ["l1oip-s0.1", "l1oip-s0.2"] and all(.fields.bchannels == 2)
	 and .[0].fields.id != .[1].fields.id and all(human == "mISDN_register \(.fields.card) \(.fields.id)")'
check "the core: each card unregistered on rmmod" "$M and (human | startswith(\"mISDN_unregister \"))" \
	'([.[].fields.card] | sort) == ["l1oip-s0.1", "l1oip-s0.2"] and all(human == "mISDN_unregister \(.fields.card) \(.fields.id)")'
check "one warning per bad packet, in order, at warning level, as the unconverted kernel words it" "$P" \
	'all(.level == 4) and [.[] | human] == ["l1oip_socket_parse: packet error - length 2 below 4 bytes",
	 "l1oip_socket_parse: packet error - unknown version 3",
	 "l1oip_socket_parse: packet error - received E1 packet on S0 interface",
	 "l1oip_socket_parse: packet error - remotecodec 5 unsupported",
	 "l1oip_socket_parse: packet error - packet has id 0x1, but we have not",
	 "l1oip_socket_recv: packet error - channel 0 out of range",
	 "l1oip_socket_recv: packet error - channel 5 not in stack",
	 "l1oip_socket_parse: packet error - length 5 at position 2 exceeds total length 5.",
	 "l1oip_socket_parse: packet error - ID mismatch, got 0x99, we 0x1234",
	 "l1oip_socket_parse: packet error - packet has no ID, but we have"]'
check "packet errors: the values of each packet" "$P" \
	'map(.fields | del(.mod)) == [{"card": "l1oip-s0.1", "len": 2},
	 {"card": "l1oip-s0.1", "version": 3, "expected": 0}, {"card": "l1oip-s0.1"},
	 {"card": "l1oip-s0.1", "codec": 5}, {"card": "l1oip-s0.1", "id": 1},
	 {"card": "l1oip-s0.1", "channel": 0}, {"card": "l1oip-s0.1", "channel": 5},
	 {"card": "l1oip-s0.1", "frame_len": 5, "offset": 2, "len": 5},
	 {"card": "l1oip-s0.2", "id": 153, "expected": 4660}, {"card": "l1oip-s0.2"}]'
check "a flood of 20 bad packets: ratelimited as the network stack is, 3 records" "$F" \
	'length == 3 and all(.level == 4 and (human == "l1oip_socket_parse: packet error - unknown version 3"))'
check "codec 7: the load fails with the card and the codec" "$L and (human | startswith(\"Codec(\"))" \
	'length == 1 and .[0].level == 3 and .[0].fields.card == "l1oip-s0.1" and .[0].fields.codec == 7
	 and (.[0] | human) == "Codec(7) not supported."'
check "card type 9: the load fails with the index and the type" "$L and (human | startswith(\"Card type(\"))" \
	'length == 1 and .[0].fields.index == 0 and .[0].fields.type == 9 and (.[0] | human) == "Card type(9) not supported."'
J=/tmp/misdn-journal.json
journal_query "$J" 5 _KERNEL_MOD=l1oip _KERNEL_CARD=l1oip-s0.2 PRIORITY=4
check_file "$J" "journalctl _KERNEL_CARD=l1oip-s0.2 PRIORITY=4: card 2's two packet errors, the flood's three" 'true' \
	'length == 5 and .[0]._KERNEL_EXPECTED == "0x1234" and .[0]._KERNEL_ID == "0x99"
	 and ([.[2:][]._KERNEL_VERSION] == ["3", "3", "3"])'

# rmmod while the stack thread has a message to deliver: l1oip sends
# PH_DEACTIVATE_IND up an active D channel (the packet to channel 3 activates
# it) just before it unregisters the card. Before patch 0018, delete_stack()
# freed the TEI manager under the running thread: a fault within a few
# rounds, and rmmod blocked for ever on the stack's mutex. The race needs the
# thread and rmmod on the two CPUs at once, so nothing else runs meanwhile:
# the shell waits in wait(), and the watchdog that ends a blocked wait
# sleeps from before rmmod starts.
trap 'rmmod_timed_out=1' USR1
rounds=0
for round in 1 2 3 4 5 6 7 8; do
	modprobe l1oip type=1,1 codec=0,0 ip=127,0,0,1,127,0,0,1 port=5070,5072 \
		remoteport=5071,5073 id=0,0x1234 debug=0x10000 ||
		{ fail "teardown round $round: modprobe l1oip"; break; }
	for p in 0000000001 0005000001 0081050000 0000000003 0003000000; do send 5070 $p; done
	rmmod_timed_out=0
	(sleep 30 && kill -USR1 $$) &
	watchdog=$!
	sleep 0.3
	rmmod l1oip &
	wait $!
	rc=$?
	kill $watchdog 2>/dev/null
	if [ $rmmod_timed_out = 1 ]; then
		fail "teardown round $round: rmmod l1oip still running after 30 s"
		break
	fi
	[ $rc -eq 0 ] || { fail "teardown round $round: rmmod l1oip exited $rc"; break; }
	rounds=$round
done
trap - USR1
check_equal "rmmod with a D channel active: 8 rounds of load, packets, unload" "$rounds" 8
check_equal "no kernel fault in this boot" \
	"$(dmesg | grep -E 'general protection fault|BUG:|Oops:|Call Trace:' | head -3)" ""
finish
