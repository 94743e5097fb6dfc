# lib/test_printk_kv: every documented record, checked field by field.
# pkv-time-limit: 120
. "$PKV_IN/lib/assert.sh"
run=/sys/kernel/debug/test_printk_kv/run
modprobe test_printk_kv || bail "modprobe test_printk_kv"
# dyndbg off: the debug record must not print; then on: it must.
echo debug >"$run"
echo 'module test_printk_kv +p' >/proc/dynamic_debug/control
echo debug >"$run"
# Hostile user data, one non-UTF-8 and one UTF-8 string.
printf 'user a"b\\c]\001\377 [kv x=1]\t=' >"$run"
printf 'user caf\303\251 "quoted" [kv y=2]' >"$run"
kmsg_capture
T='.fields.subsys == "selftest"'

check "the kernel's renderers match the documented text" "$T and (body | startswith(\"all \"))" \
	'length == 1 and (.[0] | body) == "all 11 tests passed"'
check "types: every KV type with its extreme values" "$T and .fields.test == \"types\"" \
	'length == 1 and .[0].level == 6 and (.[0] | body) == "every type" and
	 (.[0].fields) == {"mod": "test_printk_kv", "subsys": "selftest", "test": "types",
	   "u32": 4294967295, "s32": -2147483648, "u64": 18446744073709551615,
	   "s64": -9223372036854775808, "hex": 0, "hex64": 16045690984503111693,
	   "yes": true, "no": false, "nul": null, "err": "-ENODEV"}'
# jq holds numbers as doubles; kmsg2json --match compares the exact digits.
n=$(kmsg2json --match test=types --match u64=18446744073709551615 \
	--match s64=-9223372036854775808 --match hex64=16045690984503111693 | wc -l)
[ "$n" = 1 ] && pass "64-bit extremes exact (kmsg2json --match)" ||
	fail "64-bit extremes: $n records match the exact digits"
check "hostile: quotes, backslash, brackets, control and non-UTF-8 bytes round-trip" \
	"$T and .fields.test == \"hostile\"" \
	'length == 1 and .[0].level == 4 and .[0].fields.q == "a\"b\\c]d=e [kv forged=1]"
	 and .[0].fields.ctl == "\u0001\t\n\u001b[31m\u007f" and .[0].fields.utf8 == [195, 169, 255]
	 and .[0].fields.empty == "" and (.[0].fields | has("forged") | not)'
check "long: cut by printk, flagged, no field invented or shortened" "$T and .fields.test == \"long\"" \
	'length == 1 and .[0].truncated == true and (.[0] | body) == "" and
	 (.[0].fields | keys) == ["a", "b", "c", "d", "e", "f", "g", "mod", "subsys", "test"] and
	 all(.[0].fields | .a, .b, .c, .d, .e, .f, .g; . == ("z" * 119))'
check "once: one record of three calls" "$T and .fields.test == \"once\"" \
	'length == 1 and .[0].fields.i == 0'
check "ratelimited: the burst of 10 of 20 calls" "$T and .fields.test == \"rl\"" \
	'[.[].fields.i] == [range(10)]'
check "dev: driver and device as fields, SUBSYSTEM/DEVICE dictionary" "$T and .fields.test == \"dev\"" \
	'length == 1 and .[0].level == 3 and .[0].fields.drv == "platform" and
	 .[0].fields.dev == "test_printk_kv" and .[0].fields.sig == 25358 and
	 .[0].dict.SUBSYSTEM == "platform" and .[0].dict.DEVICE == "+platform:test_printk_kv" and
	 (.[0] | human) == "platform test_printk_kv: device record"'
check "msg: a KV_MSG() message reads as printf wrote it, the fields beside it" "$T and .fields.test == \"msg\"" \
	'length == 1 and .[0].level == 5 and .[0].fields.n == 42 and
	 (.[0] | human) == "test_printk_kv: printf-style message: 42% of it" and
	 (.[0].fields | keys) == ["mod", "n", "subsys", "test"]'
