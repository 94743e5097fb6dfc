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
# The guest's configuration, taken again at every step: olddefconfig at a
# step drops the options a later patch adds, and a copy kept from step to
# step would never build that patch's code.
config=$cache/linux-build/.config
[ -f "$config" ] || { echo "FAIL no .config in $cache/linux-build (./pkv build)"; exit 1; }
mkdir -p "$out"
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
	# kbuild rebuilds only objects whose options changed value.
	cp "$config" "$out/.config"
	if ! make -s -C "$wt" O="$out" LOCALVERSION= olddefconfig >/dev/null 2>&1; then
		echo "FAIL 1..$n ($p): make olddefconfig failed"
		fail=1
		break
	fi
	# Every option of the series that this step's Kconfig knows is set as
	# in the guest's configuration, so its code is compiled here.
	for sym in $(grep -h '^+config ' "$snap"/0*.patch | awk '{ print $2 }' | sort -u); do
		grep -rqs "^config $sym\$" --include='Kconfig*' "$wt/init" "$wt/lib" "$wt/kernel" || continue
		want=$(grep "^CONFIG_$sym=" "$config")
		[ -z "$want" ] || grep -qx "$want" "$out/.config" || {
			echo "FAIL 1..$n ($p): $want is not in the step's .config (a dependency refused it)"
			fail=1
		}
	done
	[ $fail -eq 0 ] || break
	if make -C "$wt" O="$out" LOCALVERSION= -j"$jobs" bzImage modules >"$out/step-$n.log" 2>&1; then
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
