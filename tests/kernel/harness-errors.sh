#!/bin/sh
# harness-errors.sh TOP: the harness fails loudly, with a specific message and
# a non-zero exit, when a patch does not apply, when the kernel does not build
# (both on a tiny fake source tarball in a scratch cache), when a script
# hangs (killed at its own time limit; the next one runs), when the guest
# never finishes (a real boot with a short time-out) and when its kernel
# panics (a real boot; the scripts before it keep their results, the test of
# the one after says it did not run, and why).
set -u
[ $# -eq 1 ] || { echo "usage: harness-errors.sh TOP (the project root)" >&2; exit 2; }
top=$(cd "$1" && pwd) || exit 2
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
modules_prepare:
	@mkdir -p $(O)/include/config && cp $(O)/.config $(O)/include/config/auto.conf
EOM
# merge_config.sh -m -O OUT OUT/.config FRAGMENT: the configuration is the fragment.
printf '#!/bin/sh\ncat "$5" >"$4"\n' >"$tmp/fake/linux-source-6.1/scripts/kconfig/merge_config.sh"
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
# A series that stops at its third patch, after a good apply: the run after
# it recovers by itself (no advice to drop work), and applies the fixed
# series.
mkpatch() {	# mkpatch FILE FROM TO: a patch of fake.c from line FROM to TO
	printf '%s\n' "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001" \
		"From: Nobody <nobody@example.invalid>" "Subject: [PATCH] fake.c: $3" "" "---" \
		" fake.c | 2 +-" " 1 file changed, 1 insertion(+), 1 deletion(-)" "" \
		"diff --git a/fake.c b/fake.c" "--- a/fake.c" "+++ b/fake.c" "@@ -1 +1 @@" "-$2" "+$3" >"$1"
}
mkdir -p "$tmp/s1" "$tmp/s2" "$tmp/s3"
mkpatch "$tmp/s1/0001-y.patch" "int x;" "int y;"
echo 0001-y.patch >"$tmp/s1/series"
cp "$tmp/s1/0001-y.patch" "$tmp/s2/" && cp "$tmp/s1/0001-y.patch" "$tmp/s3/"
mkpatch "$tmp/s2/0002-z.patch" "int y;" "int z;"
mkpatch "$tmp/s2/0003-bad.patch" "int q;" "int r;"
printf '0001-y.patch\n0002-z.patch\n0003-bad.patch\n' >"$tmp/s2/series"
cp "$tmp/s2/0002-z.patch" "$tmp/s3/"
printf '0001-y.patch\n0002-z.patch\n' >"$tmp/s3/series"
if env PKV_PATCH_DIR="$tmp/s1" bash "$top/qemu-images/kernel.sh" apply >"$tmp/out" 2>&1; then
	expect "git am fails at the third patch of a series, after two applied" \
		"0003-bad.patch does not apply.*the next run starts the series again" \
		env PKV_PATCH_DIR="$tmp/s2" bash "$top/qemu-images/kernel.sh" apply
	if env PKV_PATCH_DIR="$tmp/s3" bash "$top/qemu-images/kernel.sh" apply >"$tmp/out" 2>&1 &&
		grep -q "recovering from an apply that did not finish" "$tmp/out" &&
		[ "$(git -C "$tmp/cache/linux-src" rev-list --count pristine..pkv)" = 2 ] &&
		[ "$(cat "$tmp/cache/linux-src/fake.c")" = "int z;" ]; then
		echo "ok   the run after the failed git am recovered by itself and applied the fixed series"
	else
		echo "FAIL the run after a failed git am did not recover:"; tail -n 5 "$tmp/out"; fail=1
	fi
else
	echo "FAIL a one-patch series does not apply:"; tail -n 5 "$tmp/out"; fail=1
fi
# A new Debian linux-source (the tree says it came from another version):
# extracted again, with the old tree's pristine worktree; not while branch
# pkv has work that kernel-patches/ does not.
ksrc=$tmp/cache/linux-src
echo "0.0-old" >"$ksrc/.pkv-pristine"
git -C "$ksrc" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "work not exported"
expect "a linux-source upgrade refuses to drop work on branch pkv" "is now Debian .*export it with ./pkv patches first" \
	env PKV_PATCH_DIR="$tmp/s3" bash "$top/qemu-images/kernel.sh" apply
git -C "$ksrc" reset -q --hard HEAD~1
mkdir -p "$tmp/cache/linux-pristine" && echo "the old tree's" >"$tmp/cache/linux-pristine/Makefile"
if env PKV_PATCH_DIR="$tmp/s3" bash "$top/qemu-images/kernel.sh" apply >"$tmp/out" 2>&1 &&
	grep -q "extracting it again, the pristine worktree too" "$tmp/out" &&
	[ ! -e "$tmp/cache/linux-pristine" ] && [ "$(cat "$ksrc/.pkv-pristine")" != "0.0-old" ] &&
	[ "$(cat "$ksrc/fake.c")" = "int z;" ]; then
	echo "ok   a linux-source upgrade extracts the tree again, drops the old pristine worktree and re-applies the series"
else
	echo "FAIL a linux-source upgrade did not renew the tree and the pristine worktree:"; tail -n 5 "$tmp/out"; fail=1
fi
# The pristine tree is prepared again when the configuration changes: an
# out-of-tree module built on the old prepare does not load in the kernel
# built from the new one (struct module changes with CONFIG_KUNIT).
printf 'CONFIG_OLD=y\n' >"$tmp/fragment"
auto=$tmp/cache/linux-pristine-build/include/config/auto.conf
if PKV_KERNEL_FRAGMENT="$tmp/fragment" bash "$top/qemu-images/kernel.sh" pristine >"$tmp/out" 2>&1 &&
	grep -qx CONFIG_OLD=y "$auto" && printf 'CONFIG_NEW=y\n' >"$tmp/fragment" &&
	PKV_KERNEL_FRAGMENT="$tmp/fragment" bash "$top/qemu-images/kernel.sh" pristine >>"$tmp/out" 2>&1 &&
	grep -qx CONFIG_NEW=y "$auto"; then
	echo "ok   a new kernel configuration prepares the pristine tree again for out-of-tree modules"
else
	echo "FAIL the pristine tree kept the old configuration's prepare:"; tail -n 5 "$tmp/out"; cat "$auto"; fail=1
fi
unset PKV_KERNEL_TARBALL PKV_CACHE
[ -n "$caller_cache" ] && export PKV_CACHE="$caller_cache"

cat >"$tmp/slow.sh" <<'EOM'
# pkv-time-limit: 10
echo "kv_console_plain=$(cat /sys/module/printk/parameters/kv_console_plain)"
printf 'written in the guest by %s\n' "$(uname -r)" >"$PKV_OUT/hello.txt"
mkdir -p "$PKV_OUT/sub" && echo nested >"$PKV_OUT/sub/file"
sleep 100000
EOM
printf 'echo "after the hung script"\n' >"$tmp/after.sh"
# A hung script loses itself only: killed at its own limit (10 s declared,
# more on a slow boot), and the next script runs. --append "": boot.sh's
# default command line sets printk.kv_console_plain=1, and this boot checks
# the parameter's own default.
expect "a script over its time limit is killed, the guest goes on" "=== slow.sh: exit 124" \
	bash "$top/qemu-images/boot.sh" run --out "$tmp/runout" --timeout 120 --append "" \
	"$tmp/slow.sh" "$tmp/after.sh"
if grep -Eq "^# pkv-runner: killed at its time limit of [0-9]+s \(10s declared, x[0-9.]+\)" "$tmp/out" &&
	grep -q '^=== after.sh: exit 0' "$tmp/out" && grep -q '^after the hung script$' "$tmp/out"; then
	echo "ok   the hung script's own limit (10 s declared) killed it, the report says so, and the next script ran"
else
	echo "FAIL the hung script was not stopped at its own limit, or the next script did not run:"
	grep -A2 '^===' "$tmp/out"
	fail=1
fi
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
# A kernel panic in the second of three scripts, through the test suite's
# own path (boot-all.sh, then check.sh per scenario): the first keeps its
# result, the console names the script that was running, and the third's
# test fails as not run, giving that reason.
printf 'echo fine\n' >"$tmp/first.sh"
printf 'echo c >/proc/sysrq-trigger\n' >"$tmp/crash.sh"
printf 'echo never\n' >"$tmp/third.sh"
expect "a kernel panic" "the boot did not run: crash.sh third.sh" \
	sh "$top/tests/guest/boot-all.sh" "$top/qemu-images/boot.sh" "$tmp/crashout" --timeout 80 --append "" \
	"$tmp/first.sh" "$tmp/crash.sh" "$tmp/third.sh"
log=$tmp/crashout/boot.log
if grep -q '^=== first.sh: exit 0' "$log" && grep -q '^=== third.sh: exit not run' "$log" &&
	grep -q 'kernel: Kernel panic.*(while crash.sh was running)' "$log" &&
	[ "$(cat "$tmp/crashout/first.sh.rc" 2>/dev/null)" = 0 ] && [ ! -e "$tmp/crashout/third.sh.rc" ] &&
	grep -aq 'sysrq triggered crash' "$tmp/crashout/console.log" 2>/dev/null; then
	echo "ok   the panic names the script that was running; the script before it kept its result; the console log is in --out"
else
	echo "FAIL after a panic: results, the panic's line or the console log missing:"
	grep '^===\|kernel:' "$log"; ls "$tmp/crashout" 2>&1 | head
	fail=1
fi
sh "$top/tests/guest/check.sh" "$tmp/crashout" third.sh >"$tmp/third.tap"
if [ $? -ne 0 ] && grep -q '^not ok 1 third.sh ran # not run: kernel: Kernel panic.*(while crash.sh was running)$' "$tmp/third.tap"; then
	echo "ok   the test of the script after the panic: $(grep '^not ok' "$tmp/third.tap")"
else
	echo "FAIL the test of the script after the panic does not give the panic as its reason:"
	cat "$tmp/third.tap"
	fail=1
fi
exit $fail
