#!/usr/bin/env bash
# Kernel tree and build for the guest, all under $PKV_CACHE (never in the repo).
#
#   kernel.sh source    extract Debian's linux-source-6.1 into a pristine git tree
#   kernel.sh apply     check out branch "pkv" = pristine + kernel-patches/ (git am)
#   kernel.sh build     configure (tinyconfig + qemu-images/kernel.config) and build
#   kernel.sh all       the three above
#   kernel.sh pristine  a worktree of the pristine tree, configured alike and
#                       prepared for out-of-tree modules (modules_prepare)
#   kernel.sh record    note that branch pkv is what kernel-patches/ holds (after
#                       ./pkv patches exported it)
#   kernel.sh vars      print the paths other scripts use
#
# Incremental: the tree is re-patched only when kernel-patches/ changes, and files
# whose content did not change keep their mtime, so make rebuilds only what did.
# Re-patching never discards work: it refuses while branch pkv has commits made
# since the last apply or export, or uncommitted changes.
set -u
. "$(dirname "$0")/lib.sh"

TARBALL=${PKV_KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
SRC_DIR=$PKV_CACHE/linux-src
OUT_DIR=$PKV_CACHE/linux-build
PRISTINE_DIR=$PKV_CACHE/linux-pristine
PRISTINE_OUT=$PKV_CACHE/linux-pristine-build
MOD_DIR=$PKV_CACHE/linux-modules
PATCH_DIR=${PKV_PATCH_DIR:-$PKV_TOP/kernel-patches}
FRAGMENT=${PKV_KERNEL_FRAGMENT:-$PKV_TOP/qemu-images/kernel.config}

git_k() { git -C "$SRC_DIR" -c user.name=pkv -c user.email=pkv@localhost "$@"; }

kernel_source() {
	[ -r "$TARBALL" ] || pkv_die "$TARBALL: not found (Debian package linux-source-6.1)"
	local debver
	debver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown)
	if [ -f "$SRC_DIR/.pkv-pristine" ] &&
		[ "$(cat "$SRC_DIR/.pkv-pristine")" = "$debver" ]; then
		return 0
	fi
	if [ -d "$SRC_DIR/.git" ]; then
		# A new Debian linux-source: the tree is extracted again. Work on
		# branch pkv that kernel-patches/ does not hold would be lost.
		local head recorded
		head=$(git_k rev-parse -q --verify pkv 2>/dev/null || true)
		recorded=$(cat "$SRC_DIR/.pkv-head" 2>/dev/null || true)
		if [ ! -f "$SRC_DIR/.pkv-applying" ] && { [ -n "$head" ] && [ "$head" != "$recorded" ] ||
			[ -n "$(git_k status --porcelain -uno 2>/dev/null)" ]; }; then
			pkv_die "$SRC_DIR: linux-source-6.1 is now Debian $debver (the tree is $(cat "$SRC_DIR/.pkv-pristine" 2>/dev/null)), and branch pkv has work kernel-patches/ does not: export it with ./pkv patches first"
		fi
		pkv_say "linux-source-6.1 is now Debian $debver: extracting it again, the pristine worktree too"
	fi
	# The pristine worktree belongs to the old tree's repository.
	rm -rf "$SRC_DIR" "$SRC_DIR.tmp" "$OUT_DIR" "$MOD_DIR" "$PRISTINE_DIR" "$PRISTINE_OUT"
	mkdir -p "$SRC_DIR.tmp"
	pkv_say "extracting $TARBALL (Debian $debver, ~1.5 GB)"
	tar -C "$SRC_DIR.tmp" -xf "$TARBALL" --checkpoint=10000 \
		--checkpoint-action=ttyout='  %u files\r' ||
		pkv_die "$TARBALL: extraction failed"
	mv "$SRC_DIR.tmp"/linux-source-6.1 "$SRC_DIR" && rmdir "$SRC_DIR.tmp" ||
		pkv_die "$TARBALL: no linux-source-6.1/ directory inside"
	pkv_say "recording the pristine tree in git"
	git_k init -q -b upstream || pkv_die "git init failed in $SRC_DIR"
	# Debian's tree ships no .gitignore of generated files worth keeping out; add all.
	git_k add -A -f . && git_k commit -q -m "linux-source-6.1 $debver (Debian), pristine" ||
		pkv_die "git commit of the pristine tree failed"
	git_k tag -f pristine >/dev/null
	echo "$debver" >"$SRC_DIR/.pkv-pristine"
	git_k update-index --assume-unchanged .pkv-pristine 2>/dev/null
	printf '.pkv-*\n' >>"$SRC_DIR/.git/info/exclude"
}

# Print the kernel version the pristine tree contains (e.g. 6.1.158).
kernel_version() {
	make -s -C "$SRC_DIR" kernelversion 2>/dev/null
}

