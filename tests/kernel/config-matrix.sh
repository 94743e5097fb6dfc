#!/usr/bin/env bash
# config-matrix.sh TOP: the series builds without a warning in the kernel
# configurations that change what it compiles, not only in the guest's.
#
# Each configuration is the guest's .config (linux-build/.config) with a few
# options changed by scripts/config and olddefconfig, and builds the objects
# of every .c file the series touches, in the tree as ./pkv build left it
# (branch pkv). The gcc configurations share one build directory,
# $PKV_CACHE/matrix/gcc: switching the configuration rebuilds only the
# objects that depend on an option that changed (kbuild's fixdep), so each
# step pays for what its configuration changes. clang has a directory of its
# own ($PKV_CACHE/matrix/clang).
#
#   guest-W=1      the guest's configuration, W=1 on the touched objects
#   printk-off     CONFIG_PRINTK=n (under EXPERT)
#   dyndbg-core    CONFIG_DYNAMIC_DEBUG=n, CONFIG_DYNAMIC_DEBUG_CORE=y
#   dyndbg-off     both off
#   errname-off    CONFIG_SYMBOLIC_ERRNAME=n
#   printk-kv-off  CONFIG_PRINTK_KV=n (the series' option: the header alone)
#   tracing        CONFIG_FTRACE and EVENT_TRACING on, for the objects the
#                  guest has no tracing to build (kernel/trace/trace_events.o)
#   clang          the guest's configuration with LLVM=1
#
# A warning fails the configuration when it points into a line the series
# added (git diff pristine: the tree as it is) or into printk_kv.h. W=1
# warns about 6.1's own code in these files too (vsprintf.c's va_format()),
# which is not the series' to fix: a warning elsewhere is listed, not
# failed. The limit: one that the series causes at a line of 6.1 (a
# variable whose last use it removed) is listed only. Each configuration's
# time is printed and kept in $PKV_CACHE/matrix/times.tsv.
set -u
top=$(cd "${1:?usage: config-matrix.sh TOP}" && pwd)
cache=${PKV_CACHE:-$HOME/.cache/pkv}
src=$cache/linux-src
base=$cache/linux-build/.config
root=$cache/matrix
jobs=${PKV_JOBS:-$(($(nproc) + 1))}
[ -d "$src/.git" ] || { echo "FAIL $src: no kernel tree (./pkv build)"; exit 1; }
[ -f "$base" ] || { echo "FAIL $base: no guest kernel configuration (./pkv build)"; exit 1; }
command -v clang >/dev/null || { echo "FAIL clang: not installed (Debian package clang; ./pkv build installs it)"; exit 1; }
# The tree must hold this checkout's series, as ./pkv build applies it.
cmp -s "$src/include/linux/printk_kv.h" "$top/include-prototype/linux/printk_kv.h" ||
	{ echo "FAIL $src/include/linux/printk_kv.h is not include-prototype's: the tree is not this series (./pkv build)"; exit 1; }
mkdir -p "$root"

