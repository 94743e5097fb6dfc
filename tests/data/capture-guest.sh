# Guest script that produced guest-boot.kmsg and guest-boot.dmesg.json:
#   ./pkv run --out /tmp/cap tests/data/capture-guest.sh
#   cp /tmp/cap/capture-guest.sh/* tests/data/
# The raw records of /dev/kmsg after boot, with the selftest's and l2tp's
# structured records, and util-linux dmesg -J of the same buffer.
modprobe test_printk_kv
modprobe l2tp_eth
printf 'user a"b\\c]\001\377 [kv x=1]' >/sys/kernel/debug/test_printk_kv/run
sleep 1
# One read() per record, as /dev/kmsg returns them; stops at EAGAIN.
dd if=/dev/kmsg iflag=nonblock bs=8192 of="$PKV_OUT/guest-boot.kmsg" 2>/dev/null
dmesg -J >"$PKV_OUT/guest-boot.dmesg.json"
dmesg --version