series_files() {
	[ -f "$PATCH_DIR/series" ] || return 0
	grep -v '^[[:space:]]*\(#\|$\)' "$PATCH_DIR/series"
}

series_key() {
	(cd "$PATCH_DIR" && { cat series 2>/dev/null; series_files | xargs -r cat; } | sha256sum | cut -c1-16)
}

# kernel_record: branch pkv and kernel-patches/ are the same series now.
kernel_record() {
	series_key >"$SRC_DIR/.pkv-series"
	git_k rev-parse pkv >"$SRC_DIR/.pkv-head"
}

kernel_apply() {
	local key
	key=$(series_key)
	if [ -f "$SRC_DIR/.pkv-series" ] && [ "$(cat "$SRC_DIR/.pkv-series")" = "$key" ] &&
		[ "$(git_k rev-parse --abbrev-ref HEAD)" = pkv ]; then
		return 0
	fi
	local old recorded stamps=$PKV_CACHE/.mtimes applying=$SRC_DIR/.pkv-applying
	if [ -f "$applying" ]; then
		# An apply that failed or was interrupted: branch pkv and the
		# tree hold only what it did, since it started from the recorded
		# head on a clean tree. Start again from there.
		old=$(cat "$applying")
		pkv_say "recovering from an apply that did not finish (git am failed or was interrupted): re-applying kernel-patches/"
	else
		old=$(git_k rev-parse -q --verify pkv 2>/dev/null || true)
		recorded=$(cat "$SRC_DIR/.pkv-head" 2>/dev/null || true)
		if [ -n "$old" ] && [ -n "$recorded" ] && [ "$old" != "$recorded" ]; then
			pkv_die "$SRC_DIR: branch pkv has commits that kernel-patches/ does not (${old:0:12}, last applied or exported ${recorded:0:12}): export them with ./pkv patches, or drop them with git -C $SRC_DIR reset --hard ${recorded:0:12}"
		fi
		[ -z "$(git_k status --porcelain -uno 2>/dev/null)" ] ||
			pkv_die "$SRC_DIR has uncommitted changes; commit them (and ./pkv patches) or discard them before re-applying kernel-patches/"
		# Remember mtimes of files the old series touched, to restore
		# where unchanged (an apply that restarts keeps the first list).
		: >"$stamps"
		echo "$old" >"$applying"
	fi
	if [ -n "$old" ] && [ ! -s "$stamps" ]; then
		git_k diff --name-only pristine "$old" | while read -r f; do
			[ -e "$SRC_DIR/$f" ] && printf '%s\t%s\n' "$(stat -c %Y "$SRC_DIR/$f")" "$f"
		done >"$stamps"
	fi
	git_k am --abort >/dev/null 2>&1
	git_k checkout -q -f -B pkv pristine || pkv_die "git checkout of pristine failed in $SRC_DIR"
	local p n=0
	while read -r p; do
		[ -f "$PATCH_DIR/$p" ] || pkv_die "kernel-patches/series names $p, which does not exist"
		if ! git_k am -q --whitespace=nowarn "$PATCH_DIR/$p" >"$PKV_CACHE/am.log" 2>&1; then
			cat "$PKV_CACHE/am.log" >&2
			git_k am --abort >/dev/null 2>&1
			rm -f "$SRC_DIR/.pkv-series"
			pkv_die "kernel-patches/$p does not apply to pristine linux-source-6.1 (git am failed, see above; the next run starts the series again)"
		fi
		n=$((n + 1))
	done < <(series_files)
	if [ -n "$old" ]; then
		local new
		new=$(git_k rev-parse HEAD)
		while IFS=$'\t' read -r t f; do
			git_k diff --quiet "$old" "$new" -- "$f" 2>/dev/null && touch -d "@$t" "$SRC_DIR/$f"
		done <"$stamps"
	fi
	kernel_record
	rm -f "$applying"
	pkv_say "applied $n patch(es) from kernel-patches/ on $(kernel_version)"
}

