#!/bin/sh
# run.sh SECONDS [--smoke]: build the libFuzzer targets with clang (ASan,
# UBSan) and run each for SECONDS. Without --smoke the runs grow the corpus
# in tests/fuzz/corpus/; with it they work on a copy (the test suite).
# Prints each target's executions and exits non-zero on a crash.
set -u
secs=${1:-600}
smoke=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${PKV_BUILD:-$top/build}/fuzz
mkdir -p "$out"
reader="$top/userspace-reader/record.c $top/userspace-reader/kvblock.c $top/userspace-reader/input.c $top/userspace-reader/json.c"
# A 16 KiB stream buffer instead of 1 MiB: see userspace-reader/input.c.
flags="-std=gnu11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-DPKV_STREAM_BUF=16384 -I$top/userspace-reader"
clang $flags "$here/fuzz_record.c" $reader -o "$out/fuzz_record" || exit 1
clang $flags -DCONFIG_NONE -I"$top/tests/host/shim" -I"$top/include-prototype" \
	"$here/fuzz_escape.c" "$top/tests/host/shim/shim.c" $reader -o "$out/fuzz_escape" || exit 1
fail=0
for t in record escape; do
	corpus=$here/corpus/$t
	if [ "$smoke" = --smoke ]; then
		corpus=$(mktemp -d)
		cp -r "$here/corpus/$t/." "$corpus/"
	fi
	"$out/fuzz_$t" -max_total_time="$secs" -print_final_stats=1 -timeout=10 -max_len=16384 \
		-artifact_prefix="$out/crash-$t-" "$corpus" "$top/tests/data" >"$out/$t.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log")
	if [ $rc -ne 0 ]; then
		echo "FAIL fuzz_$t: exit $rc after ${execs:-?} executions:"
		grep -E 'ERROR|SUMMARY|==[0-9]+==|Test unit written' "$out/$t.log" | head -10
		fail=1
	else
		echo "ok   fuzz_$t: ${execs} executions in ${secs}s, no crash, corpus $(ls "$corpus" | wc -l) inputs"
	fi
	[ "$smoke" = --smoke ] && rm -rf "$corpus"
done
exit $fail
