#!/bin/sh
# reader-corpora.sh KMSG2JSON DATA: every *.kmsg capture in DATA goes through
# kmsg2json; each output line must be valid JSON, records in must equal
# objects out, and a corpus' expected errors (FILE.errors) must all appear;
# FILE.expect, if there, is a jq program over all the output that must be true.
set -u
k2j=$1
data=$2
fail=0
n=0
for f in "$data"/*.kmsg; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	name=$(basename "$f")
	out=$(mktemp)
	"$k2j" "$f" >"$out"
	rc=$?
	# A record starts on every line that is neither empty nor a dictionary line.
	want=$(grep -c -v -e '^ ' -e '^$' -e '^\r$' "$f")
	bad=0
	lines=0
	while IFS= read -r line; do
		lines=$((lines + 1))
		printf '%s\n' "$line" | jq -e . >/dev/null 2>&1 || { bad=$((bad + 1)); echo "$name: invalid JSON line $lines: $line"; }
	done <"$out"
	got=$(jq -s '[.[] | select((has("gap") or has("new_boot")) | not)] | length' "$out")
	if [ "$bad" -ne 0 ] || [ "$got" != "$want" ]; then
		echo "FAIL $name: $bad invalid JSON lines; $want records in, $got objects out"
		fail=$((fail + 1))
	fi
	if [ -f "$f.errors" ]; then
		[ "$rc" -eq 1 ] || { echo "FAIL $name: exit status $rc, expected 1 for malformed input"; fail=$((fail + 1)); }
		while IFS= read -r e; do
			jq -e -s --arg e "$e" 'any(.[]; (.error // "") | contains($e))' "$out" >/dev/null ||
				{ echo "FAIL $name: no error object says '$e'"; fail=$((fail + 1)); }
		done <"$f.errors"
	elif [ "$rc" -ne 0 ]; then
		echo "FAIL $name: exit status $rc on a well-formed capture"
		fail=$((fail + 1))
	fi
	if [ -f "$f.expect" ] && ! jq -e -s -f "$f.expect" "$out" >/dev/null; then
		echo "FAIL $name: the output does not meet $name.expect:"
		grep -v '^#' "$f.expect" | sed 's/^/     /'
		jq -c 'select(has("gap") or has("new_boot"))' "$out" | head -10 | sed 's/^/     got: /'
		fail=$((fail + 1))
	fi
	[ "$fail" -eq 0 ] && echo "ok   $name: $want records, $got objects, all valid JSON$([ -f "$f.expect" ] && echo ", $name.expect holds")"
	rm -f "$out"
done
[ "$n" -gt 0 ] || { echo "FAIL no *.kmsg corpus in $data"; exit 1; }
[ "$fail" -eq 0 ]
