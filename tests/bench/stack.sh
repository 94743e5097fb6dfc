#!/usr/bin/env bash
# stack.sh [DIR...]: stack usage of every function of the converted code,
# pristine tree against the series, with gcc and with clang, as JSON on
# stdout (tests/bench/stack.py; progress on stderr). DIR defaults to the
# four converted directories.
#
# gcc: each object's own compile command, from the kernel build's
#   .OBJ.cmd (so the flags are exactly the build's), run again with
#   -fstack-usage and its output in $PKV_CACHE/stack/gcc-TREE/. The
#   pristine build has these objects once tests/bench/sizes.sh built them.
# clang: a build of its own per tree, the same .config taken through
#   olddefconfig with CC=clang, in $PKV_CACHE/stack/clang-TREE/, built with
#   KCFLAGS=-fstack-usage (kept: later runs rebuild what changed).
set -u
shopt -s nullglob
. "$(dirname "$0")/../../qemu-images/lib.sh"
eval "$(bash "$PKV_TOP/qemu-images/kernel.sh" vars)"
dirs=${*:-net/l2tp fs/ext4 drivers/net/ethernet/cirrus drivers/isdn/mISDN}
root=$PKV_CACHE/stack
mkdir -p "$root"
command -v clang >/dev/null || pkv_die "stack: no clang (Debian package clang; ./pkv build installs it)"

# objects OUT: the compiled objects of $dirs in the build OUT, as in
# sizes.py: not the .mod.o files, not an object linked from several.
objects() {
	local out=$1 d o
	for d in $dirs; do
		for o in "$out/$d"/*.o; do
			case $o in *.mod.o) continue ;; esac
			[ -f "${o%.o}.mod" ] && [ "$(wc -w <"${o%.o}.mod")" -gt 1 ] && continue
			echo "${o#"$out/"}"
		done
	done
}

# wait_all DEST: wait for the compiles in pids; any failure stops here.
wait_all() {
	local p
	for p in "${pids[@]}"; do
		wait "$p" || pkv_die "stack: a gcc -fstack-usage compile failed (see $1.log)"
	done
	pids=()
}

# gcc_su OUT DEST: DEST/OBJ.su for each object of the build OUT.
gcc_su() {
	local out=$1 dest=$2 o cmd n=0 pids=()
	[ -n "$(objects "$out")" ] || pkv_die "stack: no object of $dirs in $out (tests/bench/sizes.sh builds the pristine ones)"
	while read -r o; do
		cmd=$(sed -n "1s|^cmd_$o := ||p" "$out/$(dirname "$o")/.$(basename "$o").cmd")
		[ -n "$cmd" ] || pkv_die "stack: $out/$(dirname "$o")/.$(basename "$o").cmd: no compile command for $o"
		# The compile alone (objtool is not needed for the sizes), without
		# the dependency file, into DEST.
		cmd=${cmd%%; ./tools/objtool*}
		cmd=$(sed "s| -Wp,-MMD,[^ ]*| |; s| -o $o | -fstack-usage -o $dest/$o |" <<<"$cmd")
		# Never the build's own object: a command that did not take the
		# new output, or that runs more than the compiler (genksyms, make's
		# $$ and \# escapes), is refused.
		case $cmd in
		*" -fstack-usage -o $dest/$o "*) ;;
		*) pkv_die "stack: $o: cannot redirect the compile command of its .cmd file" ;;
		esac
		case $cmd in *";"* | *'$$'* | *'\#'*) pkv_die "stack: $o: its compile command is more than one command" ;; esac
		mkdir -p "$dest/$(dirname "$o")"
		(cd "$out" && sh -c "$cmd") >>"$dest.log" 2>&1 &
		pids+=($!)
		n=$((n + 1))
		[ $((n % PKV_JOBS)) -eq 0 ] && wait_all "$dest"
	done < <(objects "$out")
	wait_all "$dest"
	while read -r o; do
		[ -s "$dest/${o%.o}.su" ] || pkv_die "stack: gcc gave no $dest/${o%.o}.su (see $dest.log)"
	done < <(objects "$out")
}

# clang_su SRC CONFIG DEST: a clang build of $dirs of the tree SRC in DEST.
clang_su() {
	local src=$1 config=$2 dest=$3 d
	mkdir -p "$dest"
	if ! cmp -s "$config" "$dest/.config.gcc"; then
		cp "$config" "$dest/.config" && cp "$config" "$dest/.config.gcc"
		make -s -C "$src" O="$dest" CC=clang LOCALVERSION= olddefconfig >"$dest.log" 2>&1 ||
			pkv_die "stack: make olddefconfig with clang in $dest failed (see $dest.log)"
	fi
	# shellcheck disable=SC2046 # one make argument per directory
	make -s -C "$src" O="$dest" CC=clang LOCALVERSION= KCFLAGS=-fstack-usage -j"$PKV_JOBS" \
		$(for d in $dirs; do printf '%s/ ' "$d"; done) >>"$dest.log" 2>&1 ||
		pkv_die "stack: the clang build of $dirs in $dest failed (see $dest.log)"
	local o
	while read -r o; do
		[ "$dest/${o%.o}.su" -nt "$dest/$o" ] || [ ! "$dest/${o%.o}.su" -ot "$dest/$o" ] ||
			pkv_die "stack: $dest/${o%.o}.su: missing or older than its object"
	done < <(objects "$dest")
}

for tree in pristine series; do
	if [ $tree = pristine ]; then src=$PRISTINE_DIR out=$PRISTINE_OUT; else src=$SRC_DIR out=$OUT_DIR; fi
	pkv_say "stack: gcc -fstack-usage, $tree tree ($dirs)"
	rm -rf "$root/gcc-$tree" "$root/gcc-$tree.log"
	gcc_su "$out" "$root/gcc-$tree"
	pkv_say "stack: clang -fstack-usage, $tree tree (log: $root/clang-$tree.log)"
	clang_su "$src" "$out/.config" "$root/clang-$tree"
done
# shellcheck disable=SC2086 # one argument per directory
python3 "$PKV_TOP/tests/bench/stack.py" "$root" "$SRC_DIR" "$PRISTINE_DIR" $dirs
