#!/bin/sh
# cover-letter.sh TOP: kernel-patches/0000-cover-letter.patch carries
# kernel-patches/cover.txt and the measured cover-numbers.txt as they are
# now (./pkv patches writes it from both): a cover letter whose figures are
# older than the measurements fails here.
set -u
top=$1
letter=$top/kernel-patches/0000-cover-letter.patch
fail=0
[ -s "$letter" ] || { echo "FAIL $letter: missing (./pkv patches)"; exit 1; }
for f in cover.txt cover-numbers.txt; do
	[ -s "$top/kernel-patches/$f" ] || { echo "FAIL kernel-patches/$f: missing"; fail=1; continue; }
	# The subject line of cover.txt is the letter's Subject:, not its body.
	skip=0
	[ $f = cover.txt ] && skip=1
	missing=$(tail -n +$((skip + 1)) "$top/kernel-patches/$f" | grep -v '^$' | grep -vxF -f "$letter" | head -n 3)
	if [ -n "$missing" ]; then
		echo "FAIL $letter lacks lines of kernel-patches/$f (run ./pkv patches), first:"
		printf '%s\n' "$missing" | sed 's/^/     /'
		fail=1
	else
		echo "ok   the cover letter carries kernel-patches/$f"
	fi
done
exit $fail
