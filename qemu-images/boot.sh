#!/usr/bin/env bash
# Boot the guest once under QEMU.
#
#   boot.sh run [--out DIR] [--timeout SECS] [--append ARGS] [--kv ENCODING]
#               [--share DIR] SCRIPT...
#       run each script as root in the guest, in order; show its stdout,
#       stderr and exit status; files written under $PKV_OUT come back to
#       DIR/<script>/; --share: a copy of DIR is $PKV_IN/share in the guest
#       (read-only); exit non-zero if a script failed or the guest did not
#       finish in time
#   boot.sh shell [--append ARGS] [--kv ENCODING] [--share DIR]
#       an interactive root shell on the serial console, the terminal's size
#       and TERM passed on; DIR (default $PKV_CACHE/shell) is /pkv/share in
#       the guest, read-write: files in and out
#
# --kv text|dict|off adds printk.kv=ENCODING to the command line: where
# printk_kv records keep their fields (docs/FORMAT.md, Encodings).
#
# Without --append the kernel command line gets PKV_APPEND_DEFAULT, the
# boot the guest scenarios are written for (tests/meson.build uses it too),
# so that a scenario run alone sees the same ring buffer as in ./pkv test;
# --append ARGS replaces it.
#
# The image is used with snapshot=on: the guest never changes the cache.
set -u
. "$(dirname "$0")/lib.sh"

# The kernel build, shared read-only with the guest as pkvkernel (vmlinux for drgn).
KBUILD_DIR=$PKV_CACHE/linux-build
BZIMAGE=$KBUILD_DIR/arch/x86/boot/bzImage
IMAGE=$PKV_CACHE/rootfs.img
# A 32 MiB ring buffer holds the selftest's 100k-record bursts; console
# lines without the field block keep the serial log readable.
PKV_APPEND_DEFAULT="log_buf_len=32M printk.kv_console_plain=1"

# KVM is used only if a short, killed-on-timeout probe boots with it; on these
# machines /dev/kvm exists but guests can hang at "Booting from ROM".
pick_accel() {
	if [ -n "${PKV_ACCEL:-}" ]; then
		echo "$PKV_ACCEL"
		return
	fi
	local key cache=$PKV_CACHE/accel
	key="$(uname -r) $(qemu-system-x86_64 --version | head -1)"
	if [ -f "$cache" ] && [ "$(head -1 "$cache")" = "$key" ]; then
		tail -1 "$cache"
		return
	fi
	local accel=tcg log=$PKV_CACHE/kvm-probe.log
	if [ -w /dev/kvm ]; then
		pkv_say "probing KVM (at most 15 s)"
		timeout -k 2 15 qemu-system-x86_64 -accel kvm -m 256 -display none \
			-no-reboot -serial "file:$log" -kernel "$BZIMAGE" \
			-append "console=ttyS0 panic=-1 root=/dev/nonexistent" >/dev/null 2>&1 &&
			grep -q 'Linux version' "$log" && accel=kvm
	fi
	printf '%s\n%s\n' "$key" "$accel" >"$cache"
	pkv_say "accelerator: $accel"
	echo "$accel"
}

# What every boot adds to the command line, for time under TCG (measured
# with the guest's journal: about 1 s and 3 s of a 10 s boot):
#   pci=noacpi   the PIIX's PCI interrupt links are not routed through ACPI
#                (each link's AML costs about 0.35 s); the BIOS table does
#   systemd.mask a run boot (./pkv run, try, the test suite) has no udev:
#                its coldplug of every device races the first script for the
#                CPUs, and no scenario needs it (devtmpfs makes the nodes,
#                modules are loaded by name). PKV_GUEST_UDEV=1 keeps it, for
#                a module or script that needs modalias loading or rules.
GUEST_BOOT_ARGS="pci=noacpi"
GUEST_RUN_ARGS=
if [ "${PKV_GUEST_UDEV:-0}" != 1 ]; then
	for unit in systemd-udevd.service systemd-udev-trigger.service \
		systemd-udevd-kernel.socket systemd-udevd-control.socket; do
		GUEST_RUN_ARGS+=" systemd.mask=$unit"
	done
