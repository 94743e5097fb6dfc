#!/usr/bin/env bash
# Build tests/oot-module against the pristine tree (no printk_kv.h in it) with
# only -I include-prototype, and the guest fixtures (tests/guest/fixtures)
# against the patched tree; add both to the guest's module tree. Each is
# rebuilt only when its sources or the kernel it builds against changed.
set -u
. "$(dirname "$0")/lib.sh"
eval "$(bash "$PKV_TOP/qemu-images/kernel.sh" vars)"
bash "$PKV_TOP/qemu-images/kernel.sh" pristine || exit 1
# build_key DIR KERNEL-STAMP...: what a module build depends on.
build_key() {
	local dir=$1
	shift
	{ (cd "$dir" && sha256sum ./*); cat "$@" 2>/dev/null; stat -c "%n %Y" "$@" 2>/dev/null; echo "$PKV_TOP/include-prototype";
	  find "$PKV_TOP/include-prototype" -type f -print0 | sort -z | xargs -0 sha256sum; } | sha256sum | cut -c1-16
}

work=$PKV_CACHE/oot-module
key=$(build_key "$PKV_TOP/tests/oot-module" "$PRISTINE_OUT/.pkv-prepared" "$PRISTINE_OUT/.pkv-config")
if [ "$(cat "$work/.pkv-key" 2>/dev/null)" != "$key" ] || [ ! -f "$work/pkv_oot_demo.ko" ]; then
	rm -rf "$work"
	mkdir -p "$work"
	cp "$PKV_TOP"/tests/oot-module/* "$work/"
	make -s -C "$PRISTINE_DIR" O="$PRISTINE_OUT" LOCALVERSION= M="$work" \
		PKV_INCLUDE="$PKV_TOP/include-prototype" modules >"$work/build.log" 2>&1 ||
		{ cat "$work/build.log" >&2; pkv_die "out-of-tree build of tests/oot-module against the pristine tree failed"; }
	echo "$key" >"$work/.pkv-key"
fi
# modules_prepare has no Module.symvers: modpost lists the kernel's symbols as
# undefined; they resolve at load time (no MODVERSIONS in the guest config).
rel=$(cat "$OUT_DIR/.pkv-release")
[ -d "$MOD_DIR/lib/modules/$rel" ] || pkv_die "$MOD_DIR/lib/modules/$rel: build the kernel first"
mkdir -p "$MOD_DIR/lib/modules/$rel/extra"
# -C: an unchanged module keeps its mtime in the guest's module tree.
install -C -m 0644 "$work/pkv_oot_demo.ko" "$MOD_DIR/lib/modules/$rel/extra/"

fix=$PKV_CACHE/guest-fixtures
key=$(build_key "$PKV_TOP/tests/guest/fixtures" "$OUT_DIR/.pkv-build-id")
if [ "$(cat "$fix/.pkv-key" 2>/dev/null)" != "$key" ] || ! ls "$fix"/*.ko >/dev/null 2>&1; then
	rm -rf "$fix"
	mkdir -p "$fix"
	cp "$PKV_TOP"/tests/guest/fixtures/* "$fix/"
	make -s -C "$SRC_DIR" O="$OUT_DIR" LOCALVERSION= M="$fix" modules >"$fix/build.log" 2>&1 ||
		{ cat "$fix/build.log" >&2; pkv_die "build of tests/guest/fixtures against $OUT_DIR failed"; }
	echo "$key" >"$fix/.pkv-key"
fi
install -C -m 0644 "$fix"/*.ko "$MOD_DIR/lib/modules/$rel/extra/"
# The kernel refuses a module whose struct module is not its own size (the
# pristine tree prepared with another configuration): say so here, not as a
# failed modprobe in the guest.
this_module_size() {
	readelf -S -W "$1" | sed -n 's/.* \.gnu\.linkonce\.this_module *PROGBITS *[0-9a-f]* [0-9a-f]* \([0-9a-f]*\) .*/\1/p'
}
oot_size=$(this_module_size "$work/pkv_oot_demo.ko")
for ko in "$fix"/*.ko; do
	[ -n "$oot_size" ] && [ "$oot_size" = "$(this_module_size "$ko")" ] ||
		pkv_die "$work/pkv_oot_demo.ko: struct module is 0x${oot_size:-?} bytes, 0x$(this_module_size "$ko") in $ko built against the kernel: $PRISTINE_OUT is not configured as $OUT_DIR"
done
# The module index with these in it; the guest image copies it as it is.
depmod -b "$MOD_DIR" "$rel" || pkv_die "depmod -b $MOD_DIR $rel failed"
