#!/usr/bin/env bash
# ./pkv bench [--quick|--smoke]: the performance table, every figure a ratio
# against a peer measured in the same run, medians of PKV_BENCH_REPS (5).
#
#   full     100k+ records drained, 100k records per kernel variant, a file
#            of >= 100 MB, the developer loop; writes docs/PERFORMANCE.md
#   --quick  the same at a tenth of the sizes, no developer loop; docs too
#   --smoke  tiny sizes, table printed only (./pkv test: it runs, no timing
#            is asserted)
set -u
. "$(dirname "$0")/../../qemu-images/lib.sh"
mode=${1:-full}
case "$mode" in
full) burst=50000 kern=100000 replay_mb=100 ;;
--quick) burst=5000 kern=10000 replay_mb=20 ;;
--smoke) burst=500 kern=1000 replay_mb=2 ;;
*) pkv_die "bench: unknown mode '$mode' (--quick, --smoke, or nothing for the full run)" ;;
esac
export PKV_BENCH_BURST=$burst PKV_BENCH_KERNEL=$kern PKV_BENCH_REPS=${PKV_BENCH_REPS:-5}
reps=$PKV_BENCH_REPS
out=$(mktemp -d "${TMPDIR:-/tmp}/pkv-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
bin=$PKV_BUILD/userspace-reader
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

pkv_say "bench ($mode): guest run (drain of $((burst * 2))+ records, kernel cost of $kern records x 6)"
bash "$PKV_TOP/qemu-images/boot.sh" run --out "$out/g" --timeout 1200 \
	--append "log_buf_len=32M loglevel=3 tsc=reliable" "$PKV_TOP/tests/bench/guest-bench.sh" >"$out/guest.log" 2>&1 ||
	{ cat "$out/guest.log" >&2; pkv_die "bench: the guest run failed"; }
g=$out/g/guest-bench.sh
records=$(jq .records "$g/drain.json")
col() { cut -f"$1" "$g/drain.tsv" | median; }
k2j_ms=$(col 1) dmesg_ms=$(col 2) journal_ms=$(col 3) raw_ms=$(col 4)
jentries=$(jq .journal_entries "$g/drain.json")
rps() { awk -v n="$1" -v ms="$2" 'BEGIN { printf "%.0f", (ms > 0) ? n * 1000 / ms : 0 }'; }

# File replay: the drained buffer repeated to the size, against cat.
pkv_say "bench: file replay of ${replay_mb} MB"
f=$out/replay.kmsg
: >"$f"
while [ "$(stat -c %s "$f")" -lt $((replay_mb * 1048576)) ]; do cat "$g/buffer.kmsg" >>"$f"; done
mb=$(awk -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.1f", b / 1048576 }')
: >"$out/replay.tsv"
for i in $(seq "$reps"); do
	t=$(now_ms); cat "$f" >"$out/cat.out"; a=$(($(now_ms) - t))
	t=$(now_ms); "$bin/kmsg2json" "$f" >"$out/k2j.out"; b=$(($(now_ms) - t))
	c=0
	if [ -x "$bin/pkv-json-jansson" ]; then
		t=$(now_ms); "$bin/pkv-json-jansson" "$f" >"$out/jansson.out"; c=$(($(now_ms) - t))
	fi
	printf '%s\t%s\t%s\n' "$a" "$b" "$c" >>"$out/replay.tsv"
	rm -f "$out"/*.out
done
"$bin/kmsg2json" "$f" | wc -c >"$out/k2j.bytes"
k2j_out_mb=$(awk '{ printf "%.1f", $1 / 1048576 }' "$out/k2j.bytes")
cat_ms=$(cut -f1 "$out/replay.tsv" | median)
replay_ms=$(cut -f2 "$out/replay.tsv" | median)
jansson_ms=$(cut -f3 "$out/replay.tsv" | median)
mbps() { awk -v mb="$mb" -v ms="$1" 'BEGIN { printf "%.0f", (ms > 0) ? mb * 1000 / ms : 0 }'; }

# The last ./pkv test that started from an empty cache, by phase.
if [ -s "$PKV_CACHE/fresh-test-phases.tsv" ]; then
	fresh_phases="$(sed -n '1s/^# //p' "$PKV_CACHE/fresh-test-phases.tsv"), wall time by phase:

| phase | seconds |
| --- | --- |
$(awk -F'\t' 'NR > 1 { printf "| %s | %.0f |\n", $1, $2; t += $2 } END { printf "| total | %.0f |\n", t }' "$PKV_CACHE/fresh-test-phases.tsv")"
else
	fresh_phases="Not measured on this cache: run ./pkv test with an empty PKV_CACHE (as CI does) first."
fi

# Object sizes of the converted code: pristine tree against the series.
eval "$(bash "$PKV_TOP/qemu-images/kernel.sh" vars)"
sizes=$(bash "$PKV_TOP/tests/bench/sizes.sh") || pkv_say "warning: object sizes not measured (tests/bench/sizes.sh failed)"

# Kernel cost and bytes per record.
# Medians per field count (fields, plain ns, kv ns), the table, and the gap
# with where it comes from: whether the extra ns per record grows with the
# fields, and the extra bytes of text of the structured record.
kmed=$(jq -s -r 'group_by(.fields.fields)[] | def med: sort | .[length / 2 | floor];
	[.[0].fields.fields, ([.[].fields.plain_ns] | med), ([.[].fields.kv_ns] | med)] | @tsv' "$g/kernel.json")
kernel=$(echo "$kmed" | awk -F'\t' '{ printf "| %s | %s | %s | %d | %.2f |\n", $1, $2, $3, $3 - $2, $3 / $2 }')
# Text lengths (fields, plain, kv), read once for the gap and the bytes table.
lens=$(jq -r 'group_by(.n)[] | [.[0].n, (map(select(.kv | not)) | .[0].len), (map(select(.kv)) | .[0].len)]
	| select(.[1] != null and .[2] != null) | @tsv' "$g/lengths.json")
extra=$(echo "$lens" | awk -F'\t' 'NR == 1 || $3 - $2 < m { m = $3 - $2 } END { print m }')
kernel_gap=$(echo "$kmed" | awk -F'\t' -v extra="$extra" '
	{ d[NR] = $3 - $2; if (sprintf("%.2f", $3 / $2) + 0 > 1.10) miss = 1 }
	END {
		if (!miss) { print "Target met for every field count."; exit }
		printf "Target missed where the ratio is above 1.10. "
		if (d[NR] <= 1.5 * d[1])
			printf "The extra cost per record does not grow with the number of fields (%d ns with the fewest, %d with the most): it is the fixed part of a structured record, the file'"'"'s static fields (mod, src, subsys), which the plain record does not carry: %d more bytes of text (next table) to format and store. The peer prints the same values, not the same information; a peer with the static fields in its text was not measured.\n", d[1], d[NR], extra
		else
			printf "The extra cost per record grows with the number of fields (%d ns with the fewest, %d with the most): the per-field part of the block (key, quoting) costs more than the same value in plain text.\n", d[1], d[NR]
	}')
bytes=$(echo "$lens" | awk -F'\t' '
	function rec(l) { return 16 + int((l + 7) / 8) * 8 }
	function fit(r,  c) { c = int(131072 / r); return c < 4096 ? c : 4096 }
	{ printf "| %d | %d | %d | %d | %d | %d | %d | %d |\n", $1, $2, $3, rec($2), rec($3), fit(rec($2)), fit(rec($3)), rec($2) + 8 * $1 + 16 }')

# Developer loop: touch a converted file, rebuild, boot, one scenario.
loop="not measured in this mode"
if [ "$mode" = full ]; then
	pkv_say "bench: developer loop (touch net/l2tp/l2tp_core.c, rebuild, boot, l2tp scenario)"
	touch "$SRC_DIR/net/l2tp/l2tp_core.c"
	t=$(now_ms)
	bash "$PKV_TOP/qemu-images/kernel.sh" build >"$out/loop.log" 2>&1 &&
		bash "$PKV_TOP/qemu-images/rootfs.sh" image >>"$out/loop.log" 2>&1 &&
		bash "$PKV_TOP/qemu-images/boot.sh" run "$PKV_TOP/tests/guest/l2tp.sh" >>"$out/loop.log" 2>&1
	lrc=$?
	loop="$(( ($(now_ms) - t) / 1000 )) s (exit $lrc; target at most 60 s)"
fi

meet() { awk -v v="$1" -v t="$2" -v dir="$3" 'BEGIN { ok = (dir == "min") ? v >= t : v <= t; print ok ? "met" : "missed" }'; }
r_dmesg=$(ratio "$dmesg_ms" "$k2j_ms")
r_raw=$(ratio "$k2j_ms" "$raw_ms")
r_cat=$(ratio "$replay_ms" "$cat_ms")
r_jansson=$(ratio "$jansson_ms" "$replay_ms")
table=$(cat <<EOF
# Performance

Produced by \`./pkv bench${mode#full}\` on $(date -u +%Y-%m-%d) ($(nproc) cores, QEMU under
$(tail -1 "$PKV_CACHE/accel" 2>/dev/null || echo tcg), 2 vCPUs for the guest). Every figure is the median of $reps runs,
with its peer measured in the same run; the ratios are what carries over to other
machines. Guest timings run under TCG emulation: absolute numbers are slow, ratios are fair.

## Reader: draining the ring buffer in the guest

$records records in /dev/kmsg, $(jq .burst_records "$g/drain.json") of them from test_printk_kv's burst on every CPU
(log_buf_len=32M); journalctl reads the $jentries kernel entries journald imported.

| reader | ms | records/s | kmsg2json is |
| --- | --- | --- | --- |
| kmsg2json | $k2j_ms | $(rps "$records" "$k2j_ms") | |
| dmesg -J (util-linux 2.38) | $dmesg_ms | $(rps "$records" "$dmesg_ms") | ${r_dmesg}x faster (target 3x: $(meet "$r_dmesg" 3 min)) |
| journalctl -k -o json | $journal_ms | $(rps "$jentries" "$journal_ms") | $(ratio "$journal_ms" "$k2j_ms")x faster |
| raw read() loop (pkv-kmsgraw) | $raw_ms | $(rps "$records" "$raw_ms") | ${r_raw}x the floor (target at most 1.5x: $(meet "$r_raw" 1.5 max)) |

Where the drain targets are missed, the cause is the floor itself: any reader pays one
read() per record, and here the raw loop alone takes $raw_ms ms, so no /dev/kmsg reader can
be more than $(ratio "$dmesg_ms" "$raw_ms")x faster than dmesg -J on this machine (target 3x). Under TCG
a system call costs several microseconds; kmsg2json's own work (parse, JSON) is the
$((k2j_ms - raw_ms)) ms above the floor, $(awk -v a="$k2j_ms" -v b="$raw_ms" -v n="$records" 'BEGIN { printf "%.1f", (a - b) * 1000 / n }') us per record emulated.

## Reader: file replay on the host

A $mb MB capture (the drained buffer, repeated).

| command | ms | MB/s | ratio |
| --- | --- | --- | --- |
| cat | $cat_ms | $(mbps "$cat_ms") | 1 |
| kmsg2json (streaming writer) | $replay_ms | $(mbps "$replay_ms") | ${r_cat}x cat (target at most 5x: $(meet "$r_cat" 5 max)) |
| same parser, jansson objects (pkv-json-jansson) | $jansson_ms | $(mbps "$jansson_ms") | ${r_jansson}x kmsg2json |

cat streams the page cache at memory speed; kmsg2json decodes every record, parses its
block and writes an object larger than its input ($(awk -v o="$k2j_out_mb" -v i="$mb" 'BEGIN { printf "%.1f", o / i }')x here), so its
ratio to cat measures JSON output against a copy. The streaming writer was kept because
jansson, measured in the same run, is ${r_jansson}x slower.

## Kernel: ns per record

pr_info_kv() with N u32 fields against a plain printk() with the same prefix and values in
its text, $kern records each, alternating, console quiet (loglevel=3), journald stopped,
clocksource tsc (tsc=reliable: under TCG the watchdog would fall back to jiffies).

| fields | plain ns | pr_info_kv ns | difference ns | ratio (target at most 1.10) |
| --- | --- | --- | --- | --- |
$kernel

$kernel_gap

## Ring buffer: bytes per record

The data ring stores a record's text after an 8-byte id, aligned to 8 bytes; the
descriptor ring has 4096 entries for the default 128 KiB buffer, so records of at most
32 bytes on average are limited by descriptors. Text lengths are measured on the bench
records above. The 2012 printk_emit() layout kept a dictionary beside the text:
"KEY=value" pairs separated by NUL plus a 16-byte header, shown for the same fields
with 8-byte values (on paper).

| fields | plain text | structured text | plain bytes | structured bytes | plain per 128 KiB | structured per 128 KiB | 2012 dict layout bytes |
| --- | --- | --- | --- | --- | --- | --- | --- |
$bytes

## Object size of the converted code (bytes)

Pristine tree against the series, same configuration, objects that changed (text counts
.text, .init.text and .exit.text; rodata all .rodata sections), from tests/bench/sizes.sh.
Rodata grows by the field block of every format: the module, the call site and the keys
(about 50 bytes per call, more with typed fields). Text grows where calls pass more
arguments (ext4_msg() now passes its function and line at every call site; the helpers
in super.c render their fields) and, in mISDN, because pr_debug() under dynamic debug is
a static branch per call site where printk(KERN_DEBUG) was a plain call.

| object | text before | text after | change | rodata before | rodata after | change |
| --- | --- | --- | --- | --- | --- | --- |
${sizes:-| (not measured: tests/bench/sizes.sh failed) | | | | | | |}

## ./pkv test from a fresh clone

$fresh_phases

## Developer loop

Touch net/l2tp/l2tp_core.c, rebuild, boot, run tests/guest/l2tp.sh: $loop.
EOF
)
printf '%s\n' "$table"
# Every section must have its figures; no timing is judged here.
for v in "$records" "$k2j_ms" "$dmesg_ms" "$raw_ms" "$replay_ms" "$cat_ms" "$kernel" "$bytes" "$sizes"; do
	[ -n "$v" ] && [ "$v" != 0 ] && [ "$v" != null ] || pkv_die "bench: a section of the table is empty (see above)"
done
if [ "$mode" != --smoke ]; then
	printf '%s\n' "$table" >"$PKV_TOP/docs/PERFORMANCE.md"
	pkv_say "wrote docs/PERFORMANCE.md"
fi
