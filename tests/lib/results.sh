# shellcheck shell=bash
# How ./pkv test counts: each meson run's results, and every way a run can
# lose tests without a result (no log, meson's own failure, tests that never
# ran). Sourced by ./pkv after qemu-images/lib.sh; tests/host/pkv-results.sh
# checks it on made-up logs.

# meson_untimed ARGS...: meson, for tests that run ./pkv themselves (try,
# shell, the bench smoke): their build steps stay out of this run's timings.
meson_untimed() { PKV_TIMINGS= meson "$@"; }

# meson_tests STEP DIR ARGS...: a pkv_step running meson test -C DIR ARGS,
# its old testlog deleted first, so that only this run is counted. Appends
# the log and the number of tests ARGS select to MESON_RUNS, and the step's
# exit status.
meson_tests() {
	local step=$1 dir=$2 rc registered
	shift 2
	rm -f "$dir/meson-logs/testlog.json"
	pkv_step "$step" meson_untimed test -C "$dir" "$@" --print-errorlogs --timeout-multiplier 1
	rc=$?
	# One line per test (its regeneration check can print ninja's line too).
	registered=$(meson test -C "$dir" --list "$@" 2>/dev/null | grep -c -v '^ninja: \|^$')
	MESON_RUNS+=("$step $rc $registered $dir/meson-logs/testlog.json")
}

# count_results: every meson run of MESON_RUNS into PASSED, FAILED and
# SKIPPED, with a line for each way a run can lose tests without a result.
count_results() {
	local run step rc registered log counts ran ok f why
	for run in "${MESON_RUNS[@]}"; do
		read -r step rc registered log <<<"$run"
		# Tests run, passed (OK, EXPECTEDFAIL) and failed (any other result
		# but SKIP: FAIL, TIMEOUT, ERROR, UNEXPECTEDPASS).
		if ! counts=$(jq -r -s '[length, ([.[] | select(.result == "OK" or .result == "EXPECTEDFAIL")] | length),
			([.[] | select(.result | IN("OK", "EXPECTEDFAIL", "SKIP") | not)] | length)] | @tsv' "$log" 2>/dev/null); then
			pkv_say "$step: no readable meson log $log (meson test exited $rc)"
			FAILED=$((FAILED + 1))
			continue
		fi
		read -r ran ok f <<<"$counts"
		PASSED=$((PASSED + ok))
		FAILED=$((FAILED + f))
		mapfile -t -O ${#SKIPPED[@]} SKIPPED < <(jq -r -s '.[] | select(.result == "SKIP") | .name' "$log")
		# What the log does not show counts once per run, whatever the cause.
		why=""
		[ "$registered" -gt 0 ] || why="meson test --list named no test for these arguments; "
		[ "$ran" -ge "$registered" ] || why+="$ran of the $registered registered tests ran; "
		[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || why+="meson test exited $rc with no failed test in its log; "
		if [ -n "$why" ]; then
			pkv_say "$step: ${why%; }"
			FAILED=$((FAILED + 1))
		fi
	done
}
