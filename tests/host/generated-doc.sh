#!/bin/sh
# static-fields-doc.sh TOP: docs/STATIC-FIELDS.md is what
# tests/bench/static-fields.py writes from docs/data/static-fields/, byte for
# byte: the document is generated, never edited by hand.
set -u
top=$1
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
python3 "$top/tests/bench/static-fields.py" "$top/docs/data/static-fields" "$tmp" || exit 1
if cmp -s "$tmp" "$top/docs/STATIC-FIELDS.md"; then
	echo "ok   docs/STATIC-FIELDS.md is generated from docs/data/static-fields/"
	exit 0
fi
echo "FAIL docs/STATIC-FIELDS.md differs from what its raw data gives (./pkv bench --static-fields):"
diff -u "$top/docs/STATIC-FIELDS.md" "$tmp" | head -20
exit 1
