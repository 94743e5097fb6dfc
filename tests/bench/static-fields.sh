#!/usr/bin/env bash
# ./pkv bench --static-fields: a boot per encoding (text, dict) runs the
# selftest and the driver scenarios, then tests/guest/callsite.sh; its
# per-record data goes to docs/data/static-fields/ENC.json, and
# tests/bench/static-fields.py writes docs/STATIC-FIELDS.md from it.
set -u
. "$(dirname "$0")/../../qemu-images/lib.sh"
data=$PKV_TOP/docs/data/static-fields
out=$(mktemp -d "${TMPDIR:-/tmp}/pkv-static.XXXXXX")
trap 'rm -rf "$out"' EXIT
g=$PKV_TOP/tests/guest
mkdir -p "$data"
for enc in text dict; do
	pkv_say "bench --static-fields: boot with printk.kv=$enc (selftest, l2tp, ext4, cs89x0, misdn, callsite)"
	bash "$PKV_TOP/qemu-images/boot.sh" run --out "$out/$enc" --kv "$enc" \
		"$g/selftest.sh" "$g/l2tp.sh" "$g/ext4.sh" "$g/cs89x0.sh" "$g/misdn.sh" "$g/callsite.sh" \
		>"$out/$enc.log" 2>&1 || { cat "$out/$enc.log" >&2; pkv_die "bench --static-fields: the $enc boot failed"; }
	f=$out/$enc/callsite.sh/callsite.json
	[ -s "$f" ] || { cat "$out/$enc.log" >&2; pkv_die "bench --static-fields: no $f from the $enc boot"; }
	cp "$f" "$data/$enc.json"
done
jq -n --arg date "$(date -u +%Y-%m-%d)" --arg machine "$(nproc) cores" \
	--arg accel "$(tail -1 "$PKV_CACHE/accel" 2>/dev/null || echo tcg)" \
	'{date: $date, machine: $machine, accel: $accel}' >"$data/meta.json"
python3 "$PKV_TOP/tests/bench/static-fields.py" "$data" "$PKV_TOP/docs/STATIC-FIELDS.md" ||
	pkv_die "bench --static-fields: tests/bench/static-fields.py failed"
pkv_say "bench --static-fields: wrote docs/STATIC-FIELDS.md from docs/data/static-fields/"
