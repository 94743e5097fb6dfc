#!/usr/bin/env bash
# ./pkv compare [--smoke | --collect DIR]: the printk.kv= encodings side by side.
#
# One kernel build; a boot per encoding (off, text, dict), each running the
# same workload: the selftest and the l2tp, ext4, cs89x0 and mISDN scenarios,
# then tests/guest/trust.sh (the forgery paths), tests/bench/guest-consumers.sh
# (what each consumer shows of one record) and tests/bench/guest-compare.sh,
# which takes the scenarios' records (from the guest runner's start of
# selftest.sh to its end of misdn.sh) with the ring-buffer bytes of each,
# and times test_printk_kv's bench. With the section sizes of the converted
# objects (tests/bench/sizes.sh) and their functions' stack frames under gcc
# and clang (tests/bench/stack.sh), that is the raw data of
# docs/data/compare/, from which tests/bench/compare.py writes
# docs/PROPOSALS.md, and the cover letter's figures,
# kernel-patches/cover-numbers.txt.
#
#   full       PKV_BENCH_KERNEL (20000) records per kind and run,
#              PKV_BENCH_REPS (7) runs, after a run of 60000 that fills the
#              32 MiB ring; writes docs/data/compare/ and docs/PROPOSALS.md
#   --smoke    the same boots at tiny sizes (200 records, 5 runs), into a
#              temporary directory: every table cell must be filled and
#              numeric; nothing is timed or judged, docs/ is not touched
#   --collect DIR  no boot: the data of the boots ./pkv test ran, whose
#              results are DIR/guest-results-{off,text,dict} (meson's
#              build/tests; guest-compare.sh ran last in each at the sizes
#              of --smoke); stack frames of cs89x0 alone; checked as
#              --smoke is
#
# Under off the scenarios' field assertions fail by design (there are no
# fields; they do not wait for journald then: tests/guest/lib/assert.sh),
# their exit status is kept in the data, and
# the boot counts as measured when guest-compare.sh succeeded. Under text
# and dict a full run needs them to pass.
set -u
. "$(dirname "$0")/../../qemu-images/lib.sh"
mode=${1:-full}
case "$mode" in
full) n=${PKV_BENCH_KERNEL:-20000} reps=${PKV_BENCH_REPS:-7} fill=60000 ;;
--smoke) n=200 reps=5 fill=200 ;;
--collect)
	n=200 reps=5 fill=200
	from=${2:-}
	[ -d "$from" ] || pkv_die "compare --collect: '$from': not a directory (meson's build/tests)"
	;;
-h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
*) pkv_die "compare: unknown argument '$mode' (--smoke, --collect DIR, or nothing for the full run)" ;;
esac
[ "$reps" -ge 5 ] || pkv_die "compare: PKV_BENCH_REPS=$reps: medians need at least 5 runs"
export PKV_BENCH_KERNEL=$n PKV_BENCH_REPS=$reps PKV_BENCH_FILL=$fill
work=$(mktemp -d "${TMPDIR:-/tmp}/pkv-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The run's data and document are written here, and replace docs/ only
# when the generator accepted them.
data=$work/data doc=$work/PROPOSALS.md
mkdir -p "$data"
g=$PKV_TOP/tests/guest
scenarios="selftest l2tp ext4 cs89x0 misdn"
scripts=()
for s in $scenarios trust; do scripts+=("$g/$s.sh"); done
scripts+=("$PKV_TOP/tests/bench/guest-consumers.sh" "$PKV_TOP/tests/bench/guest-compare.sh")

# What is measured, taken before the boots.
release=$(cat "$PKV_CACHE/linux-build/.pkv-release" 2>/dev/null)
[ -n "$release" ] || pkv_die "compare: $PKV_CACHE/linux-build/.pkv-release: no kernel release (./pkv build)"
jq -n --arg date "$(date -u +%Y-%m-%d)" --arg machine "$(nproc) cores, $(awk '/MemTotal/ { printf "%d GiB", $2 / 1048576 }' /proc/meminfo)" \
	--arg kernel "$release" \
	--arg series "$(cat "$PKV_TOP"/kernel-patches/[0-9]*.patch | sha256sum | cut -c1-16)" \
	--arg command "./pkv compare${1:+ $mode}" \
	'{date: $date, machine: $machine, kernel: $kernel, series_sha256: $series,
	  command: $command}' >"$work/meta.json"
bash "$PKV_TOP/tests/bench/sizes.sh" >"$data/sizes.json" || pkv_die "compare: tests/bench/sizes.sh failed"
# The smoke's stack frames: one small directory (a clang build of all four
# would double ./pkv test's time on an empty cache).
if [ "$mode" = full ]; then stack_dirs=""; else stack_dirs=drivers/net/ethernet/cirrus; fi
# shellcheck disable=SC2086 # one argument per directory
bash "$PKV_TOP/tests/bench/stack.sh" $stack_dirs >"$data/stack.json" || pkv_die "compare: tests/bench/stack.sh failed"