# The series' C files, and the lines it added to each, for the warnings.
mapfile -t files < <(git -C "$src" diff --name-only pristine -- '*.c')
[ ${#files[@]} -gt 0 ] || { echo "FAIL git diff pristine in $src: the series touches no .c file"; exit 1; }
added=$root/added-lines
git -C "$src" diff -U0 pristine | awk '
	/^\+\+\+ b\// { file = substr($2, 3) }
	/^@@/ { split($3, a, ","); start = substr(a[1], 2); n = (a[2] == "" ? 1 : a[2]);
		for (i = 0; i < n; i++) print file ":" start + i }' >"$added"

# The make targets: a touched file's directory when it is small (kbuild then
# builds what the configuration enables there), the object itself in a big
# one (fs/ext4, lib, drivers/base), when the guest's build has it: make
# would compile an object its configuration leaves out (kernel/trace/ has
# no tracing here) without the options it needs.
targets=()
traced=()
for f in "${files[@]}"; do
	d=$(dirname "$f")
	n=$(find "$src/$d" -maxdepth 1 -name '*.c' | wc -l)
	if [ "$n" -le 25 ]; then
		t=$d/
	elif [ -f "$cache/linux-build/${f%.c}.o" ]; then
		t=${f%.c}.o
	else
		case $f in
		kernel/trace/*) traced+=("${f%.c}.o") ;;
		*) echo "# $f: not built in the guest's configuration, left out" ;;
		esac
		continue
	fi
	case " ${targets[*]} " in *" $t "*) ;; *) targets+=("$t") ;; esac
done

fail=0
# step NAME DIR MAKEARGS [OBJECT...] -- SCRIPTCONFIG...: configure DIR,
# build the touched objects and the OBJECTs, judge the warnings.
step() {
	local name=$1 dir=$2 makeargs=$3 t0 log objs warn ours loc more=()
	shift 3
	while [ "$1" != -- ]; do
		more+=("$1")
		shift
	done
	shift
	t0=$(date +%s)
	mkdir -p "$dir"
	log=$root/$name.log
	cp "$base" "$dir/.config.want"
	[ $# -eq 0 ] || "$src/scripts/config" --file "$dir/.config.want" "$@"
	# shellcheck disable=SC2086 # makeargs: LLVM=1, W=1 or nothing
	if ! cmp -s "$dir/.config.want" "$dir/.config.in"; then
		rm -f "$dir/.config.in"
		cp "$dir/.config.want" "$dir/.config"
		if ! make -s -C "$src" O="$dir" LOCALVERSION= ${makeargs/W=1/} olddefconfig >"$log" 2>&1; then
			echo "FAIL $name: make olddefconfig (see $log)"
			fail=1
			return
		fi
		cp "$dir/.config.want" "$dir/.config.in"
	else
		: >"$log"
	fi
	# The options asked for must hold after olddefconfig (a dependency
	# can refuse one), or the configuration is not the one named.
	local a o
	for a in "$@"; do
		case $a in
		-e | -d | --enable | --disable) continue ;;
		esac
		if grep -q "^CONFIG_$a=y" "$dir/.config.want" && ! grep -q "^CONFIG_$a=y" "$dir/.config"; then
			echo "FAIL $name: CONFIG_$a=y did not survive olddefconfig"; fail=1; return
		fi
		if grep -q "^# CONFIG_$a is not set" "$dir/.config.want" && grep -q "^CONFIG_$a=[ym]" "$dir/.config"; then
			echo "FAIL $name: CONFIG_$a=n did not survive olddefconfig"; fail=1; return
		fi
	done
	# Warnings are judged from this step's log: every object of a touched
	# file is compiled again, or one that an earlier run or step left
	# current (a rerun, the clang tree) would pass unseen.
	for o in "${files[@]}"; do
		rm -f "$dir/${o%.c}.o"
	done
	# shellcheck disable=SC2086
	if ! make -C "$src" O="$dir" LOCALVERSION= $makeargs -j"$jobs" "${targets[@]}" "${more[@]}" >>"$log" 2>&1; then
		echo "FAIL $name: the build failed ($log):"
		grep -E 'error:|Error [0-9]' "$log" | head -10
		fail=1
		return
	fi
	for o in "${more[@]}"; do
		[ -f "$dir/$o" ] || { echo "FAIL $name: $o was not built"; fail=1; return; }
	done
	warn=$(grep -E '^[^ ]+:[0-9]+:[0-9]+: warning:' "$log" | sed "s|^$src/||; s|^\.\./||" | sort -u)
	ours=$(while IFS= read -r w; do
		[ -n "$w" ] || continue
		loc=$(echo "$w" | cut -d: -f1-2)
		case $loc in include/linux/printk_kv.h:*) echo "$w"; continue ;; esac
		grep -qxF "$loc" "$added" && echo "$w"
	done <<<"$warn")
	local secs=$(($(date +%s) - t0))
	# What was compiled: the objects the make log names.
	objs=$(grep -cE '^  CC( \[M\])? ' "$log")
	printf '%s\t%d\t%d\n' "$name" "$objs" "$secs" >>"$root/times.tsv.new"
	if [ -n "$ours" ]; then
		echo "FAIL $name: warnings in the series' lines ($objs objects compiled, $secs s):"
		echo "$ours" | head -20
		fail=1
		return
	fi
	echo "ok   $name: $objs objects compiled, no warning in the series' lines ($secs s)"
	[ -z "$warn" ] || echo "$warn" | sed 's/^/#    outside the series lines: /' | head -10
}

rm -f "$root/times.tsv.new"
gcc_dir=$root/gcc
step guest-W=1 "$gcc_dir" "W=1" --
step printk-off "$gcc_dir" "" -- -e EXPERT -d PRINTK
step dyndbg-core "$gcc_dir" "" -- -d DYNAMIC_DEBUG -e DYNAMIC_DEBUG_CORE
step dyndbg-off "$gcc_dir" "" -- -d DYNAMIC_DEBUG -d DYNAMIC_DEBUG_CORE
step errname-off "$gcc_dir" "" -- -d SYMBOLIC_ERRNAME
step printk-kv-off "$gcc_dir" "" -- -d PRINTK_KV
[ ${#traced[@]} -eq 0 ] ||
	step tracing "$gcc_dir" "" "${traced[@]}" -- -e FTRACE -e EVENT_TRACING
step clang "$root/clang" "LLVM=1" --
mv "$root/times.tsv.new" "$root/times.tsv" 2>/dev/null
exit $fail
