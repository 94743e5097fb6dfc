#!/bin/sh
# meson-all.sh BUILD: `meson compile` (ninja's all) builds the programs only.
# No command of `all` may boot the guest, build the kernel or run a test's
# prerequisites that do either: those belong to `meson test` (issue: a
# guest boot as a custom_target made `meson compile` boot four guests).
build=$1
cmds=$(ninja -C "$build" -t commands all) || { echo "FAIL ninja -t commands all in $build"; exit 1; }
bad=$(printf '%s\n' "$cmds" | grep -E 'qemu-images/|boot-all\.sh|kernel\.sh|qemu-system' | head -5)
if [ -n "$bad" ]; then
	echo "FAIL meson compile would run:"
	printf '%s\n' "$bad" | sed 's/^/     /'
	exit 1
fi
echo "ok   meson compile builds $(printf '%s\n' "$cmds" | grep -c .) commands, none boots a guest or builds the kernel"
