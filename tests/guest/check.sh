#!/bin/sh
# check.sh RESULTS NAME: the meson test of one guest scenario (protocol
# 'tap'), from the results of the shared boot (tests/guest/boot-all.sh, the
# test guest-ENCODING-boot, which meson runs first when both are selected).
#
# The scenario wrote KTAP version 1 (tests/guest/lib/assert.sh) to
# RESULTS/NAME.stdout. Its test lines go to meson as they are, under a TAP 13
# version line (meson's parser knows no KTAP version line); any other line
# becomes a diagnostic. Then two checks of the harness's own: the scenario's
# plan matches the results it printed (a scenario cut short has none), and
# it exited 0.
res=$1
name=$2
ktap=$res/$name.stdout
echo "TAP version 13"
echo "# KTAP from the guest: $ktap"
if [ ! -f "$res/$name.rc" ]; then
	reason=$(cat "$res/notrun" 2>/dev/null ||
		echo "not run: its boot, the test guest-*-boot writing $res, did not run")
	echo "# the boot said:"
	tail -n 40 "$res/boot.log" 2>/dev/null | sed 's/^/#   /'
	echo "not ok 1 $name ran # $reason"
	echo "1..1"
	exit 1
fi
awk 'NR == 1 && /^KTAP version 1$/ { next }
	/^(not )?ok [0-9]+( |$)/ || /^#/ { print; next }
	/^1\.\.[0-9]+$/ { next }
	{ print "# " $0 }' "$ktap"
[ -s "$res/$name.stderr" ] && sed 's/^/# stderr: /' "$res/$name.stderr"
# n: results printed, failed: "not ok" among them, plan: the scenario's N.
# shellcheck disable=SC2046 # three words, split on purpose
set -- $(awk '/^(not )?ok [0-9]+( |$)/ { n++; if (/^not /) f++ }
	/^1\.\.[0-9]+$/ { plan = substr($0, 4) }
	END { print n + 0, f + 0, plan == "" ? "none" : plan }' "$ktap")
n=$1 failed=$2 plan=$3
rc=$(cat "$res/$name.rc")
status=0
if [ "$plan" = "$n" ]; then
	echo "ok $((n + 1)) $name: its plan 1..$plan matches its $n results"
else
	echo "not ok $((n + 1)) $name: plan $plan for $n results (cut short?)"
	status=1
fi
if [ "$rc" = 0 ]; then
	echo "ok $((n + 2)) $name exited 0"
else
	echo "not ok $((n + 2)) $name exited $rc$([ "$rc" = 124 ] && echo ", killed at its time limit")"
	status=1
fi
echo "1..$((n + 2))"
[ "$failed" -eq 0 ] || status=1
exit $status
