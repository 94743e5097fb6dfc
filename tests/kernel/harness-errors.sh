#!/bin/sh
# harness-errors.sh TOP: the harness fails loudly, with a specific message and
# a non-zero exit, when a patch does not apply, when the kernel does not build
# (both on a tiny fake source tarball in a scratch cache), when the guest
# never finishes (a real boot with a short time-out) and when its kernel
# panics (a real boot; the scripts before it keep their results).
set -u
top=$(cd "$1" && pwd)
# The boots below use the caller's cache (./pkv test's), not the scratch one.
caller_cache=${PKV_CACHE:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

expect() {	# expect NAME REGEX COMMAND...
	name=$1 re=$2
	shift 2
	"$@" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && grep -Eq "$re" "$tmp/out"; then
		echo "ok   $name: exit $rc, says: $(grep -E "$re" "$tmp/out" | head -1)"
	else
		echo "FAIL $name: exit $rc, expected non-zero and /$re/; output:"
		tail -n 15 "$tmp/out"
		fail=1
	fi
}

mkdir -p "$tmp/fake/linux-source-6.1/scripts/kconfig" "$tmp/patches" "$tmp/good"
cat >"$tmp/fake/linux-source-6.1/Makefile" <<'EOM'
tinyconfig olddefconfig:
	@mkdir -p $(O) && touch $(O)/.config
kernelversion:
	@echo 6.1.0
bzImage modules:
	@echo "drivers/fake.c:1:1: error: this tree does not build" >&2; exit 1
EOM
printf '#!/bin/sh\nexit 0\n' >"$tmp/fake/linux-source-6.1/scripts/kconfig/merge_config.sh"
chmod +x "$tmp/fake/linux-source-6.1/scripts/kconfig/merge_config.sh"
echo "int x;" >"$tmp/fake/linux-source-6.1/fake.c"
tar -C "$tmp/fake" -cJf "$tmp/fake.tar.xz" linux-source-6.1
cat >"$tmp/patches/0001-bad.patch" <<'EOM'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Nobody <nobody@example.invalid>
Subject: [PATCH] a patch against a file that is not there

---
 fake.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/fake.c b/fake.c
--- a/fake.c
+++ b/fake.c
@@ -1 +1 @@
-int y;
+int z;
EOM
echo 0001-bad.patch >"$tmp/patches/series"
: >"$tmp/good/series"

export PKV_KERNEL_TARBALL="$tmp/fake.tar.xz" PKV_CACHE="$tmp/cache"
expect "a patch that does not apply" "0001-bad.patch does not apply to pristine" \
	env PKV_PATCH_DIR="$tmp/patches" bash "$top/qemu-images/kernel.sh" apply
expect "a kernel that does not build" "kernel build failed.*kbuild.log" \
	sh -c "PKV_PATCH_DIR='$tmp/good' bash '$top/qemu-images/kernel.sh' apply &&
	       PKV_PATCH_DIR='$tmp/good' bash '$top/qemu-images/kernel.sh' build"
grep -q "this tree does not build" "$tmp/out" && echo "ok   the build error itself is shown" ||
	{ echo "FAIL the compiler's error line is not shown"; fail=1; }
# Re-applying a changed kernel-patches/ must never discard work in the tree.
mkdir -p "$tmp/good2" && echo "# a changed, still empty series" >"$tmp/good2/series"
git -C "$tmp/cache/linux-src" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "work not exported"
expect "re-applying refuses to drop commits not in kernel-patches/" "branch pkv has commits that kernel-patches/ does not.*pkv patches" \
	env PKV_PATCH_DIR="$tmp/good2" bash "$top/qemu-images/kernel.sh" apply
git -C "$tmp/cache/linux-src" reset -q --hard HEAD~1
echo "int w;" >"$tmp/cache/linux-src/fake.c"
expect "re-applying refuses to drop uncommitted changes" "has uncommitted changes" \
	env PKV_PATCH_DIR="$tmp/good2" bash "$top/qemu-images/kernel.sh" apply
git -C "$tmp/cache/linux-src" checkout -q -- fake.c
if env PKV_PATCH_DIR="$tmp/good2" bash "$top/qemu-images/kernel.sh" apply >"$tmp/out" 2>&1; then
	echo "ok   with the work dropped, the changed series applies"
else
	echo "FAIL the changed series does not apply on a clean tree:"; tail -n 5 "$tmp/out"; fail=1
fi
unset PKV_KERNEL_TARBALL PKV_CACHE
[ -n "$caller_cache" ] && export PKV_CACHE="$caller_cache"

cat >"$tmp/slow.sh" <<'EOM'
echo "kv_console_plain=$(cat /sys/module/printk/parameters/kv_console_plain)"
printf 'written in the guest by %s\n' "$(uname -r)" >"$PKV_OUT/hello.txt"
mkdir -p "$PKV_OUT/sub" && echo nested >"$PKV_OUT/sub/file"
sleep 100000
EOM
# --timeout 80: the script is killed at 50 s (timeout - 30); the guest needs about 20 s to
# reach it and a few to power off, 4 s short of 50 s in one run here with --timeout 50.
# --append "": boot.sh's default command line sets printk.kv_console_plain=1,
# and this boot checks the parameter's own default.
expect "a script over its time limit is killed, the guest goes on" "=== slow.sh: exit 124" \
	bash "$top/qemu-images/boot.sh" run --out "$tmp/runout" --timeout 80 --append "" "$tmp/slow.sh"
if grep -q "^written in the guest by .*-pkv$" "$tmp/runout/slow.sh/hello.txt" 2>/dev/null &&
	[ "$(cat "$tmp/runout/slow.sh/sub/file" 2>/dev/null)" = nested ]; then
	echo "ok   files under \$PKV_OUT came back to --out DIR/slow.sh/ (even from a killed script)"
else
	echo "FAIL files written under \$PKV_OUT did not come back to --out DIR:"
	ls -R "$tmp/runout" 2>&1 | head
	fail=1
fi
grep -q '^kv_console_plain=N$' "$tmp/out" && echo "ok   printk.kv_console_plain is off by default" ||
	{ echo "FAIL printk.kv_console_plain is not N without the boot parameter"; fail=1; }
# Freeze the guest's runner: nothing will reboot the guest.
printf 'kill -STOP $(pgrep -f pkv-runner)\n' >"$tmp/hang.sh"
expect "a guest that never finishes" "did not finish within 40s" \
	bash "$top/qemu-images/boot.sh" run --timeout 40 "$tmp/hang.sh"
grep -q "last console lines" "$tmp/out" && echo "ok   the last console lines are shown" ||
	{ echo "FAIL no console lines shown on time-out"; fail=1; }
grep -Eq "qemu had [0-9]+s of CPU in [0-9]+s; host load average [0-9.]+ on [0-9]+ CPU" "$tmp/out" &&
	echo "ok   the time-out says how much CPU the guest got and how busy the host was" ||
	{ echo "FAIL no CPU time and host load on time-out"; fail=1; }
# A kernel panic in the second of three scripts: the first keeps its result,
# the console names the script that was running, the third is "not run".
printf 'echo fine\n' >"$tmp/first.sh"
printf 'echo c >/proc/sysrq-trigger\n' >"$tmp/crash.sh"
printf 'echo never\n' >"$tmp/third.sh"
expect "a kernel panic" "kernel: Kernel panic.*\\(while crash.sh was running\\)" \
	bash "$top/qemu-images/boot.sh" run --out "$tmp/crashout" --timeout 80 --append "" \
	"$tmp/first.sh" "$tmp/crash.sh" "$tmp/third.sh"
if grep -q '^=== first.sh: exit 0' "$tmp/out" && grep -q '^=== third.sh: exit not run' "$tmp/out" &&
	[ "$(cat "$tmp/crashout/first.sh.rc" 2>/dev/null)" = 0 ] && [ ! -e "$tmp/crashout/third.sh.rc" ] &&
	grep -aq 'sysrq triggered crash' "$tmp/crashout/console.log" 2>/dev/null; then
	echo "ok   the script before the panic kept its result, the one after is reported not run, the console log is in --out"
else
	echo "FAIL after a panic: results or console log missing:"
	grep '^===' "$tmp/out"; ls "$tmp/crashout" 2>&1 | head
	fail=1
fi
exit $fail
