#!/usr/bin/env bash
# try-test.sh TOP [--write-readme]: ./pkv try as a kernel developer runs it,
# on modules the harness knows nothing about (this directory):
#   hello/     a module directory, against the patched tree (printk.kv=text)
#              and with --pristine (the header-only path, printk.kv=dict)
#   broken.c   a file that does not compile
#   crash.c    a module that oopses, and one that panics (mode=panic)
# Each run's output is checked; KTAP-style lines, exit 1 if a check failed.
# README.md's example is the hello run's real output: this test compares
# it, seq numbers, times and task ids aside; --write-readme rewrites it.
set -u
top=$1
here=$top/tests/try
cd "$top" || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/pkv-try-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
checks=0 failed=0

ok() {
	checks=$((checks + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $checks $2"
	else
		failed=$((failed + 1))
		echo "not ok $checks $2"
		[ -n "${3:-}" ] && sed 's/^/# /' "$3" | head -40
	fi
}

# try NAME ARGS...: ./pkv try ARGS, stdout to $work/NAME.out, stderr to
# $work/NAME.err, exit status to $work/NAME.rc.
try() {
	local name=$1
	shift
	echo "# ./pkv try $*"
	./pkv try "$@" >"$work/$name.out" 2>"$work/$name.err"
	echo $? >"$work/$name.rc"
	cat "$work/$name.out" "$work/$name.err" >"$work/$name.all"
}

# The README's block: between its markers, without the fences.
readme_block() {
	awk '/^<!-- try-example: begin/ { on = 1; next } /^<!-- try-example: end/ { on = 0 }
		on && !/^```/' "$top/README.md"
}
# What varies from boot to boot.
normalize() {
	sed -E 's/"seq":[0-9]+/"seq":N/g; s/"ts_usec":[0-9]+/"ts_usec":N/g; s/"caller":"[TC][0-9]+"/"caller":"T"/g;
		s/^\[ *[0-9]+\.[0-9]+\]/[T]/'
}

if [ "${2:-}" = --write-readme ]; then
	try hello tests/try/hello -- port=4242
	[ "$(cat "$work/hello.rc")" = 0 ] || { cat "$work/hello.all" >&2; exit 1; }
	{ echo '```'; echo '$ ./pkv try tests/try/hello -- port=4242'; cat "$work/hello.out"; echo '```'; } >"$work/block"
	awk -v block="$work/block" '/^<!-- try-example: begin/ { print; while ((getline l < block) > 0) print l; skip = 1; next }
		/^<!-- try-example: end/ { skip = 0 } !skip' "$top/README.md" >"$work/README.md" &&
		cp "$work/README.md" "$top/README.md"
	echo "README.md: the try example rewritten from this run"
	exit 0
fi

# TAP 13 for meson's parser, which knows no KTAP version line
echo "TAP version 13"
echo "1..17"

try hello tests/try/hello -- port=4242
ok "$(cat "$work/hello.rc")" "hello (patched tree, text): exit 0" "$work/hello.all"
grep -q '^== kmsg2json: ' "$work/hello.out"
ok $? "hello: the records section is printed" "$work/hello.all"
grep '^{' "$work/hello.out" | jq -e -s 'any(.kv == "text" and .fields == {"mod": "hello", "port": 4242, "proto": "udp"}
	and .msg == "listening")' >/dev/null
ok $? "hello: the typed record as JSON, with the parameter given after --" "$work/hello.out"
grep '^{' "$work/hello.out" | jq -e -s 'any(._KERNEL_PORT == "4242" and ._KERNEL_PROTO == "udp" and ._KERNEL_MOD == "hello")' >/dev/null
ok $? "hello: journald stored its fields as _KERNEL_*" "$work/hello.out"
grep -qF 'hello: [kv mod=hello port=4242 proto="udp"] listening' "$work/hello.out"
ok $? "hello: the dmesg line a person reads under text" "$work/hello.out"
grep -q '^\[ *[0-9.]*\] hello: \[kv mod=hello\] bye$' "$work/hello.out"
ok $? "hello: the unload's record too (rmmod ran)" "$work/hello.out"
# The README's example is this run.
readme_block | tail -n +2 | normalize >"$work/readme.norm"
normalize <"$work/hello.out" >"$work/hello.norm"
diff -u "$work/readme.norm" "$work/hello.norm" >"$work/readme.diff"
ok $? "README.md's try example is this run's output (./tests/try/try-test.sh . --write-readme)" "$work/readme.diff"

try pristine --pristine --kv dict tests/try/hello
ok "$(cat "$work/pristine.rc")" "hello --pristine (header only, dict): exit 0" "$work/pristine.all"
grep '^{' "$work/pristine.out" | jq -e -s 'any(.kv == "unmarked" and .fields == {"mod": "hello", "port": 1701, "proto": "udp"})' >/dev/null
ok $? "hello --pristine: fields read from the text block, marked untrusted" "$work/pristine.out"
grep '^{' "$work/pristine.out" | jq -e -s 'any(.MESSAGE | strings | contains("listening")) and
	all(has("_KERNEL_PORT") | not)' >/dev/null
ok $? "hello --pristine: the kernel did not mark them, journald has no _KERNEL_PORT" "$work/pristine.out"
grep -qF 'hello: [kv mod=hello port=1701 proto="udp"] listening' "$work/pristine.out"
ok $? "hello --pristine: dmesg shows the block (plain printk), even under dict" "$work/pristine.out"

try broken tests/try/broken.c
[ "$(cat "$work/broken.rc")" != 0 ]
ok $? "broken.c: exit non-zero" "$work/broken.all"
grep -q '^tests/try/broken\.c:[0-9]*:[0-9]*: error: .*undeclared_count' "$work/broken.err"
ok $? "broken.c: the compiler's error, named by the path given" "$work/broken.err"
! grep -q '/try/broken-[0-9a-f]*/src' "$work/broken.err"
ok $? "broken.c: no message names the build copy in the cache" "$work/broken.err"

try oops tests/try/crash.c
[ "$(cat "$work/oops.rc")" != 0 ] && grep -q 'BUG: kernel NULL pointer dereference' "$work/oops.out" &&
	grep -q 'pkv try: the kernel reported a bug' "$work/oops.out"
ok $? "crash.c (oops): exit non-zero, the kernel's BUG line reported" "$work/oops.all"
grep '^{' "$work/oops.out" | jq -e -s 'any(.fields.mode == "oops")' >/dev/null
ok $? "crash.c (oops): its record before the crash is shown" "$work/oops.out"

try panic tests/try/crash.c -- mode=panic
[ "$(cat "$work/panic.rc")" != 0 ] && grep -q 'Kernel panic - not syncing: crash: mode=panic' "$work/panic.err" &&
	grep -q 'guest did not finish' "$work/panic.err"
ok $? "crash.c mode=panic: exit non-zero, the console's panic lines shown" "$work/panic.all"

echo "# try: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
