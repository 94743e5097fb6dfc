#!/bin/sh
# bisect-build.sh: every prefix of kernel-patches/ builds (bzImage and
# modules) without a compiler warning, so the series is bisectable. Uses a
# worktree and a build directory of its own in $PKV_CACHE; the first step is
# a full build (about 5 minutes on 2 cores), each later one rebuilds only
# what its patch changed.
# Not part of ./pkv test (too slow for every run); run it before sending.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${PKV_CACHE:-$HOME/.cache/pkv}
src=$cache/linux-src
wt=$cache/bisect-src
out=$cache/bisect-build
jobs=${PKV_JOBS:-$(($(nproc) + 1))}
[ -d "$src/.git" ] || { echo "FAIL $src: no kernel tree (./pkv build)"; exit 1; }
if [ ! -f "$wt/Makefile" ]; then
	git -C "$src" worktree prune
	git -C "$src" worktree add -q --detach "$wt" pristine || exit 1
fi
git -C "$wt" checkout -q --detach pristine || exit 1
if [ ! -f "$out/.config" ]; then
	mkdir -p "$out"
	cp "$cache/linux-build/.config" "$out/.config" || { echo "FAIL no .config in $cache/linux-build"; exit 1; }
fi
# A copy of the series: regenerating kernel-patches/ meanwhile must not mix
# two versions of it in one run.
snap=$(mktemp -d)
trap 'rm -rf "$snap"' EXIT
cp "$top"/kernel-patches/* "$snap/"
fail=0
n=0
for p in $(grep -v '^[[:space:]]*\(#\|$\)' "$snap/series"); do
	n=$((n + 1))
	git -C "$wt" -c user.name=pkv -c user.email=pkv@localhost am -q "$snap/$p" ||
		{ echo "FAIL $p does not apply"; fail=1; break; }
	t0=$(date +%s)
	if make -s -C "$wt" O="$out" LOCALVERSION= olddefconfig >/dev/null 2>&1 &&
		make -C "$wt" O="$out" LOCALVERSION= -j"$jobs" bzImage modules >"$out/step-$n.log" 2>&1; then
		if grep -q 'warning:' "$out/step-$n.log"; then
			echo "FAIL 1..$n ($p) builds with compiler warnings:"
			grep -A3 'warning:' "$out/step-$n.log" | head -20
			fail=1
			break
		fi
		echo "ok   1..$n ($p) builds without warnings ($(($(date +%s) - t0)) s)"
	else
		echo "FAIL 1..$n ($p) does not build:"
		grep -E 'error|Error' "$out/step-$n.log" | head -10
		fail=1
		break
	fi
done
git -C "$wt" am --abort >/dev/null 2>&1
exit $fail