fi

qemu_cmd() {
	local in=$1 out=$2 mode=$3 append=$4 accel args=$GUEST_BOOT_ARGS
	accel=$(pick_accel)
	[ "$mode" = run ] && args+=$GUEST_RUN_ARGS
	QEMU=(qemu-system-x86_64 -accel "$accel" -m "${PKV_GUEST_MEM:-1024}" -smp "${PKV_GUEST_CPUS:-2}"
		-no-reboot -kernel "$BZIMAGE"
		-drive "file=$IMAGE,format=raw,if=virtio,snapshot=on"
		-virtfs "local,path=$in,mount_tag=pkvin,security_model=none,readonly=on,id=pkvin"
		-virtfs "local,path=$out,mount_tag=pkvout,security_model=none,id=pkvout"
		-virtfs "local,path=$KBUILD_DIR,mount_tag=pkvkernel,security_model=none,readonly=on,id=pkvkernel"
		-append "console=ttyS0 root=/dev/vda rw panic=-1 init=/lib/systemd/systemd systemd.show_status=0 pkv.mode=$mode $args $append")
}

# Where the guest can find what the host knows about the build.
write_env() {
	local in=$1
	{
		printf 'PKV_KERNEL_RELEASE=%s\n' "$(cat "$PKV_CACHE/linux-build/.pkv-release" 2>/dev/null)"
		printf 'PKV_KERNEL_BUILD_HOST=%s\n' "$(cat "$PKV_CACHE/linux-build/.pkv-build-host" 2>/dev/null)"
		# Settings for guest scripts (./pkv bench) pass through.
		env | grep '^PKV_BENCH_[A-Z_]*=' || true
	} >"$in/env"
}

# Why a guest may be late: the limits assume TCG on an otherwise idle host,
# so say how much CPU QEMU got in the wall time and how busy the host was.
host_load_report() {
	local pid=$1 wall=$2 ticks load
	ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || return 0
	read -r load _ </proc/loadavg
	pkv_say "qemu had $((ticks / $(getconf CLK_TCK)))s of CPU in ${wall}s; host load average $load on $(nproc) CPU(s)"
	if awk -v l="$load" -v n="$(nproc)" 'BEGIN { exit !(l > n) }'; then
		pkv_say "the host is busy: guest time limits assume an otherwise idle machine (PKV_BOOT_TIMEOUT=SECS raises the limit)"
	fi
}

