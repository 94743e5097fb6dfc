#!/bin/sh
# reader-vs-dmesg.sh KMSG2JSON DATA: kmsg2json on a real guest capture
# (tests/data/guest-boot.kmsg) against util-linux dmesg -J of the same buffer
# (guest-boot.dmesg.json): same records in the same order, same level, time
# and message text. dmesg has no sequence numbers, so order is the key.
# Levels are compared for kernel records only: dmesg 2.38 computes "pri" with
# an unshifted facility for the others (util-linux issue #2325, fixed in 2.39).
set -u
k2j=$1
data=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$k2j" "$data/guest-boot.kmsg" >"$out" || { echo "FAIL kmsg2json exited $? on the real capture"; exit 1; }
jq -e -n --slurpfile k "$out" --slurpfile d "$data/guest-boot.dmesg.json" '
	($k | map(select(has("seq")))) as $r | $d[0].dmesg as $m
	| ($r | length) == ($m | length)
	  and ([range($r | length)] | all(. as $i | $r[$i] as $a | $m[$i] as $b
		| ($a.facility != 0 or $b.pri == $a.level)
		  and ((($a.ts_usec / 1000000) - $b.time) | fabs) < 0.0000006
		  and $b.msg == $a.text))
	  and ($r | map(select(.structured)) | length) > 20
	' >/dev/null && {
	echo "ok   $(jq -s '[.[] | select(has("seq"))] | length' "$out") records: order, level, time and text as dmesg -J; $(jq -s '[.[] | select(.structured)] | length' "$out") structured"
	exit 0
}
echo "FAIL kmsg2json and dmesg -J disagree on the capture; first differences:"
jq -n --slurpfile k "$out" --slurpfile d "$data/guest-boot.dmesg.json" -c '
	($k | map(select(has("seq")))) as $r | $d[0].dmesg as $m
	| "records: \($r | length) kmsg2json, \($m | length) dmesg",
	  ([range([($r | length), ($m | length)] | min)] | map(. as $i
	   | select($m[$i].msg != $r[$i].text or ($r[$i].facility == 0 and $m[$i].pri != $r[$i].level)))
	   | .[:3][] | {i: ., kmsg2json: $r[.].text, dmesg: $m[.].msg})'
exit 1
