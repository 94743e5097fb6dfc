#!/bin/sh
# library-abi.sh BUILD SRC CC: libpkvkmsg as another program would use it.
# - The shared library exports exactly the functions pkvkmsg.h declares,
#   each at version PKVKMSG_1 (pkvkmsg.sym), and none of the internals.
# - A program built with `pkg-config --cflags --libs` (meson's uninstalled
#   pkvkmsg.pc) from pkvkmsg.h alone links, runs and writes a record's JSON.
# TAP output.
build=$1
src=$2
cc=$3
lib=$build/userspace-reader/libpkvkmsg.so.1
hdr=$src/userspace-reader/pkvkmsg.h
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/lib/tap.sh"
tap_plan 4

grep -oE '\bpkv_[a-z_]+\(' "$hdr" | tr -d '(' | sort -u >"$work/declared"
nm -D --defined-only "$lib" 2>"$work/nm.err" | awk '$2 == "T" { print $3 }' | sort >"$work/exported"
sed 's/@.*//' "$work/exported" | sort -u >"$work/names"
cmp -s "$work/declared" "$work/names"
tap_check $? "the shared library exports exactly the $(wc -l <"$work/declared") functions of pkvkmsg.h"
if ! cmp -s "$work/declared" "$work/names"; then
	diff "$work/declared" "$work/names" | sed -n 's/^< /# declared, not exported: /p; s/^> /# exported, not declared: /p'
	cat "$work/nm.err" | sed 's/^/# /'
fi
[ -s "$work/exported" ] && ! grep -qv '@@PKVKMSG_1$' "$work/exported"
tap_check $? "each at version PKVKMSG_1"

cat >"$work/consumer.c" <<'C'
#include <pkvkmsg.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	static const char raw[] = "6,7,9,-;l2tp: [kv tunnel=4] m\n PRINTK_KV=tunnel=4\n TUNNEL=4\n";
	struct pkv_record *r;
	struct pkv_json *j;

	if (pkv_record_new(&r, 0) || pkv_json_new(&j, STDOUT_FILENO, 0) ||
	    pkv_record_parse(r, raw, strlen(raw)) || pkv_json_record(j, r) || pkv_json_flush(j))
		return 1;
	pkv_json_free(j);
	pkv_record_free(r);
	return 0;
}
C
flags=$(PKG_CONFIG_PATH=$build/meson-uninstalled pkg-config --cflags --libs pkvkmsg-uninstalled 2>"$work/pc.err")
# A library built with sanitizers (./pkv test's host build) needs them in its users.
nm -D "$lib" 2>/dev/null | grep -q ' U __asan_' && flags="$flags -fsanitize=address,undefined"
if [ -n "$flags" ] && $cc -std=gnu11 -Wall -Werror -o "$work/consumer" "$work/consumer.c" $flags 2>"$work/cc.err"; then
	out=$(LD_LIBRARY_PATH=$build/userspace-reader "$work/consumer")
	rc=$?
	[ $rc -eq 0 ] && printf '%s\n' "$out" | jq -e '.fields.tunnel == 4 and .kv == "text" and .dict_agrees' >/dev/null
	tap_check $? "a program built with pkg-config's flags from pkvkmsg.h runs and writes the record"
	[ $rc -eq 0 ] || echo "# exit $rc, output: $out"
else
	tap_check 1 "a program built with pkg-config's flags from pkvkmsg.h runs and writes the record"
	sed 's/^/# /' "$work/pc.err" "$work/cc.err"
fi
# An internal function of the library does not link from outside.
printf '#include <pkvkmsg.h>\nvoid pkv_fields_resolve(struct pkv_record *r, unsigned int f);\nint main(void) { pkv_fields_resolve(0, 0); return 0; }\n' >"$work/internal.c"
! $cc -o "$work/internal" "$work/internal.c" $flags 2>/dev/null
tap_check $? "an internal function (pkv_fields_resolve) is not exported"
tap_exit
