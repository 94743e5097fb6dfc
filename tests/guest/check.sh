#!/bin/sh
# check.sh RESULTS NAME: the meson test of one guest scenario, from the results
# of the shared boot (tests/guest/boot-all.sh, the test guest-ENCODING-boot,
# which meson runs first when both are selected).
res=$1
name=$2
if [ ! -f "$res/$name.rc" ]; then
	echo "scenario $name did not run (its boot is the test guest-*-boot writing $res); the boot said:"
	tail -n 40 "$res/boot.log" 2>/dev/null
	exit 1
fi
cat "$res/$name.stdout"
[ -s "$res/$name.stderr" ] && sed 's/^/stderr: /' "$res/$name.stderr"
rc=$(cat "$res/$name.rc")
[ "$rc" = 0 ] || { echo "scenario $name exited $rc"; exit "$rc"; }
# Every FAIL a scenario prints counts, even one it forgot to count itself.
n=$(grep -c '^FAIL' "$res/$name.stdout")
[ "$n" -eq 0 ] || { echo "scenario $name exited 0 but printed $n FAIL line(s): failed"; exit 1; }
