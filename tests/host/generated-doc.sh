#!/bin/bash
# generated-doc.sh TOP GENERATOR[:OPTION] DATADIR DOC: TOP/DOC is what
# TOP/GENERATOR (given OPTION first, if any) writes from TOP/DATADIR, byte
# for byte: a measured document is generated from the raw data kept beside
# it, never edited by hand.
set -u
top=$1 gen=${2%%:*} data=$3 doc=$4
opt=()
[ "$gen" = "$2" ] || opt=("${2#*:}")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
python3 "$top/$gen" "${opt[@]}" "$top/$data" "$tmp" || { echo "FAIL $gen could not write $doc from $data"; exit 1; }
if cmp -s "$tmp" "$top/$doc"; then
	echo "ok   $doc is generated from $data"
	exit 0
fi
echo "FAIL $doc differs from what $gen gives from $data:"
diff -u "$top/$doc" "$tmp" | head -20
exit 1
