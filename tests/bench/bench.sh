#!/usr/bin/env bash
# ./pkv bench [--quick|--smoke|--ipb]: the reader's performance and the developer
# loop, every figure a ratio against a peer measured in the same run,
# medians of PKV_BENCH_REPS (5). The kernel's cost per record (ns, bytes,
# image, what a person reads) is ./pkv compare's, in docs/PROPOSALS.md.
#
#   full     100k+ records drained in the guest, a file of >= 100 MB
#            replayed on the host, the developer loop; raw data to
#            docs/data/bench/, and tests/bench/bench.py writes
#            docs/PERFORMANCE.md from it
#   --quick  the same at a tenth of the sizes, no developer loop; docs too
#   --smoke  tiny sizes, into a temporary directory: every table cell must
#            be filled and numeric (./pkv test); nothing is timed or judged
#   --ipb    only the reader's instructions per input byte (callgrind, on
#            the host, a minute): docs/data/bench/ipb.json is replaced and
#            docs/PERFORMANCE.md written again from docs/data/bench/
set -u
. "$(dirname "$0")/../../qemu-images/lib.sh"
mode=${1:-full}
case "$mode" in
full) burst=50000 replay_mb=100 ipb_mib=8 ;;
--quick) burst=5000 replay_mb=20 ipb_mib=2 ;;
--smoke) burst=500 replay_mb=2 ipb_mib=1 ;;
--ipb) burst=0 replay_mb=0 ipb_mib=8 ;;
-h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
*) pkv_die "bench: unknown mode '$mode' (--quick, --smoke, --ipb, or nothing for the full run)" ;;
esac
export PKV_BENCH_BURST=$burst PKV_BENCH_REPS=${PKV_BENCH_REPS:-5}
reps=$PKV_BENCH_REPS
[ "$reps" -ge 5 ] || pkv_die "bench: PKV_BENCH_REPS=$reps: medians need at least 5 runs"
work=$(mktemp -d "${TMPDIR:-/tmp}/pkv-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The run's data and document; they replace docs/ only when the generator
# accepted them.
data=$work/data
mkdir -p "$data"
bin=$PKV_BUILD/userspace-reader
now_us() { echo $(($(date +%s%N) / 1000)); }

# --ipb: the instruction counts alone, with the rest of docs/data/bench/.
if [ "$mode" = --ipb ]; then
	[ -s "$PKV_TOP/docs/data/bench/meta.json" ] || pkv_die "bench --ipb: no docs/data/bench/meta.json: run the full ./pkv bench first"
	cp "$PKV_TOP/docs/data/bench"/* "$data/"
fi

# Instructions per input byte, on the host (callgrind).
pkv_say "bench: callgrind instruction counts of the reader (${ipb_mib} MiB captures)"
bash "$PKV_TOP/tests/bench/reader-ipb.sh" "$PKV_BUILD" "$data/ipb.json" "$ipb_mib" || exit 1
jq --arg date "$(date -u +%Y-%m-%d)" --arg command "./pkv bench${1:+ $mode}" \
	'. + {date: $date, command: $command}' "$data/ipb.json" >"$data/ipb.json.new" &&
	mv "$data/ipb.json.new" "$data/ipb.json"
if [ "$mode" = --ipb ]; then
	python3 "$PKV_TOP/tests/bench/bench.py" "$data" "$work/PERFORMANCE.md" || pkv_die "bench: tests/bench/bench.py failed"
	cp "$data/ipb.json" "$PKV_TOP/docs/data/bench/ipb.json"
	cp "$work/PERFORMANCE.md" "$PKV_TOP/docs/PERFORMANCE.md"
	pkv_say "bench --ipb: wrote docs/data/bench/ipb.json and docs/PERFORMANCE.md"
	exit 0
fi

# The jansson peer is not one of the guest's tools: build it here.
ninja -C "$PKV_BUILD" userspace-reader/pkv-json-jansson >"$work/ninja.log" 2>&1 ||
	{ cat "$work/ninja.log" >&2; pkv_die "bench: building $bin/pkv-json-jansson failed (is libjansson-dev installed?)"; }

pkv_say "bench ($mode): guest run (drain of $((burst * 2))+ records, $reps times per reader)"
bash "$PKV_TOP/qemu-images/boot.sh" run --out "$work/g" --timeout 1200 \
	--append "log_buf_len=32M loglevel=3 tsc=reliable" "$PKV_TOP/tests/bench/guest-bench.sh" >"$work/guest.log" 2>&1 ||
	{ cat "$work/guest.log" >&2; pkv_die "bench: the guest run failed"; }
g=$work/g/guest-bench.sh
cp "$g/drain.json" "$g/drain.tsv" "$data/" || pkv_die "bench: the guest left no drain.json or drain.tsv in $g"

# File replay: the drained buffer repeated to the size, against cat.
pkv_say "bench: file replay of ${replay_mb} MB"
f=$work/replay.kmsg
: >"$f"
[ -s "$g/buffer.kmsg" ] || pkv_die "bench: $g/buffer.kmsg: the guest's buffer is empty"
while [ "$(stat -c %s "$f")" -lt $((replay_mb * 1048576)) ]; do cat "$g/buffer.kmsg" >>"$f"; done
: >"$data/replay.tsv"
for i in $(seq "$reps"); do
	# In microseconds: cat of a small file takes about one millisecond.
	t=$(now_us); cat "$f" >"$work/cat.out"; a=$(($(now_us) - t))
	t=$(now_us); "$bin/kmsg2json" "$f" >"$work/k2j.out"; b=$(($(now_us) - t))
	t=$(now_us); "$bin/pkv-json-jansson" "$f" >"$work/jansson.out"; c=$(($(now_us) - t))
	printf '%s\t%s\t%s\n' "$a" "$b" "$c" >>"$data/replay.tsv"
	rm -f "$work"/*.out
done
printf '{"input_bytes": %d, "kmsg2json_bytes": %d}\n' "$(stat -c %s "$f")" \
	"$("$bin/kmsg2json" "$f" | wc -c)" >"$data/replay.json"

# The last ./pkv test that started from an empty cache, by phase.
if [ -s "$PKV_CACHE/fresh-test-phases.tsv" ]; then
	cp "$PKV_CACHE/fresh-test-phases.tsv" "$data/fresh-test-phases.tsv"
fi

# Developer loop, PKV_BENCH_LOOP_REPS (3) runs of each, split by phase:
#   edit: a converted driver file changed (a blank line on top of
#     net/l2tp/l2tp_core.c: its objects change, as with a real edit), then
#     the kernel step, the guest image, and the boot that runs its scenario,
#     tests/guest/l2tp.sh, to its asserted result; the file is restored after
#   try: ./pkv try tests/try/hello on an unchanged module (after one warm-up)
if [ "$mode" = full ]; then
	loop_reps=${PKV_BENCH_LOOP_REPS:-3}
	eval "$(bash "$PKV_TOP/qemu-images/kernel.sh" vars)"
	f=net/l2tp/l2tp_core.c
	git -C "$SRC_DIR" diff --quiet -- "$f" || pkv_die "bench: $SRC_DIR/$f has uncommitted changes; the loop edits and restores it"
	: >"$work/loop-edit.jsonl"
	for i in $(seq "$loop_reps"); do
		pkv_say "bench: developer loop $i/$loop_reps (edit $f, build, image, boot tests/guest/l2tp.sh)"
		sed -i '1s/^/\n/' "$SRC_DIR/$f"
		t=$(pkv_now)
		bash "$PKV_TOP/qemu-images/kernel.sh" build >"$work/loop.log" 2>&1 &&
			bash "$PKV_TOP/qemu-images/oot-module.sh" >>"$work/loop.log" 2>&1
		brc=$? build=$(pkv_since "$t")
		t=$(pkv_now)
		bash "$PKV_TOP/qemu-images/rootfs.sh" image >>"$work/loop.log" 2>&1
		irc=$? image=$(pkv_since "$t")
		t=$(pkv_now)
		bash "$PKV_TOP/qemu-images/boot.sh" run "$PKV_TOP/tests/guest/l2tp.sh" >>"$work/loop.log" 2>&1
		grc=$? guest=$(pkv_since "$t")
		git -C "$SRC_DIR" checkout -q -- "$f"
		[ $brc -eq 0 ] && [ $irc -eq 0 ] || { cat "$work/loop.log" >&2; pkv_die "bench: the loop's build failed"; }
		printf '{"build_s": %s, "image_s": %s, "guest_s": %s, "exit": %d}\n' "$build" "$image" "$guest" "$grc" >>"$work/loop-edit.jsonl"
	done
	# Back to the tree as committed, outside the measurement.
	bash "$PKV_TOP/qemu-images/kernel.sh" build >"$work/loop.log" 2>&1 &&
		bash "$PKV_TOP/qemu-images/oot-module.sh" >>"$work/loop.log" 2>&1 &&
		bash "$PKV_TOP/qemu-images/rootfs.sh" image >>"$work/loop.log" 2>&1 ||
		{ cat "$work/loop.log" >&2; pkv_die "bench: rebuilding after the loop failed"; }
	pkv_say "bench: ./pkv try tests/try/hello, unchanged ($loop_reps runs after a warm-up)"
	"$PKV_TOP/pkv" try "$PKV_TOP/tests/try/hello" >"$work/try.log" 2>&1 ||
		{ cat "$work/try.log" >&2; pkv_die "bench: ./pkv try tests/try/hello failed"; }
	: >"$work/loop-try.jsonl"
	for i in $(seq "$loop_reps"); do
		t=$(pkv_now)
		"$PKV_TOP/pkv" try "$PKV_TOP/tests/try/hello" >"$work/try.log" 2>&1
		trc=$? total=$(pkv_since "$t")
		tj=$(ls -t "$PKV_CACHE"/try/hello-*/timings.json | head -1)
		jq -c --argjson total "$total" --argjson exit "$trc" '. + {total_s: $total, exit: $exit}' "$tj" >>"$work/loop-try.jsonl"
	done
	jq -n --arg f "$f" --slurpfile edit "$work/loop-edit.jsonl" --slurpfile tries "$work/loop-try.jsonl" \
		'{edit_file: $f, scenario: "tests/guest/l2tp.sh", try_module: "tests/try/hello",
		  edit: $edit, "try": $tries}' >"$data/loop.json"
