#!/bin/sh
# boot-all.sh BOOT.SH STAMP RESULTS [--append ARGS] SCENARIO...: one boot for
# every guest scenario.
# Always succeeds so that meson runs each scenario's test, which reports.
boot=$1
stamp=$2
res=$3
shift 3
rm -rf "$res"
mkdir -p "$res"
# Any --append ARGS go through to boot.sh, which has a default without them.
"$boot" run --out "$res" "$@" >"$res/boot.log" 2>&1
echo $? >"$res/boot.rc"
tail -n 3 "$res/boot.log"
touch "$stamp"
