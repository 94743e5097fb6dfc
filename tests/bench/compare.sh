#!/usr/bin/env bash
# ./pkv compare [--smoke]: the printk.kv= encodings side by side.
#
# One kernel build; a boot per encoding (off, text, dict), each running the
# same workload: the selftest and the l2tp, ext4, cs89x0 and mISDN scenarios
# (each after a "pkv-compare: scenario NAME" marker in /dev/kmsg), then
# tests/bench/guest-compare.sh, which takes their records with the
# ring-buffer bytes of each, and times test_printk_kv's bench. The raw data
# goes to docs/data/compare/, and tests/bench/compare.py writes
# docs/PROPOSALS.md from it.
#
#   full     PKV_BENCH_KERNEL (20000) records per kind and run, PKV_BENCH_REPS
#            (7) runs, after a run of 60000 that fills the 32 MiB ring;
#            writes docs/data/compare/ and docs/PROPOSALS.md
#   --smoke  200 records, 5 runs, into a temporary directory: every table cell
#            must be filled and numeric (./pkv test); nothing is timed or
#            judged, and docs/ is not touched
#
# Under off the scenarios' field assertions fail by design (there are no
# fields); their exit status is kept in the data, and the boot counts as
# measured when guest-compare.sh succeeded. Under text and dict they must pass.
set -u
. "$(dirname "$0")/../../qemu-images/lib.sh"
mode=${1:-full}
case "$mode" in
full) n=${PKV_BENCH_KERNEL:-20000} reps=${PKV_BENCH_REPS:-7} fill=60000 ;;
--smoke) n=200 reps=5 fill=200 ;;
-h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
*) pkv_die "compare: unknown argument '$mode' (--smoke, or nothing for the full run)" ;;
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
for s in $scenarios end; do
	# A marker before each scenario, and one after the last, so that each
	# scenario's records are those between two markers.
	printf 'touch /run/pkv-compare\necho "pkv-compare: %s %s" >/dev/kmsg\n' \
		"$([ "$s" = end ] && echo end || echo scenario)" "$s" >"$work/mark-$s.sh"
	scripts+=("$work/mark-$s.sh")
	[ "$s" = end ] || scripts+=("$g/$s.sh")
done
scripts+=("$PKV_TOP/tests/bench/guest-compare.sh")

# What is measured, taken before the boots.
release=$(cat "$PKV_CACHE/linux-build/.pkv-release" 2>/dev/null)
[ -n "$release" ] || pkv_die "compare: $PKV_CACHE/linux-build/.pkv-release: no kernel release (./pkv build)"
jq -n --arg date "$(date -u +%Y-%m-%d)" --arg machine "$(nproc) cores, $(awk '/MemTotal/ { printf "%d GiB", $2 / 1048576 }' /proc/meminfo)" \
	--arg kernel "$release" \
	--arg series "$(cat "$PKV_TOP"/kernel-patches/[0-9]*.patch | sha256sum | cut -c1-16)" \
	--arg command "./pkv compare${mode#full}" --argjson n "$n" --argjson reps "$reps" \
	'{date: $date, machine: $machine, kernel: $kernel, series_sha256: $series,
	  command: $command, bench_records: $n, bench_runs: $reps}' >"$work/meta.json"
for enc in off text dict; do
	pkv_say "compare: boot with printk.kv=$enc ($scenarios, then $n x $reps bench records per kind)"
	t0=$(date +%s)
	bash "$PKV_TOP/qemu-images/boot.sh" run --out "$work/$enc" --timeout 1200 --kv "$enc" \
		--append "log_buf_len=32M loglevel=3 tsc=reliable" "${scripts[@]}" >"$work/$enc.log" 2>&1
	r=$work/$enc/guest-compare.sh
	if [ "$(cat "$r.rc" 2>/dev/null)" != 0 ]; then
		cat "$work/$enc.log" >&2
		pkv_die "compare: the $enc boot did not measure (guest-compare.sh, output above)"
	fi
	st=""
	for s in $scenarios; do
		rc=$(cat "$work/$enc/$s.sh.rc" 2>/dev/null || echo null)
		if [ "$enc" != off ] && [ "$rc" != 0 ]; then
			cat "$work/$enc.log" >&2
			pkv_die "compare: scenario $s failed under printk.kv=$enc (output above)"
		fi
		st="$st{\"scenario\": \"$s\", \"rc\": $rc},"
	done
	pkv_say "compare: $enc measured in $(($(date +%s) - t0)) s"
	cp "$r/records.json" "$data/$enc-records.json"
	cp "$r/bench-records.json" "$data/$enc-bench-records.json"
	jq -R -s -c --argjson scen "[${st%,}]" --arg uname "$(cat "$r/uname" 2>/dev/null)" \
		'{uname: $uname, scenarios: $scen, bench: [split("\n")[] | select(length > 0)
		| split("\t") | map(tonumber) | {run: .[0], fields: .[1], plain_ns: .[2], kv_ns: .[3]}]}' \
		"$r/bench.tsv" >"$data/$enc-runs.json" || pkv_die "compare: $r/bench.tsv: not a table of numbers"
done
# The accelerator the boots used (boot.sh probes it on the first boot).
jq --arg accel "$(tail -1 "$PKV_CACHE/accel" 2>/dev/null)" '. + {accel: $accel}' "$work/meta.json" >"$data/meta.json"
python3 "$PKV_TOP/tests/bench/compare.py" "$data" "$doc" || pkv_die "compare: tests/bench/compare.py failed"
if [ "$mode" = full ]; then
	mkdir -p "$PKV_TOP/docs/data/compare"
	rm -f "$PKV_TOP/docs/data/compare"/*.json
	cp "$data"/*.json "$PKV_TOP/docs/data/compare/"
	cp "$doc" "$PKV_TOP/docs/PROPOSALS.md"
	pkv_say "compare: wrote docs/PROPOSALS.md from docs/data/compare/"
else
	pkv_say "compare --smoke: every cell of the tables filled ($(grep -c '^|' "$doc") table lines)"
fi
