#!/bin/sh
# series.sh TOP: kernel-patches/ applies with git am, in order, to the pristine
# tree, and the header it adds is the prototype byte for byte.
set -u
top=$(cd "$1" && pwd)
cache=${PKV_CACHE:-$HOME/.cache/pkv}
src=$cache/linux-src
wt=$cache/am-check
[ -d "$src/.git" ] || { echo "FAIL $src: no kernel tree (./pkv build)"; exit 1; }
git -C "$src" worktree remove --force "$wt" >/dev/null 2>&1
rm -rf "$wt"
git -C "$src" worktree prune
# Only the files the series touches are checked out: git am needs no more.
paths=$(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$top"/kernel-patches/[0-9]*.patch | sort -u)
git -C "$src" worktree add -q --no-checkout --detach "$wt" pristine || exit 1
git -C "$wt" sparse-checkout set --no-cone $paths >/dev/null || exit 1
git -C "$wt" checkout -q --detach pristine || exit 1
fail=0
n=0
for p in $(grep -v '^[[:space:]]*\(#\|$\)' "$top/kernel-patches/series"); do
	n=$((n + 1))
	if git -C "$wt" -c user.name=pkv -c user.email=pkv@localhost am -q "$top/kernel-patches/$p" >"$wt.log" 2>&1; then
		echo "ok   git am $p"
	else
		echo "FAIL git am $p does not apply on top of the previous ones:"
		cat "$wt.log"
		git -C "$wt" am --abort >/dev/null 2>&1
		fail=1
		break
	fi
done
[ $n -gt 0 ] || { echo "FAIL kernel-patches/series lists no patch"; fail=1; }
if [ $fail -eq 0 ]; then
	if cmp "$wt/include/linux/printk_kv.h" "$top/include-prototype/linux/printk_kv.h"; then
		echo "ok   include/linux/printk_kv.h of the series is include-prototype/linux/printk_kv.h"
	else
		echo "FAIL include/linux/printk_kv.h differs from include-prototype/ (regenerate the series)"
		fail=1
	fi
fi
git -C "$src" worktree remove --force "$wt" >/dev/null 2>&1
rm -f "$wt.log"
[ $fail -eq 0 ] && echo "series: $n patches apply to pristine $(cat "$src/.pkv-pristine")"
exit $fail
