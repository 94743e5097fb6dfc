#!/usr/bin/env bash
# Build tests/oot-module against the pristine tree (no printk_kv.h in it) with
# only -I include-prototype, and the guest fixtures (tests/guest/fixtures)
# against the patched tree; add both to the guest's module tree.
set -u
. "$(dirname "$0")/lib.sh"
eval "$(bash "$PKV_TOP/qemu-images/kernel.sh" vars)"
bash "$PKV_TOP/qemu-images/kernel.sh" pristine || exit 1
work=$PKV_CACHE/oot-module
rm -rf "$work"
mkdir -p "$work"
cp "$PKV_TOP"/tests/oot-module/* "$work/"
make -s -C "$PRISTINE_DIR" O="$PRISTINE_OUT" LOCALVERSION= M="$work" \
	PKV_INCLUDE="$PKV_TOP/include-prototype" modules >"$work/build.log" 2>&1 ||
	{ cat "$work/build.log" >&2; pkv_die "out-of-tree build of tests/oot-module against the pristine tree failed"; }
# modules_prepare has no Module.symvers: modpost lists the kernel's symbols as
# undefined; they resolve at load time (no MODVERSIONS in the guest config).
rel=$(cat "$OUT_DIR/.pkv-release")
[ -d "$MOD_DIR/lib/modules/$rel" ] || pkv_die "$MOD_DIR/lib/modules/$rel: build the kernel first"
mkdir -p "$MOD_DIR/lib/modules/$rel/extra"
install -m 0644 "$work/pkv_oot_demo.ko" "$MOD_DIR/lib/modules/$rel/extra/"

fix=$PKV_CACHE/guest-fixtures
rm -rf "$fix"
mkdir -p "$fix"
cp "$PKV_TOP"/tests/guest/fixtures/* "$fix/"
make -s -C "$SRC_DIR" O="$OUT_DIR" LOCALVERSION= M="$fix" modules >"$fix/build.log" 2>&1 ||
	{ cat "$fix/build.log" >&2; pkv_die "build of tests/guest/fixtures against $OUT_DIR failed"; }
install -m 0644 "$fix"/*.ko "$MOD_DIR/lib/modules/$rel/extra/"
