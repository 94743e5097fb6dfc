#!/bin/sh
# run.sh [RUNS]: build the libFuzzer targets with clang (ASan, UBSan) and
# run each for RUNS executions (default 10 million), one libFuzzer fork per
# core, growing the corpus in tests/fuzz/corpus/.
# run.sh --smoke SECONDS: one process per target for SECONDS, on a copy of
# the corpus (the test suite's bounded run).
# Prints each target's executions and exits non-zero on a crash; a smoke run
# also fails when the corpus was not replayed or the executions fall below
# a floor.
set -u
mode=long
runs=${1:-10000000}
if [ "${1:-}" = --smoke ]; then
	mode=smoke
	secs=${2:?run.sh --smoke SECONDS}
fi
case $mode:$runs in long:*[!0-9]*|long:) echo "run.sh: RUNS must be a number, not '$runs'" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${PKV_BUILD:-$top/build}/fuzz
mkdir -p "$out"
reader="$top/userspace-reader/record.c $top/userspace-reader/kvblock.c $top/userspace-reader/input.c $top/userspace-reader/seq.c $top/userspace-reader/json.c"
# Records of at most 1 KiB (fuzz_record.c asks for them) and a stream
# buffer of two records (PKV_STREAM_BUF=0) instead of 8 KiB and 1 MiB: every
# path of the parser and the input layer (over-long records, refills, a
# record across the buffer's end) is then reached by inputs of a few KiB,
# which run about ten times faster than the full-size ones.
maxlen=4096
flags="-std=gnu11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-DPKV_STREAM_BUF=0 -I$top/userspace-reader"
echo "fuzz: building the targets in $out"
clang $flags "$here/fuzz_record.c" $reader -ljansson -o "$out/fuzz_record" || exit 1
clang $flags -DCONFIG_NONE -I"$top/tests/host/shim" -I"$top/include-prototype" \
	"$here/fuzz_escape.c" "$top/tests/host/shim/shim.c" $reader -o "$out/fuzz_escape" || exit 1
# A use after free shows within one execution: a 16 MiB quarantine finds it
# and spares the page faults of the default 256 MiB one (a third faster).
ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16}
export ASAN_OPTIONS
fail=0
for t in record escape; do
	corpus=$here/corpus/$t
	common="-print_final_stats=1 -timeout=10 -max_len=$maxlen -artifact_prefix=$out/crash-$t-"
	start=$(date +%s)
	if [ $mode = smoke ]; then
		corpus=$(mktemp -d)
		cp -r "$here/corpus/$t/." "$corpus/"
		"$out/fuzz_$t" $common -max_total_time="$secs" "$corpus" "$top/tests/data" >"$out/$t.log" 2>&1
		rc=$?
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log")
	else
		jobs=$(nproc)
		echo "fuzz_$t: $runs executions in $jobs forks (log: $out/$t.log)"
		"$out/fuzz_$t" $common -fork="$jobs" -runs="$runs" "$corpus" "$top/tests/data" >"$out/$t.log" 2>&1
		rc=$?
		# The fork parent's status lines start with the executions so far.
		execs=$(sed -n 's/^#\([0-9]*\): .*/\1/p' "$out/$t.log" | tail -1)
	fi
	took=$(($(date +%s) - start))
	# The smoke's floor: the whole corpus replayed (INITED), then at least
	# a tenth of what this machine does when idle (record about 14,000
	# in 30 s, escape about 6.8 million), so a slow or stuck target fails.
	floor=0
	if [ $mode = smoke ]; then
		[ $t = record ] && floor=$((secs * 50)) || floor=$((secs * 20000))
	fi
	if [ $rc -eq 0 ] && [ $mode = smoke ] && ! grep -q 'INITED' "$out/$t.log"; then
		echo "FAIL fuzz_$t: the corpus was not replayed in ${secs}s (no INITED in $out/$t.log)"
		fail=1
	elif [ $rc -eq 0 ] && [ "${execs:-0}" -lt $floor ]; then
		echo "FAIL fuzz_$t: ${execs:-no} executions in ${took}s, below the smoke's floor of $floor"
		fail=1
	elif [ $rc -ne 0 ]; then
		echo "FAIL fuzz_$t: exit $rc after ${execs:-?} executions in ${took}s:"
		grep -E 'ERROR|SUMMARY|==[0-9]+==|Test unit written' "$out/$t.log" | head -10
		fail=1
	else
		echo "ok   fuzz_$t: ${execs:-?} executions in ${took}s, no crash, corpus $(ls "$corpus" | wc -l) inputs"
	fi
	[ $mode = smoke ] && rm -rf "$corpus"
done
exit $fail