# collect ENC DIR: the data of the boot under ENC whose results are in DIR.
collect() {
	local enc=$1 res=$2 r=$2/guest-compare.sh st="" s rc
	if [ "$(cat "$r.rc" 2>/dev/null)" != 0 ]; then
		cat "$res.log" "$res/boot.log" "$r.stdout" "$r.stderr" >&2 2>/dev/null
		pkv_die "compare: the $enc boot did not measure ($res: guest-compare.sh, output above)"
	fi
	for s in $scenarios; do
		rc=$(cat "$res/$s.sh.rc" 2>/dev/null || echo null)
		if [ "$mode" = full ] && [ "$enc" != off ] && [ "$rc" != 0 ]; then
			cat "$res.log" >&2
			pkv_die "compare: scenario $s failed under printk.kv=$enc (output above)"
		fi
		st="$st{\"scenario\": \"$s\", \"rc\": $rc},"
	done
	# The sizes the guest ran at, the same in every boot.
	jq -e --argjson n "$n" --argjson reps "$reps" '.bench_records == $n and .bench_runs == $reps' \
		"$r/bench.json" >/dev/null ||
		pkv_die "compare: $r/bench.json: the $enc boot did not run $n records x $reps runs"
	cp "$res/trust.sh/trust.json" "$data/$enc-trust.json" ||
		pkv_die "compare: the $enc boot left no trust.json (tests/guest/trust.sh)"
	cp "$res/guest-consumers.sh/consumers.json" "$data/$enc-consumers.json" ||
		{ cat "$res/guest-consumers.sh.stdout" >&2 2>/dev/null
		  pkv_die "compare: the $enc boot left no consumers.json (tests/bench/guest-consumers.sh)"; }
	cp "$r/records.json" "$data/$enc-records.json"
	cp "$r/bench-records.json" "$data/$enc-bench-records.json"
	jq -R -s -c --argjson scen "[${st%,}]" --arg uname "$(cat "$r/uname" 2>/dev/null)" \
		'{uname: $uname, scenarios: $scen, bench: [split("\n")[] | select(length > 0)
		| split("\t") | map(tonumber) | {run: .[0], fields: .[1], plain_ns: .[2], kv_ns: .[3]}]}' \
		"$r/bench.tsv" >"$data/$enc-runs.json" || pkv_die "compare: $r/bench.tsv: not a table of numbers"
}

for enc in off text dict; do
	if [ "$mode" = --collect ]; then
		collect "$enc" "$from/guest-results-$enc"
		continue
	fi
	pkv_say "compare: boot with printk.kv=$enc ($scenarios, then $n x $reps bench records per kind)"
	t0=$(date +%s)
	bash "$PKV_TOP/qemu-images/boot.sh" run --out "$work/$enc" --timeout 1200 --kv "$enc" \
		--append "log_buf_len=32M loglevel=3 tsc=reliable" "${scripts[@]}" >"$work/$enc.log" 2>&1
	collect "$enc" "$work/$enc"
	pkv_say "compare: $enc measured in $(($(date +%s) - t0)) s"
done
# The accelerator the boots used (boot.sh probes it on the first boot).
jq --arg accel "$(tail -1 "$PKV_CACHE/accel" 2>/dev/null)" --argjson n "$n" --argjson reps "$reps" \
	'. + {accel: $accel, bench_records: $n, bench_runs: $reps}' "$work/meta.json" >"$data/meta.json"
python3 "$PKV_TOP/tests/bench/compare.py" "$data" "$doc" || pkv_die "compare: tests/bench/compare.py failed"
python3 "$PKV_TOP/tests/bench/compare.py" --cover "$data" "$work/cover-numbers.txt" ||
	pkv_die "compare: tests/bench/compare.py --cover failed"
if [ "$mode" = full ]; then
	mkdir -p "$PKV_TOP/docs/data/compare"
	rm -f "$PKV_TOP/docs/data/compare"/*.json
	cp "$data"/*.json "$PKV_TOP/docs/data/compare/"
	cp "$doc" "$PKV_TOP/docs/PROPOSALS.md"
	cp "$work/cover-numbers.txt" "$PKV_TOP/kernel-patches/cover-numbers.txt"
	pkv_say "compare: wrote docs/PROPOSALS.md and kernel-patches/cover-numbers.txt from docs/data/compare/ (./pkv patches puts the numbers in the cover letter)"
else
	pkv_say "compare $mode: every cell of the tables filled ($(grep -c '^|' "$doc") table lines)"
fi
