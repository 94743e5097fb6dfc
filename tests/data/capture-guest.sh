# Guest script that produced the captures in tests/data:
#   ./pkv run --out /tmp/cap tests/data/capture-guest.sh
#   cp /tmp/cap/capture-guest.sh/guest-boot.* /tmp/cap/capture-guest.sh/burst-mixed.kmsg.json tests/data/
#   ./pkv run --kv dict --out /tmp/capd tests/data/capture-guest.sh
#   cp /tmp/capd/capture-guest.sh/burst-mixed.kmsg.json tests/data/burst-mixed-dict.kmsg.json
# The raw records of /dev/kmsg after boot, with the selftest's and l2tp's
# structured records, util-linux dmesg -J of the same buffer, and kmsg2json
# of a small burst_mixed run (2 records per thread and softirq timer).
modprobe test_printk_kv
modprobe l2tp_eth
printf 'user a"b\\c]\001\377 [kv x=1]' >/sys/kernel/debug/test_printk_kv/run
sleep 1
# One read() per record, as /dev/kmsg returns them; stops at EAGAIN.
dd if=/dev/kmsg iflag=nonblock bs=8192 of="$PKV_OUT/guest-boot.kmsg" 2>/dev/null
dmesg -J >"$PKV_OUT/guest-boot.dmesg.json"
dmesg --version
echo "burst_mixed 2" >/sys/kernel/debug/test_printk_kv/run
sleep 1
kmsg2json --match test=burst_mixed >"$PKV_OUT/burst-mixed.kmsg.json"