# kernel_config [SRC OUT]: tinyconfig + the fragment, redone when the fragment changes.
kernel_config() {
	local src=${1:-$SRC_DIR} out=${2:-$OUT_DIR} key
	key=$(pkv_hash "$FRAGMENT")
	[ -f "$out/.config" ] && [ "$(cat "$out/.pkv-config" 2>/dev/null)" = "$key" ] &&
		return 0
	mkdir -p "$out"
	make -s -C "$src" O="$out" tinyconfig >/dev/null ||
		pkv_die "make tinyconfig failed"
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" "$FRAGMENT" >/dev/null) || pkv_die "merge_config.sh failed on $FRAGMENT"
	make -s -C "$src" O="$out" olddefconfig >/dev/null || pkv_die "make olddefconfig failed"
	[ "$src" = "$SRC_DIR" ] || { echo "$key" >"$out/.pkv-config"; return 0; }
	# Report fragment options the tree did not take (typos, unmet dependencies).
	local opt lost=()
	while read -r opt; do
		grep -qx "$opt" "$OUT_DIR/.config" || lost+=("$opt")
	done < <(grep -E '^CONFIG_[A-Z0-9_]+=' "$FRAGMENT")
	[ ${#lost[@]} -eq 0 ] || pkv_say "warning: $FRAGMENT: not set in .config: ${lost[*]}"
	echo "$key" >"$out/.pkv-config"
}

kernel_pristine() {
	if [ ! -f "$PRISTINE_DIR/Makefile" ]; then
		rm -rf "$PRISTINE_DIR" "$PRISTINE_OUT"
		git_k worktree prune
		git_k worktree add -q --detach "$PRISTINE_DIR" pristine ||
			pkv_die "git worktree add $PRISTINE_DIR failed"
	fi
	kernel_config "$PRISTINE_DIR" "$PRISTINE_OUT"
	# Prepared for this configuration: a module built on an older prepare
	# takes the old autoconf.h, and its struct module (CONFIG_KUNIT adds
	# fields) no longer matches the kernel's, which refuses to load it.
	cmp -s "$PRISTINE_OUT/.pkv-prepared" "$PRISTINE_OUT/.pkv-config" && return 0
	rm -f "$PRISTINE_OUT/.pkv-prepared"
	make -s -C "$PRISTINE_DIR" O="$PRISTINE_OUT" LOCALVERSION= -j"$PKV_JOBS" modules_prepare \
		>"$PKV_CACHE/pristine-prepare.log" 2>&1 ||
		pkv_die "modules_prepare of the pristine tree failed (log: $PKV_CACHE/pristine-prepare.log)"
	cp "$PRISTINE_OUT/.pkv-config" "$PRISTINE_OUT/.pkv-prepared"
}

# module_code_only PATH...: every path (relative to the tree) is a .c file
# whose object belongs to a module (kbuild lists a module's objects in its
# .mod file), so that vmlinux and bzImage cannot change.
module_code_only() {
	local f o
	for f in "$@"; do
		case "$f" in *.c) ;; *) return 1 ;; esac
		[ -f "$SRC_DIR/$f" ] || return 1
		o=${f%.c}.o
		cat "$OUT_DIR/$(dirname "$f")"/*.mod 2>/dev/null | grep -qxF "$o" || return 1
	done
}

# kbuild_progress PID LOG FULL: while make PID runs, every 30 s, the objects
# it has built (LOG's CC, LD and AR lines) and the time; for a build from
# scratch (FULL non-empty), the time left at this rate, when an earlier
# build from scratch left its object count.
kbuild_progress() {
	local pid=$1 log=$2 full=$3 t0=$SECONDS n total left i
	total=$(cat "$PKV_CACHE/kbuild-objects" 2>/dev/null)
	[ -n "$full" ] && [[ $total =~ ^[1-9][0-9]*$ ]] || total=""
	while :; do
		for ((i = 0; i < 30; i++)); do
			kill -0 "$pid" 2>/dev/null || return 0
			sleep 1
		done
		n=$(grep -cE '^  (CC|LD|AR)' "$log")
		left=""
		if [ -n "$total" ] && [ "$n" -gt 0 ] && [ "$n" -lt "$total" ]; then
			left="; about $(((total - n) * (SECONDS - t0) / n / 60 + 1)) min left (of $total objects)"
		fi
		pkv_say "kernel: $n objects built in $((SECONDS - t0))s$left"
	done
}

kernel_build() {
	kernel_config
	local log=$PKV_CACHE/kbuild.log
	# /proc/version names the series: "(pkv@series-<head of branch pkv>)".
	local host
	host=series-$(git_k rev-parse --short=12 HEAD)
	KMAKE=(make -C "$SRC_DIR" O="$OUT_DIR" LOCALVERSION= KBUILD_BUILD_USER=pkv
		KBUILD_BUILD_HOST="$host")
	# A build that found nothing to do still walks the whole tree (about
	# 15 s here): skip make when no file of the tree is newer than the last
	# successful build, for the same branch head and .config; when only
	# module code changed, build the modules alone.
	local stamp=$OUT_DIR/.pkv-built want changed=() targets=(bzImage modules)
	want="$host $(pkv_hash "$OUT_DIR/.config")"
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
		[ -f "$OUT_DIR/arch/x86/boot/bzImage" ] && [ -d "$MOD_DIR/lib/modules" ]; then
		# A newer directory with a newer file in it is a save by rename
		# (sed -i, git checkout, most editors); one without lost or moved
		# an entry, which only its own mtime shows: a structural change,
		# listed as DIR/ so that no shortcut applies.
		local entries=() files=() e d f explained
		mapfile -t entries < <(cd "$SRC_DIR" && find . \( -path ./.git -o -name '.pkv-*' \
			-o -name '.checkpatch-camelcase.*' \) -prune -o -newer "$stamp" -printf '%y %P\n')
		for e in "${entries[@]}"; do
			[ "${e%% *}" = d ] || files+=("${e#* }")
		done
		changed=("${files[@]}")
		for e in "${entries[@]}"; do
			[ "${e%% *}" = d ] || continue
			d=${e#d }
			explained=false
			for f in "${files[@]}"; do
				[[ $f == */* ]] && f=${f%/*} || f=""
				[ "$f" = "$d" ] && { explained=true; break; }
			done
			$explained || changed+=("${d:-.}/")
		done
		if [ ${#changed[@]} -eq 0 ]; then
			pkv_say "kernel: up to date (no file in $SRC_DIR is newer than the last build)"
			return 0
		fi
		if module_code_only "${changed[@]}"; then
			targets=(modules)
			pkv_say "kernel: only module code changed (${changed[*]:0:3}${changed[3]:+ ...}): make modules"
		fi
	fi
	# Stamped before make starts: a file saved during the build is newer.
	echo "$want" >"$stamp.new"
	pkv_say "make -j$PKV_JOBS ${targets[*]} (log: $log)"
	local full=""
	[ -f "$OUT_DIR/vmlinux" ] || full=1
	"${KMAKE[@]}" -j"$PKV_JOBS" "${targets[@]}" >"$log" 2>&1 &
	local make_pid=$!
	kbuild_progress $make_pid "$log" "$full"
	if ! wait $make_pid; then
		grep -E 'error|Error' "$log" | head -30 >&2
		rm -f "$OUT_DIR/.pkv-release" "$stamp" "$stamp.new"
		pkv_die "kernel build failed (full log: $log)"
	fi
	local n
	n=$(grep -cE '^  (CC|LD|AR)' "$log")
	pkv_say "$n objects rebuilt"
	# The next build from scratch estimates its time left from this count.
	[ -z "$full" ] || echo "$n" >"$PKV_CACHE/kbuild-objects"
	if [ "$n" -gt 0 ] || [ ! -d "$MOD_DIR/lib/modules" ] || [ ! -f "$OUT_DIR/.pkv-build-id" ]; then
		rm -rf "$MOD_DIR.new"
		"${KMAKE[@]}" -s INSTALL_MOD_PATH="$MOD_DIR.new" modules_install >>"$log" 2>&1 || pkv_die "modules_install failed (log: $log)"
		mkdir -p "$MOD_DIR.new/lib/modules"
		rm -rf "$MOD_DIR" && mv "$MOD_DIR.new" "$MOD_DIR"
		# What builds against this kernel (qemu-images/oot-module.sh)
		# rebuilds when this changes: not when only module code was
		# rebuilt and the symbols the modules export stayed the same.
		if [ "${targets[*]}" != modules ] || [ ! -f "$OUT_DIR/.pkv-build-id" ] ||
			! cmp -s "$OUT_DIR/Module.symvers" "$OUT_DIR/.pkv-symvers"; then
			date +%s.%N >"$OUT_DIR/.pkv-build-id"
		fi
		cp "$OUT_DIR/Module.symvers" "$OUT_DIR/.pkv-symvers"
	fi
	"${KMAKE[@]}" -s kernelrelease >"$OUT_DIR/.pkv-release"
	echo "$host" >"$OUT_DIR/.pkv-build-host"
	mv "$stamp.new" "$stamp"
}

kernel_vars() {
	printf 'SRC_DIR=%s\nOUT_DIR=%s\nMOD_DIR=%s\nBZIMAGE=%s\nPRISTINE_DIR=%s\nPRISTINE_OUT=%s\n' \
		"$SRC_DIR" "$OUT_DIR" "$MOD_DIR" "$OUT_DIR/arch/x86/boot/bzImage" \
		"$PRISTINE_DIR" "$PRISTINE_OUT"
}

mkdir -p "$PKV_CACHE"
case "${1:-all}" in
source) kernel_source ;;
apply) kernel_source && kernel_apply ;;
build) kernel_build ;;
pristine) kernel_source && kernel_pristine ;;
version) kernel_version ;;
record) kernel_record ;;
vars) kernel_vars ;;
all) kernel_source && kernel_apply && kernel_build ;;
*) pkv_die "kernel.sh: unknown command '$1' (source|apply|build|all|record|vars|version)" ;;
esac