fi

jq -n --arg date "$(date -u +%Y-%m-%d)" --arg machine "$(nproc) cores, $(awk '/MemTotal/ { printf "%d GiB", $2 / 1048576 }' /proc/meminfo)" \
	--arg accel "$(tail -1 "$PKV_CACHE/accel" 2>/dev/null)" --arg command "./pkv bench${1:+ $mode}" \
	--argjson reps "$reps" --argjson burst "$burst" --argjson cpus "${PKV_GUEST_CPUS:-2}" \
	'{date: $date, machine: $machine, accel: $accel, command: $command, runs: $reps,
	  burst_per_cpu: $burst, guest_cpus: $cpus}' >"$data/meta.json"
python3 "$PKV_TOP/tests/bench/bench.py" "$data" "$work/PERFORMANCE.md" || pkv_die "bench: tests/bench/bench.py failed"
if [ "$mode" = --smoke ]; then
	cat "$work/PERFORMANCE.md"
	pkv_say "bench --smoke: every cell of the tables filled ($(grep -c '^|' "$work/PERFORMANCE.md") table lines)"
else
	mkdir -p "$PKV_TOP/docs/data/bench"
	rm -f "$PKV_TOP/docs/data/bench"/*
	cp "$data"/* "$PKV_TOP/docs/data/bench/"
	cp "$work/PERFORMANCE.md" "$PKV_TOP/docs/PERFORMANCE.md"
	pkv_say "bench: wrote docs/PERFORMANCE.md from docs/data/bench/"
fi