boot_run() {
	local out="" timeout=${PKV_BOOT_TIMEOUT:-600} append=$PKV_APPEND_DEFAULT kv="" share="" scripts=()
	while [ $# -gt 0 ]; do
		case "$1" in
		--out) out=$2; shift 2 ;;
		--share) share=$2; shift 2 ;;
		--timeout) timeout=$2; shift 2 ;;
		--append) append=$2; shift 2 ;;
		--kv) pkv_kv_check "${2:-}"; kv=" printk.kv=$2"; shift 2 ;;
		-*) pkv_die "run: unknown option $1" ;;
		*) scripts+=("$1"); shift ;;
		esac
	done
	[ ${#scripts[@]} -gt 0 ] || pkv_die "run: no script given (usage: pkv run [--out DIR] SCRIPT...)"
	local work s i=0
	work=$(mktemp -d "${TMPDIR:-/tmp}/pkv-run.XXXXXX")
	mkdir -p "$work/in/scripts" "$work/in/lib" "$work/out"
	for s in "${scripts[@]}"; do
		[ -f "$s" ] || pkv_die "run: $s: no such script"
		i=$((i + 1))
		cp "$s" "$work/in/scripts/$(printf '%03d' $i)-$(basename "$s")"
	done
	cp -r "$PKV_TOP/tests/guest/lib/." "$work/in/lib/" 2>/dev/null
	[ -d "$PKV_TOP/tests/data" ] && cp -r "$PKV_TOP/tests/data" "$work/in/data"
	# The series' kselftest wrapper and the helper it calls, in their
	# tree's layout (tests/guest/kselftest.sh runs them).
	local ksft=$PKV_CACHE/linux-src/tools/testing/selftests
	if [ -f "$ksft/lib/printk_kv.sh" ]; then
		mkdir -p "$work/in/selftests/lib" "$work/in/selftests/kselftest"
		cp "$ksft/lib/printk_kv.sh" "$work/in/selftests/lib/"
		cp "$ksft/kselftest/module.sh" "$work/in/selftests/kselftest/"
	fi
	if [ -n "$share" ]; then
		[ -d "$share" ] || pkv_die "run: --share $share: not a directory"
		cp -r "$share" "$work/in/share" || pkv_die "run: copying $share into the guest's share failed"
	fi
	echo $((timeout - 30 > 30 ? timeout - 30 : 30)) >"$work/in/script-timeout"
	write_env "$work/in"
	qemu_cmd "$work/in" "$work/out" run "$append$kv"
	local log=$work/console.log
	"${QEMU[@]}" -display none -monitor none -serial "file:$log" </dev/null >"$work/qemu.out" 2>&1 &
	local qpid=$! t0 done_n=0 n elapsed timed_out=""
	t0=$(date +%s)
	while kill -0 $qpid 2>/dev/null; do
		elapsed=$(($(date +%s) - t0))
		n=$(find "$work/out/results" -name '*.rc' 2>/dev/null | wc -l)
		if [ "$n" -gt "$done_n" ]; then
			done_n=$n
			pkv_say "guest: $done_n/${#scripts[@]} script(s) done (${elapsed}s)"
		fi
		if [ "$elapsed" -ge "$timeout" ]; then
			host_load_report $qpid "$elapsed"
			kill $qpid 2>/dev/null
			sleep 1
			kill -9 $qpid 2>/dev/null
			timed_out=1
			break
		fi
		sleep 0.5
	done
	wait $qpid
	local qrc=$? rc=0
	[ -n "$timed_out" ] || pkv_say "guest exited after $(($(date +%s) - t0))s"
	# The scripts that finished keep their results, even when the guest did not.
	for s in "$work/in/scripts/"*; do
		local name src r
		name=$(basename "$s")
		src=${name#???-}
		r=$(cat "$work/out/results/$name.rc" 2>/dev/null || echo "not run")
		printf '=== %s: exit %s (%s ms)\n' "$src" "$r" "$(cat "$work/out/results/$name.ms" 2>/dev/null || echo ?)"
		[ -s "$work/out/results/$name.out" ] && cat "$work/out/results/$name.out"
		if [ -s "$work/out/results/$name.err" ]; then
			sed 's/^/stderr: /' "$work/out/results/$name.err"
		fi
		[ "$r" = 0 ] || rc=1
		if [ -n "$out" ]; then
			mkdir -p "$out/$src"
			cp -r "$work/out/files/$name/." "$out/$src/" 2>/dev/null
			cp "$work/out/results/$name.out" "$out/$src.stdout" 2>/dev/null
			cp "$work/out/results/$name.err" "$out/$src.stderr" 2>/dev/null
			cp "$work/out/results/$name.rc" "$out/$src.rc" 2>/dev/null
		fi
	done
	[ -n "$out" ] && cp "$log" "$out/console.log"
	if [ -n "$timed_out" ] || [ ! -f "$work/out/results/.complete" ]; then
		printf '\npkv: last console lines:\n' >&2
		tail -n 30 "$log" | sed 's/^/  | /' >&2
		oops_report "$log"
		[ -s "$work/qemu.out" ] && { printf 'pkv: qemu said:\n' >&2; sed 's/^/  | /' "$work/qemu.out" >&2; }
		keep_log "$work"
		[ -n "$timed_out" ] && pkv_die "guest did not finish within ${timeout}s (console log above)"
		pkv_die "guest stopped before running every script (qemu exit $qrc)"
	fi
	rm -rf "$work"
	return $rc
}

# oops_report CONSOLE.LOG: the first kernel oops, panic or warning, and the
# script that had started last before it.
oops_report() {
	local what
	what=$(tr -d '\r' <"$1" | awk '
		/pkv-runner: start / { s = $0; sub(/.*pkv-runner: start [0-9]*-/, "", s); running = s }
		/BUG: |Oops: |general protection fault|Kernel panic|WARNING: CPU: / {
			# Without the "[time][caller] " brackets.
			line = $0
			while (substr(line, 1, 1) == "[" && (i = index(line, "]")))
				line = substr(line, i + 1)
			sub(/^ +/, "", line)
			printf "%s (while %s was running)\n", line, running ? running : "no script"
			exit
		}')
	[ -n "$what" ] && pkv_say "kernel: $what"
	return 0
}

# keep_log WORK: the console log of a failed boot, under a name of its own
# (the next failed boot must not overwrite it); the 20 newest are kept.
keep_log() {
	local dir=$PKV_CACHE/logs name
	name=console-$(date +%Y%m%d-%H%M%S)-$$.log
	mkdir -p "$dir"
	cp "$1/console.log" "$dir/$name" 2>/dev/null &&
		pkv_say "console log kept at $dir/$name"
	ls -1t "$dir"/console-*.log 2>/dev/null | tail -n +21 | xargs -r rm -f
	rm -rf "$1"
}

boot_shell() {
	local append=$PKV_APPEND_DEFAULT kv="" share=$PKV_CACHE/shell
	while [ $# -gt 0 ]; do
		case "$1" in
		--append) append=$2; shift 2 ;;
		--kv) pkv_kv_check "${2:-}"; kv=" printk.kv=$2"; shift 2 ;;
		--share) share=${2:-}; shift 2 ;;
		*) pkv_die "shell: unknown argument $1" ;;
		esac
	done
	mkdir -p "$share" 2>/dev/null
	[ -d "$share" ] && [ -w "$share" ] || pkv_die "shell: --share $share: not a writable directory"
	share=$(cd "$share" && pwd)
	local work rows=24 cols=80 size term=${TERM:-dumb}
	work=$(mktemp -d "${TMPDIR:-/tmp}/pkv-shell.XXXXXX")
	mkdir -p "$work/in/lib"
	cp -r "$PKV_TOP/tests/guest/lib/." "$work/in/lib/" 2>/dev/null
	write_env "$work/in"
	# A serial console has no size of its own: the guest's tty gets the host
	# terminal's, and the host's TERM where the guest knows it.
	size=$(stty size </dev/tty 2>/dev/null)
	[[ $size =~ ^[1-9][0-9]*\ [1-9][0-9]*$ ]] && read -r rows cols <<<"$size"
	[[ $term =~ ^[A-Za-z0-9._+-]+$ ]] || term=dumb
	cat >"$work/in/shellrc" <<-EOF
		[ -f /etc/profile ] && . /etc/profile
		[ -f ~/.bashrc ] && . ~/.bashrc
		stty rows $rows cols $cols 2>/dev/null
		export TERM=vt220
		infocmp $term >/dev/null 2>&1 && TERM=$term
		cd /root
		echo pkv: /pkv/share is $(printf '%q' "$share") "on the host (read-write); 'exit' shuts the guest down"
		echo "pkv: after resizing the host's window: stty rows R cols C (the host's: stty size)"
	EOF
	qemu_cmd "$work/in" "$share" shell "$append$kv"
	pkv_say "root shell on the guest's serial console; $share is /pkv/share there; 'exit' shuts the guest down (Ctrl-A X kills QEMU)"
	"${QEMU[@]}" -nographic
	rm -rf "$work"
}

[ -f "$BZIMAGE" ] || pkv_die "$BZIMAGE: no kernel; build it first (./pkv build)"
[ -f "$IMAGE" ] || pkv_die "$IMAGE: no guest image; build it first (./pkv build)"
case "${1:-}" in
run) shift; boot_run "$@" ;;
shell) shift; boot_shell "$@" ;;
*) pkv_die "boot.sh: usage: boot.sh run [--out DIR] SCRIPT... | boot.sh shell" ;;
esac
