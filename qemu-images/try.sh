#!/usr/bin/env bash
# ./pkv try DIR|FILE.c [--kv ENCODING] [--pristine] [--script FILE] [-- ARGS...]
#
# Build a developer's out-of-tree module against the patched tree (or, with
# --pristine, against the unpatched 6.1 tree with only -I include-prototype:
# the header-only path), boot the guest with printk.kv=ENCODING, load it
# with ARGS as its parameters, run FILE in the guest if given, unload it,
# and print the kernel records logged in between: as kmsg2json's JSON, as
# the journal fields journald stored, and as the dmesg lines a person reads.
#
# DIR holds a Kbuild or Makefile for M= builds; a single FILE.c becomes
# module FILE. Several modules load in their modules.order order, ARGS going
# to the last. The sources are copied to $PKV_CACHE/try/ and built there:
# the developer's directory gets no build products, and an unchanged module
# is not rebuilt. Build errors come back with the compiler's message, named
# by the developer's own paths.
#
# Exit status: 0; 1 when the build failed, a module did not load or unload,
# the script failed, the kernel reported a bug (oops, BUG, WARNING) or the
# guest died (panic); 2 on a usage error.
set -u
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
die_usage() { printf 'pkv: error: try: %s\n' "$*" >&2; printf '(see ./pkv try --help)\n' >&2; exit 2; }

target="" kv=text pristine=false script="" args=()
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--kv) [ $# -ge 2 ] || die_usage "--kv needs an encoding"
		(pkv_kv_check "$2") || exit 2
		kv=$2; shift 2 ;;
	--pristine) pristine=true; shift ;;
	--script) [ $# -ge 2 ] || die_usage "--script needs a file"
		script=$2; shift 2 ;;
	--) shift; args=("$@"); break ;;
	-*) die_usage "unknown option '$1'" ;;
	*) [ -z "$target" ] || die_usage "one module directory or .c file, not '$target' and '$1'"
		target=$1; shift ;;
	esac
done
[ -n "$target" ] || die_usage "no module given: a directory with a Kbuild or Makefile, or a .c file"
[ -z "$script" ] || [ -f "$script" ] || die_usage "--script $script: no such file"

# What to build: a directory, or one .c file as a module of its name.
if [ -d "$target" ]; then
	[ -f "$target/Kbuild" ] || [ -f "$target/Makefile" ] ||
		die_usage "$target: no Kbuild or Makefile (a directory needs one; or give a single .c file)"
	src_dir=$(cd "$target" && pwd)
	shown=${target%/}/
	name=$(basename "$src_dir")
elif [ -f "$target" ] && [ "${target%.c}" != "$target" ]; then
	src_dir=$(cd "$(dirname "$target")" && pwd)
	name=$(basename "$target" .c)
	shown=$(dirname "$target")/
	[ "$shown" = ./ ] && case "$target" in ./*) ;; *) shown= ;; esac
	case "$name" in *[!A-Za-z0-9_-]* | "") die_usage "$target: a module name is letters, digits, - and _; rename the file" ;; esac
else
	die_usage "$target: neither a directory nor a .c file"
fi

eval "$(bash "$PKV_TOP/qemu-images/kernel.sh" vars)"
if $pristine; then
	ksrc=$PRISTINE_DIR kout=$PRISTINE_OUT tree="the pristine 6.1 tree, -I include-prototype"
	bash "$PKV_TOP/qemu-images/kernel.sh" pristine || exit 1
else
	ksrc=$SRC_DIR kout=$OUT_DIR tree="the patched tree"
fi
[ -f "$kout/Module.symvers" ] || [ -f "$kout/.pkv-prepared" ] || pkv_die "try: $kout: not built (./pkv build)"

# One work directory per source and tree; kbuild's own dependency tracking
# rebuilds what changed, rsync keeps the mtimes it relies on.
key=$(printf '%s %s' "$src_dir/${target##*/}" "$pristine" | sha256sum | cut -c1-12)
work=$PKV_CACHE/try/$name-$key
mkdir -p "$work/src"
if [ -d "$target" ]; then
	# Build products of the developer's own builds (another kernel's) stay out.
	rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
		--exclude='.*.cmd' --exclude='modules.order' --exclude='Module.symvers' \
		--exclude='.tmp_versions' --exclude='*.a' "$src_dir/" "$work/src/" ||
		pkv_die "try: copying $target to $work/src failed"