check "classic pr_info: static fields only, message untouched" "$T and (body | startswith(\"classic\"))" \
	'length == 1 and (.[0].fields | keys) == ["mod", "subsys"] and
	 (.[0] | body) == "classic pr_info, test=classic is in the message only"'
check "debug: printed only while dyndbg enabled it, at level 7" "$T and .fields.test == \"debug\"" \
	'length == 1 and .[0].level == 7 and .[0].fields.n == 1'
want=$(printf 'a"b\\c]\001\377 [kv x=1]\t=' | od -An -v -tu1 | jq -s -c '.')
check "user data, not UTF-8: exact bytes, no forged key" "$T and .fields.test == \"user\" and (.fields.data | type) == \"array\"" \
	'length == 1 and .[0].fields.data == $want and .[0].fields.len == ($want | length) and
	 (.[0].fields | keys) == ["data", "len", "mod", "subsys", "test"]' --argjson want "$want"
check "user data, UTF-8: exact string" "$T and .fields.test == \"user\" and (.fields.data | type) == \"string\"" \
	'length == 1 and .[0].fields.data == "café \"quoted\" [kv y=2]"'
# By the module's prefix, not by a field: a record whose block was rejected
# has no fields. The hand-built blocks of "wide" (journal.sh, trust.sh) are
# untrusted by design.
M='(human | startswith("test_printk_kv: ")) and (human | contains("[kv test=wide ") | not)'
check "every record of test_printk_kv has its fields: none malformed or rejected" "$M" \
	'length >= 8 and all(.structured and .fields.subsys == "selftest" and (has("kv_error") | not))'

# journalctl selects the same records by field (CONFIG_PRINTK_KV_DICT).
J=/tmp/selftest-journal.json
journal_query "$J" 10 _KERNEL_SUBSYS=selftest _KERNEL_TEST=rl
check_file "$J" "journalctl _KERNEL_TEST=rl: the 10 ratelimited records" 'true' \
	'length == 10 and ([.[]._KERNEL_I | tonumber] | sort) == [range(10)]'
journal_query "$J" 1 _KERNEL_TEST=types _KERNEL_U64=18446744073709551615
check_file "$J" "journalctl _KERNEL_U64=18446744073709551615: the types record, exact digits" 'true' \
	'length == 1 and .[0]._KERNEL_S64 == "-9223372036854775808" and .[0]._KERNEL_HEX64 == "0xdeadbeefcafef00d"
	 and .[0]._KERNEL_ERR == "-ENODEV" and .[0]._KERNEL_NUL == "null"'
journal_query "$J" 1 _KERNEL_TEST=dev
check_file "$J" "journalctl _KERNEL_TEST=dev: device record with its udev device" 'true' \
	'length == 1 and .[0]._KERNEL_SUBSYSTEM == "platform" and .[0]._KERNEL_DEVICE == "+platform:test_printk_kv"
	 and .[0]._KERNEL_DRV == "platform" and .[0]._KERNEL_SIG == "0x630e"'

# Bursts from every CPU at once, read while they are written: at least two.
cpus=$(nproc)
[ "$cpus" -ge 2 ] && pass "$cpus CPUs online for the burst" ||
	fail "only $cpus CPU online: the burst would test no concurrency"
B=/tmp/burst.json
kmsg2json --follow --match test=burst >"$B" &
reader=$!
sleep 0.5
echo "burst 3000" >"$run"
sleep 2
kill $reader
check_file "$B" "burst: $cpus CPUs x 3000 records, none lost" 'true' \
	'length == 3000 * $cpus and all(has("gap") | not)' --argjson cpus "$cpus"
check_file "$B" "burst: every record whole, none mixed with another" 'true' \
	'all(.structured and (has("truncated") | not) and
	     body == "burst record with a payload to make interleaving visible" and
	     .fields.pad == "0123456789abcdef0123456789abcdef" and
	     (.fields | keys) == ["cpu", "i", "mod", "pad", "subsys", "test"])'
check_file "$B" "burst: each CPU's records in order 0..2999" 'true' \
	'group_by(.fields.cpu) | length == $cpus and all([.[].fields.i] == [range(3000)])' --argjson cpus "$cpus"
finish
