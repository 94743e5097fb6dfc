# shellcheck shell=bash
# Common helpers for the pkv harness: paths, messages, timing, package checks.
# Sourced by ./pkv and the qemu-images/ scripts; defines functions only.

PKV_TOP=${PKV_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PKV_CACHE=${PKV_CACHE:-$HOME/.cache/pkv}
PKV_BUILD=${PKV_BUILD:-$PKV_TOP/build}
PKV_JOBS=${PKV_JOBS:-$(($(nproc) + 1))}
PKV_TIMINGS=${PKV_TIMINGS:-}

pkv_say() { printf 'pkv: %s\n' "$*" >&2; }
pkv_die() { printf 'pkv: error: %s\n' "$*" >&2; exit 1; }

# The printk.kv= encodings (docs/FORMAT.md); pkv_kv_check ENCODING dies on
# any other word, naming the choices.
PKV_ENCODINGS="text dict off"
pkv_kv_check() {
	case " $PKV_ENCODINGS " in
	*" ${1:-?} "*) ;;
	*) pkv_die "--kv '${1:-}': not an encoding (${PKV_ENCODINGS// /, })" ;;
	esac
}

# Wall time: pkv_now is a stamp; pkv_since STAMP [DECIMALS] the seconds since
# it (2 decimals unless told).
pkv_now() { date +%s.%N; }
pkv_since() { awk -v a="$1" -v b="$(pkv_now)" -v d="${2:-2}" 'BEGIN { printf "%.*f", d, b - a }'; }

# Run a long step with a heading and record its wall time for the summary.
pkv_step() {
	local name=$1 t0 rc
	shift
	pkv_say "[$name] ..."
	t0=$(pkv_now)
	# A subshell: a step that is a shell function ends with pkv_die's exit,
	# and the caller still gets its status (and prints its summary).
	("$@")
	rc=$?
	local dt
	dt=$(pkv_since "$t0" 1)
	pkv_say "[$name] done in ${dt}s"
	if [ -n "$PKV_TIMINGS" ]; then
		printf '%s\t%s\t%s\n' "$name" "$dt" "$rc" >>"$PKV_TIMINGS"
	fi
	return $rc
}

pkv_timing_summary() {
	[ -n "$PKV_TIMINGS" ] && [ -s "$PKV_TIMINGS" ] || return 0
	printf '\npkv: timing summary\n' >&2
	awk -F'\t' '{ printf "  %-28s %8.1fs%s\n", $1, $2, ($3 == 0 ? "" : "  (failed)"); t += $2 }
		END { printf "  %-28s %8.1fs\n", "total", t }' "$PKV_TIMINGS" >&2
}

# pkv_lock_cache WHAT: one ./pkv at a time per PKV_CACHE (a build, an image,
# a boot's overlay share it). Holds an exclusive flock on $PKV_CACHE/.lock on
# fd 9 until the process and its children end; a second ./pkv says which
# command holds it and waits. The holder exports PKV_CACHE_LOCKED, so the
# ./pkv commands it runs itself (./pkv test runs ./pkv try) do not wait for
# their parent.
pkv_lock_cache() {
	local what=$1 holder
	[ "${PKV_CACHE_LOCKED:-}" = "$PKV_CACHE" ] && return 0
	mkdir -p "$PKV_CACHE" || pkv_die "cannot create PKV_CACHE $PKV_CACHE"
	exec 9>>"$PKV_CACHE/.lock" || pkv_die "cannot open $PKV_CACHE/.lock"
	if ! flock -n 9; then
		holder=$(cat "$PKV_CACHE/.lock.holder" 2>/dev/null)
		pkv_say "waiting for $PKV_CACHE: ${holder:-another ./pkv} holds it"
		flock 9 || pkv_die "cannot lock $PKV_CACHE/.lock"
	fi
	printf '%s (pid %d, since %s)\n' "$what" "$$" "$(date '+%H:%M:%S')" >"$PKV_CACHE/.lock.holder"
	export PKV_CACHE_LOCKED=$PKV_CACHE
}

# Hash of files and strings, for cache keys.
pkv_hash() { sha256sum "$@" | sha256sum | cut -c1-16; }

# Debian packages the harness needs on the host (command they provide: package).
PKV_HOST_PACKAGES=(
	linux-source-6.1 qemu-system-x86 mmdebstrap meson ninja-build flex bison bc
	libelf-dev libssl-dev cpio jq e2fsprogs pkg-config gcc clang
	libclang-rt-14-dev libjansson-dev libcmocka-dev util-linux valgrind
	git python3 python3-ply python3-git xz-utils perl rsync kmod
)

# Install whatever is missing, once; idempotent.
pkv_ensure_packages() {
	local missing=() p have
	have=$(dpkg-query -W -f='${Package} ${Status}\n' "${PKV_HOST_PACKAGES[@]}" 2>/dev/null |
		awk '$NF == "installed" { print $1 }')
	for p in "${PKV_HOST_PACKAGES[@]}"; do
		grep -qx "$p" <<<"$have" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		pkv_die "missing Debian packages: ${missing[*]}; run as root (or: sudo apt-get install ${missing[*]})"
	fi
	pkv_say "installing Debian packages: ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null ||
		pkv_die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >"$PKV_CACHE/apt.log" 2>&1 ||
		{ tail -20 "$PKV_CACHE/apt.log" >&2; pkv_die "apt-get install failed (log: $PKV_CACHE/apt.log)"; }
}