else
	rsync -a "$target" "$work/src/$name.c" || pkv_die "try: copying $target failed"
	printf 'obj-m := %s.o\n' "$name" >"$work/Kbuild.new"
	cmp -s "$work/Kbuild.new" "$work/src/Kbuild" || mv "$work/Kbuild.new" "$work/src/Kbuild"
	rm -f "$work/Kbuild.new"
fi

kflags=()
$pristine && kflags=(KCFLAGS="-I$PKV_TOP/include-prototype")
pkv_say "try: building $target against $tree"
log=$work/build.log
t0=$(pkv_now)
make -s -C "$ksrc" O="$kout" LOCALVERSION= M="$work/src" "${kflags[@]}" -j"$PKV_JOBS" modules >"$log" 2>&1
brc=$?
build_s=$(pkv_since "$t0")
t1=$(pkv_now)
# The compiler names the copy; the developer knows their own path.
sed "s|$work/src/|$shown|g" "$log" >"$log.shown"
if [ $brc -ne 0 ]; then
	grep -v '^make\(\[[0-9]*\]\)\?: \(Entering\|Leaving\|\*\*\*\)' "$log.shown" >&2
	pkv_die "try: building $target failed (make exit $brc; the compiler's messages above)"
fi
[ -s "$log.shown" ] && { pkv_say "try: the build's messages:"; sed 's/^/  /' "$log.shown" >&2; }

# The modules it built, in kbuild's order.
mapfile -t kos < <(sed 's/\.o$/.ko/' "$work/src/modules.order" 2>/dev/null)
[ ${#kos[@]} -gt 0 ] || pkv_die "try: $target built no module (no obj-m in its Kbuild or Makefile?)"
share=$work/share
rm -rf "$share"
mkdir -p "$share/modules"
: >"$share/order"
for ko in "${kos[@]}"; do
	ko=${ko#"$work/src/"}
	[ -f "$work/src/$ko" ] || pkv_die "try: $work/src/$ko: listed in modules.order but not built"
	cp "$work/src/$ko" "$share/modules/"
	basename "$ko" .ko >>"$share/order"
done
printf '%s\n' "${args[@]}" | sed '/^$/d' >"$share/args"
$pristine && touch "$share/unmarked"
[ -n "$script" ] && cp "$script" "$share/script"

pkv_say "try: booting with printk.kv=$kv; loading $(paste -sd' ' "$share/order")${args[*]:+ with ${args[*]}}"
out=$work/out
rm -rf "$out"
bash "$PKV_TOP/qemu-images/boot.sh" run --out "$out" --kv "$kv" --share "$share" \
	--timeout "${PKV_TRY_TIMEOUT:-240}" "$PKV_TOP/qemu-images/try-guest.sh" >"$work/boot.log" 2>&1
rc=$?
# Where the time went, for ./pkv bench's developer loop.
printf '{"module_build_s": %s, "boot_s": %s}\n' "$build_s" "$(pkv_since "$t1")" >"$work/timings.json"
if [ -f "$out/try-guest.sh.stdout" ]; then
	cat "$out/try-guest.sh.stdout"
	[ -s "$out/try-guest.sh.stderr" ] && sed 's/^/stderr: /' "$out/try-guest.sh.stderr"
fi
if [ ! -f "$out/try-guest.sh.rc" ]; then
	# The guest died before the script finished: a panic, or a hang.
	grep '^pkv: ' "$work/boot.log" >&2
	if [ -f "$out/console.log" ]; then
		printf 'pkv: try: the console from the module load on:\n' >&2
		tr -d '\r' <"$out/console.log" | awk '/pkv-try begin/ { on = 1 } on' | tail -n 60 | sed 's/^/  | /' >&2
	fi
	pkv_die "try: the guest did not finish (see the console lines above)"
fi
[ $rc -eq 0 ] || pkv_die "try: $(cat "$out/try-guest.sh.rc" 2>/dev/null | sed 's/^/the guest half exited /')"
