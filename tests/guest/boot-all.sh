#!/bin/sh
# boot-all.sh BOOT.SH STAMP RESULTS [--append ARGS] SCENARIO...: one boot for
# every guest scenario.
# Always succeeds so that meson runs each scenario's test, which reports.
boot=$1
stamp=$2
res=$3
shift 3
append=
if [ "${1:-}" = --append ]; then
	append=$2
	shift 2
fi
rm -rf "$res"
mkdir -p "$res"
"$boot" run --out "$res" --append "$append" "$@" >"$res/boot.log" 2>&1
echo $? >"$res/boot.rc"
tail -n 3 "$res/boot.log"
touch "$stamp"
