#!/bin/bash
# pkv-results.sh TOP: ./pkv test's counting (tests/lib/results.sh) on made-up
# meson runs, one for each way a run can pass, fail or lose tests. KTAP.
set -u
top=$1
PKV_TOP=$top PKV_TIMINGS=
. "$top/qemu-images/lib.sh"
. "$top/tests/lib/results.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

# A stand-in for meson: --list prints FAKE_REGISTERED test names; a run
# writes FAKE_LOG (JSON lines; no log at all for "-") and exits FAKE_RC,
# and records a step in PKV_TIMINGS as a nested ./pkv would.
meson() {
	local i
	case " $* " in
	*" --list "*)
		echo "ninja: no work to do."
		for i in $(seq "$FAKE_REGISTERED"); do echo "t$i"; done
		return 0 ;;
	esac
	[ -z "${PKV_TIMINGS:-}" ] || printf 'nested\t1.0\t0\n' >>"$PKV_TIMINGS"
	mkdir -p "$tmp/build/meson-logs"
	[ "$FAKE_LOG" = - ] || printf '%s\n' "$FAKE_LOG" >"$tmp/build/meson-logs/testlog.json"
	return "$FAKE_RC"
}
rec() { printf '{"name": "%s", "result": "%s"}' "$1" "$2"; }

# expect DESC PASSED FAILED SKIPPED: count the one run made since the last
# expect, and compare.
expect() {
	local desc=$1 got
	PASSED=0 FAILED=0 SKIPPED=()
	count_results 2>"$tmp/said"
	got="$PASSED $FAILED ${SKIPPED[*]}"
	n=$((n + 1))
	if [ "$got" = "$2 $3 $4" ]; then
		echo "ok $n $desc"
	else
		echo "not ok $n $desc"
		echo "# got passed/failed/skipped: $got; wanted: $2 $3 $4"
		sed 's/^/# /' "$tmp/said"
		failed=$((failed + 1))
	fi
	MESON_RUNS=()
}

run() {
	FAKE_REGISTERED=$1 FAKE_RC=$2 FAKE_LOG=$3
	meson_tests fake "$tmp/build" --suite host 2>/dev/null
}

# TAP 13 for meson's parser, which knows no KTAP version line
echo "TAP version 13"
echo "1..11"
MESON_RUNS=()
run 3 0 "$(rec a OK; echo; rec b OK; echo; rec c EXPECTEDFAIL)"
expect "every registered test passed" 3 0 ""
run 3 1 "$(rec a OK; echo; rec b TIMEOUT; echo; rec c SKIP)"
expect "a time-out fails, a skip is reported and not passed" 1 1 c
run 3 1 "$(rec a ERROR; echo; rec b FAIL; echo; rec c TIMEOUT)"
expect "each failed test counts once, meson's exit adds nothing" 0 3 ""
run 2 1 "$(rec a OK; echo; rec b OK)"
expect "meson exiting non-zero with every test OK counts one failure" 2 1 ""
run 3 0 "$(rec a OK; echo; rec b OK)"
expect "fewer tests ran than are registered: a failure" 2 1 ""
run 3 1 "$(rec a OK)"
expect "meson's exit and tests that never ran: one failure for the run" 1 1 ""
run 0 0 ""
expect "no test registered for the arguments: a failure, not a vacuous pass" 0 1 ""
run 2 0 '{"name": "a", "result": "OK"}
{"name": "b", "resu'
expect "a log cut short is a failure, not a count" 0 1 ""
# A log from an earlier run is still there; this run writes none.
mkdir -p "$tmp/build/meson-logs"
printf '%s\n' "$(rec old OK)" >"$tmp/build/meson-logs/testlog.json"
run 1 1 -
expect "the last run's log is deleted first: never counted again" 0 1 ""

# The run's timings hold its own step, not those of a ./pkv the tests run.
PKV_TIMINGS=$tmp/timings
: >"$PKV_TIMINGS"
run 1 0 "$(rec a OK)"
MESON_RUNS=()
n=$((n + 1))
if [ "$(cut -f1 "$PKV_TIMINGS" | paste -sd' ')" = fake ]; then
	echo "ok $n a nested ./pkv's steps stay out of the run's timings"
else
	echo "not ok $n a nested ./pkv's steps stay out of the run's timings"
	echo "# timings: $(cut -f1 "$PKV_TIMINGS" | paste -sd' ')"
	failed=$((failed + 1))
fi
PKV_TIMINGS=

# A build step that dies (pkv_die) returns its failure to the caller, which
# goes on to print the summary.
dies() { pkv_die "made-up failure"; }
n=$((n + 1))
if out=$( { pkv_step fake-build dies; echo "returned $?"; } 2>/dev/null) && [ "$out" = "returned 1" ]; then
	echo "ok $n pkv_step returns a step's pkv_die as status 1"
else
	echo "not ok $n pkv_step returns a step's pkv_die as status 1"
	echo "# got: ${out:-nothing (the caller exited)}"
	failed=$((failed + 1))
fi
[ $failed -eq 0 ]
