#!/usr/bin/env bash
# sizes.sh: section sizes of the converted code, pristine tree against the
# series, as JSON on stdout (tests/bench/sizes.py; progress on stderr).
# Builds the converted directories in the pristine build first.
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
# shellcheck disable=SC2086 # one argument per directory
python3 "$PKV_TOP/tests/bench/sizes.py" "$PRISTINE_OUT" "$OUT_DIR" $dirs
