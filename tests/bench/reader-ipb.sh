#!/usr/bin/env bash
# reader-ipb.sh BUILD OUT.json [MIB]: the reader's cost in instructions per
# input byte, counted by callgrind (stable on a busy machine, unlike time):
# kmsg2json and its peer, the same parser with jansson objects
# (pkv-json-jansson), each on two captures of MIB MiB (default 8) made by
# reader-captures.py from tests/data: structured (selftest burst records,
# text encoding, with their dictionary lines) and plain (a guest boot's
# unstructured records). Writes OUT.json; the outputs of kmsg2json are
# checked to be one JSON object per record first.
set -u
. "$(dirname "$0")/../../qemu-images/lib.sh"
build=${1:?reader-ipb.sh BUILD OUT.json [MIB]}
out=${2:?reader-ipb.sh BUILD OUT.json [MIB]}
mib=${3:-8}
bin=$build/userspace-reader
command -v valgrind >/dev/null || pkv_die "reader-ipb: valgrind is not installed (./pkv installs it with the test packages)"
ninja -C "$build" userspace-reader/kmsg2json userspace-reader/pkv-json-jansson >/dev/null ||
	pkv_die "reader-ipb: building kmsg2json and pkv-json-jansson in $build failed"
work=$(mktemp -d "${TMPDIR:-/tmp}/pkv-ipb.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 "$PKV_TOP/tests/bench/reader-captures.py" "$PKV_TOP/tests/data" "$work" "$mib" >"$work/captures.log" ||
	pkv_die "reader-ipb: making the captures failed: $(cat "$work/captures.log")"

# instructions PROGRAM FILE: callgrind's total for one run, output discarded.
instructions() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$work/cg.err" ||
		pkv_die "reader-ipb: callgrind of $* failed: $(tail -5 "$work/cg.err")"
	sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$work/cg.err"
}

printf '{"mib": %d, "valgrind": "%s", "captures": {' "$mib" "$(valgrind --version)" >"$out"
sep=""
for c in structured plain; do
	f=$work/$c.kmsg
	records=$(grep -c '^[0-9]' "$f")
	objects=$("$bin/kmsg2json" "$f" | jq -c 'select(has("seq") and (has("error") | not))' | wc -l)
	[ "$objects" -eq "$records" ] || pkv_die "reader-ipb: kmsg2json gave $objects record objects for the $records records of $c.kmsg"
	pkv_say "reader-ipb: callgrind on $c.kmsg ($records records, $(stat -c %s "$f") bytes)"
	k=$(instructions "$bin/kmsg2json" "$f")
	jn=$(instructions "$bin/pkv-json-jansson" "$f")
	[ -n "$k" ] && [ -n "$jn" ] || pkv_die "reader-ipb: no instruction count in callgrind's output"
	printf '%s"%s": {"bytes": %d, "records": %d, "kmsg2json": %s, "pkv-json-jansson": %s}' \
		"$sep" "$c" "$(stat -c %s "$f")" "$records" "$k" "$jn" >>"$out"
	sep=", "
done
echo "}}" >>"$out"
jq -e . "$out" >/dev/null || pkv_die "reader-ipb: $out is not JSON"
