#!/usr/bin/env bash
# sizes.sh: text and rodata of the converted code, pristine tree against the
# series, as markdown table rows on stdout (progress on stderr). Builds the
# converted directories in the pristine worktree first.
set -u
. "$(dirname "$0")/../../qemu-images/lib.sh"
eval "$(bash "$PKV_TOP/qemu-images/kernel.sh" vars)"
dirs="net/l2tp fs/ext4 drivers/net/ethernet/cirrus drivers/isdn/mISDN"
log=$PKV_CACHE/pristine-sizes.log
pkv_say "sizes: building $dirs in the pristine tree (log: $log)"
# shellcheck disable=SC2086 # one make argument per directory
make -s -C "$PRISTINE_DIR" O="$PRISTINE_OUT" LOCALVERSION= -j"$PKV_JOBS" \
	$(for d in $dirs; do printf '%s/ ' "$d"; done) >"$log" 2>&1 ||
	pkv_die "building the converted directories in $PRISTINE_DIR failed (see $log)"
# Text includes .init.text and .exit.text: probe and module init code lives there.
sz() { size -A "$1" | awk '$1 ~ /^\.((init|exit)\.)?text/ { t += $2 } $1 ~ /^\.rodata/ { r += $2 } END { print t + 0, r + 0 }'; }
for d in $dirs; do
	rows="" tb=0 ta=0 rb=0 ra=0 n=0
	for after in "$OUT_DIR/$d"/*.o; do
		o=${after#"$OUT_DIR/"}
		before=$PRISTINE_OUT/$o
		# Compiled objects only: a module linked from several (mISDN_core.o,
		# whose .mod lists its parts) would count its parts twice.
		case $o in *.mod.o) continue ;; esac
		[ -f "$before" ] || continue
		[ -f "$OUT_DIR/${o%.o}.mod" ] && [ "$(wc -w <"$OUT_DIR/${o%.o}.mod")" -gt 1 ] && continue
		read -r t0 r0 <<<"$(sz "$before")"
		read -r t1 r1 <<<"$(sz "$after")"
		tb=$((tb + t0)) ta=$((ta + t1)) rb=$((rb + r0)) ra=$((ra + r1)) n=$((n + 1))
		[ "$t0" = "$t1" ] && [ "$r0" = "$r1" ] && continue
		rows="$rows| $o | $t0 | $t1 | $((t1 - t0)) | $r0 | $r1 | $((r1 - r0)) |
"
	done
	[ "$n" -gt 0 ] || pkv_die "no objects of $d in both $OUT_DIR and $PRISTINE_OUT"
	printf '| **%s/ (%d objects)** | %d | %d | %+d (%s%%) | %d | %d | %+d |\n' "$d" "$n" "$tb" "$ta" \
		$((ta - tb)) "$(awk -v a="$ta" -v b="$tb" 'BEGIN { printf "%+.1f", (a - b) * 100 / b }')" \
		"$rb" "$ra" $((ra - rb))
	printf '%s' "$rows"
done
