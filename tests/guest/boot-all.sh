#!/bin/sh
# boot-all.sh BOOT.SH RESULTS [BOOT.SH OPTION]... SCENARIO...: one boot for
# every guest scenario, the meson test guest-ENCODING-boot. It runs before
# the scenarios' tests (a higher priority, alone), which read RESULTS.
# Passes when the guest ran every scenario, whatever their results: those
# are the scenarios' tests to report.
boot=$1
res=$2
shift 2
rm -rf "$res"
mkdir -p "$res"
# The scenarios are the arguments that are files; the others are BOOT.SH's.
missing=""
for a in "$@"; do
	[ -f "$a" ] && missing="$missing $(basename "$a")"
done
"$boot" run --out "$res" "$@" >"$res/boot.log" 2>&1
echo $? >"$res/boot.rc"
tail -n 3 "$res/boot.log"
notrun=""
for s in $missing; do
	[ -f "$res/$s.rc" ] || notrun="$notrun $s"
done
if [ -n "$notrun" ]; then
	# Why, for each scenario's test (check.sh): a kernel oops or panic names
	# the scenario it stopped; else the harness's error (a time-out).
	why=$(sed -n 's/^pkv: kernel: /kernel: /p' "$res/boot.log" | head -n 1)
	[ -n "$why" ] || why=$(sed -n 's/^pkv: error: //p' "$res/boot.log" | head -n 1)
	echo "not run: ${why:-the boot exited $(cat "$res/boot.rc")}" | tr '#' ' ' >"$res/notrun"
	echo "FAIL the boot did not run:$notrun; the boot said (exit $(cat "$res/boot.rc")):"
	tail -n 40 "$res/boot.log"
	exit 1
fi
echo "ok   the boot ran every scenario:$missing"
