#!/bin/sh
# checkpatch.sh TOP: scripts/checkpatch.pl --strict on every patch of the
# series: 0 errors and 0 warnings each. CHECKs are listed, not failed.
set -u
top=$(cd "$1" && pwd)
src=${PKV_CACHE:-$HOME/.cache/pkv}/linux-src
cp=$src/scripts/checkpatch.pl
[ -f "$cp" ] || { echo "FAIL $cp: no kernel tree (./pkv build)"; exit 1; }
# Debian's python3 (with python3-ply, python3-git) for the SPDX check.
PATH=/usr/bin:$PATH
[ -d "$src/.git" ] || { echo "FAIL $src/.git: the kernel tree is not a git tree (./pkv build)"; exit 1; }
# checkpatch looks up commit ids with git when its cwd holds a .git (or
# GIT_DIR is set). Run it where there is none, as a mail reader would: the
# style of every "commit <id> (\"<title>\")" reference is checked, with no
# lookup. The cache tree has Debian's sources, not upstream history, so
# every id is "unknown" (UNKNOWN_COMMIT_ID): that one check is left out, and
# each Fixes: tag is checked here for its form (12 or more hex digits, the
# subject in ("")). SPDX identifiers are checked against LICENSES/ only with
# a tree and a git directory (skipped under --no-tree): a second run, with
# --root and GIT_DIR, reports that check alone.
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
for p in "$top"/kernel-patches/[0-9]*.patch; do
	case "$p" in */0000-*) continue ;; esac
	out=$(perl "$cp" --strict --terse --no-tree --ignore UNKNOWN_COMMIT_ID "$p" 2>&1)
	rc=$?
	spdx=$(GIT_DIR=$src/.git perl "$cp" --terse --root="$src" --types SPDX_LICENSE_TAG "$p" 2>&1)
	[ $? -le 1 ] || rc=2
	out=$(printf '%s\n%s\n' "$out" "$spdx" | grep -v '^total: \|^$')
	errs=$(printf '%s\n' "$out" | grep -c ': ERROR:')
	warns=$(printf '%s\n' "$out" | grep -c ': WARNING:')
	checks=$(printf '%s\n' "$out" | grep -c ': CHECK:')
	badfix=$(grep '^Fixes:' "$p" | grep -Ev '^Fixes: [0-9a-f]{12,40} \("[^"]+"\)$')
	if [ -n "$badfix" ]; then
		echo "FAIL $(basename "$p"): malformed Fixes: tag: $badfix"; fail=1
	elif [ "$rc" -gt 1 ] || { [ "$rc" -eq 1 ] && [ $((errs + warns + checks)) -eq 0 ]; } ||
		printf '%s\n' "$out" | grep -q 'Traceback\|No module'; then
		echo "FAIL $(basename "$p"): checkpatch failed (exit $rc):"; printf '%s\n' "$out" | head -5; fail=1
	elif [ "$errs" -ne 0 ] || [ "$warns" -ne 0 ]; then
		echo "FAIL $(basename "$p"): $errs errors, $warns warnings"
		printf '%s\n' "$out" | grep -E ': (ERROR|WARNING):'
		fail=1
	else
		echo "ok   $(basename "$p"): 0 errors, 0 warnings, $checks checks"
		printf '%s\n' "$out" | grep ': CHECK:' | sed 's/^/       /'
	fi
done
exit $fail
