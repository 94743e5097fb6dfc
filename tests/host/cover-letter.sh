#!/bin/bash
# cover-letter.sh TOP: the body of kernel-patches/0000-cover-letter.patch is
# kernel-patches/cover.txt (its first line is the subject), a blank line and
# the measured kernel-patches/cover-numbers.txt, exactly as they are now
# (./pkv patches writes it from both): a cover letter older than its text or
# its figures fails here.
set -u
top=$1
kp=$top/kernel-patches
letter=$kp/0000-cover-letter.patch
for f in "$letter" "$kp/cover.txt" "$kp/cover-numbers.txt"; do
	[ -s "$f" ] || { echo "FAIL $f: missing (./pkv compare writes cover-numbers.txt, ./pkv patches the letter)"; exit 1; }
done
# The body: after the headers' blank line, up to the shortlog ("Name (N):").
got=$(awk 'body && /^[^ ].* \([0-9]+\):$/ { exit } body { print } /^$/ && !body { body = 1 }' "$letter")
# As ./pkv patches joins them: the text, a blank line, the figures.
want="$(tail -n +2 "$kp/cover.txt")"$'\n\n'"$(cat "$kp/cover-numbers.txt")"
# Blank lines at either end do not count.
trim() { sed -e '/./,$!d' | sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}'; }
if [ "$(trim <<<"$got")" = "$(trim <<<"$want")" ]; then
	echo "ok   the cover letter is kernel-patches/cover.txt and cover-numbers.txt"
	exit 0
fi
echo "FAIL $letter differs from cover.txt + cover-numbers.txt (run ./pkv patches):"
diff <(trim <<<"$want") <(trim <<<"$got") | head -n 20
exit 1
