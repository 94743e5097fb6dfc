# drivers/net/ethernet/cirrus/cs89x0 (CONFIG_CS89x0_PLATFORM): a platform
# device from the pkv_cs89x0_dev fixture whose register window holds no chip,
# so the probe fails the way it does on a board without one: wrong signature.
# pkv-time-limit: 90
. "$PKV_IN/lib/assert.sh"
modprobe pkv_cs89x0_dev || bail "modprobe pkv_cs89x0_dev"
addr=$(printf '%x' "$(cat /sys/module/pkv_cs89x0_dev/parameters/addr)")
# The probe is __init: the driver binds only the devices present at load time.
modprobe cs89x0 dyndbg=+p 2>/dev/null && fail "cs89x0 bound a device with no chip behind it"
kmsg_capture
# The device's own resource stays; the driver's request inside it must be gone.
[ "$(grep -c "^ *$addr-" /proc/iomem)" -eq 1 ] ||
	{ fail "the failed probe left its claim on $addr:"; grep -n "$addr" /proc/iomem; }
C='.fields.mod == "cs89x0"'
check "every cs89x0 record carries the module and the call site" "$C" \
	'length >= 3 and all(.structured and .fields.mod == "cs89x0")'
check_encoding "$C"
# What a person reads: the unconverted kernel's text (%p hashed), except the
# failure, now reported on the platform device, which dev_printk() names.
check "the three records in probe order, as the unconverted kernel words them" "$C" \
	'length == 3 and (.[0] | human | test("^cs89x0: PP_addr at [0-9a-f]+\\[a\\]: 0x[0-9a-f]+$"))
	 and (.[1] | human | test("^cs89x0: eth%d: incorrect signature at [0-9a-f]+\\[c\\]: 0x[0-9a-f]+!=0x630E$"))
	 and (.[2] | human == "cs89x0 cs89x0: no cs8900 or cs8920 detected")'
check "the address port: a plain pr_debug(), static fields only" "$C and (human | contains(\"PP_addr\"))" \
	'length == 1 and .[0].level == 7 and (.[0].fields | keys) == ["mod"]'
check "wrong signature: the port, what was read, what a CS89x0 returns" "$C and (human | contains(\"incorrect signature\"))" \
	'length == 1 and .[0].level == 7 and .[0].fields.port == 12 and .[0].fields.expected == 25358
	 and .[0].fields.signature != 25358 and ([.[0].fields | keys[]] == ["expected", "mod", "port", "signature"])'
check "the probe's failure: on the platform device, with its errno and dictionary" "$C and (human | contains(\"no cs8900\"))" \
	'length == 1 and .[0].level == 4 and .[0].fields.drv == "cs89x0" and .[0].fields.dev == "cs89x0"
	 and .[0].fields.err == "-ENODEV" and .[0].dict.SUBSYSTEM == "platform"
	 and .[0].dict.DEVICE == "+platform:cs89x0" and .[0].dict_agrees'
J=/tmp/cs89x0-journal.json
journal_query "$J" 1 _KERNEL_DEVICE=+platform:cs89x0 _KERNEL_ERR=-ENODEV
check_file "$J" "journalctl _KERNEL_DEVICE=+platform:cs89x0 _KERNEL_ERR=-ENODEV: the failure only" 'true' \
	'length == 1 and .[0]._KERNEL_SUBSYSTEM == "platform" and .[0]._KERNEL_DRV == "cs89x0" and .[0].PRIORITY == "4"'
finish
