#!/usr/bin/env bash
# Guest root filesystem, cached under $PKV_CACHE.
#
#   rootfs.sh base      mmdebstrap bookworm minbase with the guest's packages
#   rootfs.sh image     base + our modules + the reader + the runner -> rootfs.img
#
# The base is rebuilt only when the package list changes; the image only when the
# modules, the reader binaries or the guest/ files change, and then in place
# (debugfs writes the files that changed) when nothing but files changed.
set -u
. "$(dirname "$0")/lib.sh"

BASE_DIR=$PKV_CACHE/rootfs-base
IMAGE=$PKV_CACHE/rootfs.img
GUEST_DIR=$PKV_TOP/qemu-images/guest
MOD_DIR=$PKV_CACHE/linux-modules
READER_BIN=${PKV_READER_BIN:-$PKV_BUILD/userspace-reader}

# Debian packages inside the guest.
# python3-drgn: tests/guest/drgn.sh reads the running kernel's log with it;
# systemd-journal-remote: tests/bench/guest-consumers.sh imports an exported
# journal entry with it, as a fleet's collector would.
GUEST_PACKAGES=systemd,systemd-sysv,udev,kmod,iproute2,e2fsprogs,jq,util-linux,procps,libjansson4,python3-drgn,systemd-journal-remote

rootfs_base() {
	local key
	key=$(printf '%s\n' "$GUEST_PACKAGES" bookworm minbase | sha256sum | cut -c1-16)
	[ -f "$BASE_DIR/.pkv-base" ] && [ "$(cat "$BASE_DIR/.pkv-base")" = "$key" ] && return 0
	rm -rf "$BASE_DIR" "$BASE_DIR.tmp"
	# Without root, mmdebstrap needs a user namespace (its unshare mode):
	# say so before it fails with a message of its own.
	if [ "$(id -u)" -ne 0 ] && ! unshare --user --map-root-user true 2>"$PKV_CACHE/unshare.log"; then
		pkv_die "the guest's root file system is built by mmdebstrap, which needs root, or user namespaces for its unshare mode (unshare --user: $(head -1 "$PKV_CACHE/unshare.log")); run ./pkv as root, or allow unprivileged user namespaces and install uidmap"
	fi
	pkv_say "mmdebstrap bookworm minbase ($GUEST_PACKAGES)"
	mmdebstrap --variant=minbase --include="$GUEST_PACKAGES" \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		bookworm "$BASE_DIR.tmp" >"$PKV_CACHE/mmdebstrap.log" 2>&1 ||
		{ tail -20 "$PKV_CACHE/mmdebstrap.log" >&2; pkv_die "mmdebstrap failed (log: $PKV_CACHE/mmdebstrap.log)"; }
	mv "$BASE_DIR.tmp" "$BASE_DIR"
	echo "$key" >"$BASE_DIR/.pkv-base"
}

# Files of the reader build that go into the guest, one per line.
reader_files() {
	local f
	for f in kmsg2json pkv-udpsend pkv-kmsgraw; do
		[ -x "$READER_BIN/$f" ] && echo "$READER_BIN/$f"
	done
}

# image_files: "SHA256  /DEST<TAB>SOURCE" for every file the image holds
# beyond the base (sorted by DEST), the manifest of an in-place update.
image_files() {
	local f
	{
		(cd "$MOD_DIR" && find lib/modules -type f) | while read -r f; do
			printf '/%s\t%s\n' "$f" "$MOD_DIR/$f"
		done
		for f in $(reader_files); do printf '/usr/local/bin/%s\t%s\n' "${f##*/}" "$f"; done
		printf '/usr/local/sbin/pkv-runner\t%s\n' "$GUEST_DIR/pkv-runner"
		for f in pkv-runner.service pkv-shell.service; do
			printf '/etc/systemd/system/%s\t%s\n' "$f" "$GUEST_DIR/$f"
		done
	} | sort >"$PKV_CACHE/rootfs-files"
	paste -d '\t' <(cut -f2 "$PKV_CACHE/rootfs-files" | xargs -d '\n' sha256sum | cut -c1-64) \
		"$PKV_CACHE/rootfs-files" | sed 's/\t/  /'
	rm -f "$PKV_CACHE/rootfs-files"
}

# image_update_in_place OLD-MANIFEST NEW-MANIFEST: write the files whose
# content changed into the image with debugfs; fails (and the caller builds
# the image anew) when a file is new or gone, which may need a directory.
image_update_in_place() {
	local old=$1 new=$2 cmds=$PKV_CACHE/rootfs-update.debugfs
	[ -f "$IMAGE" ] && [ -s "$old" ] || return 1
	cmp -s <(sed 's/^[0-9a-f]*  //; s/\t.*//' "$old") <(sed 's/^[0-9a-f]*  //; s/\t.*//' "$new") ||
		return 1
	local files mode
	join -t $'\t' <(sed 's/\t.*//' "$old" | awk '{ print $2 "\t" $1 }') \
		<(awk -F'\t' '{ split($1, a, "  "); print a[2] "\t" a[1] "\t" $2 }' "$new") |
		awk -F'\t' '$2 != $3 { print $1 "\t" $4 }' >"$cmds.list"
	[ -s "$cmds.list" ] || return 1
	: >"$cmds"
	while IFS=$'\t' read -r dest f; do
		printf 'rm %s\nwrite %s %s\n' "$dest" "$f" "$dest" >>"$cmds"
	done <"$cmds.list"
	files=$(wc -l <"$cmds.list")
	debugfs -w -f "$cmds" "$IMAGE" >"$cmds.log" 2>&1 || return 1
	# debugfs exits 0 on a failed command: its errors are the lines that
	# are neither the echoed commands nor its banner and inode notes.
	if grep -v '^debugfs\( [0-9.]* (\|: \)\|^Allocated inode: \|^$' "$cmds.log" | grep -q .; then
		pkv_say "warning: in-place update of $IMAGE failed, building it anew:"
		sed 's/^/  /' "$cmds.log" >&2
		return 1
	fi
	pkv_say "guest image: $files file(s) updated in place"
	rm -f "$cmds" "$cmds.list" "$cmds.log"
}

# stage_system STAGE: the runner, and a guest trimmed to what a test boot
# needs. Its text is part of the image key (with rootfs_image's): an edit
# here rebuilds the image.
stage_system() {
	local stage=$1 unit gen
	install -m 0755 "$GUEST_DIR/pkv-runner" "$stage/usr/local/sbin/pkv-runner"
	install -m 0644 "$GUEST_DIR/pkv-runner.service" "$stage/etc/systemd/system/"
	install -m 0644 "$GUEST_DIR/pkv-shell.service" "$stage/etc/systemd/system/"
	ln -sf /etc/systemd/system/pkv-runner.service \
		"$stage/etc/systemd/system/multi-user.target.wants/pkv-runner.service"
	# The console belongs to the runner (or to pkv-shell); no getty fights for it.
	ln -sf /dev/null "$stage/etc/systemd/system/serial-getty@ttyS0.service"
	ln -sf /dev/null "$stage/etc/systemd/system/getty@tty1.service"
	# journal-remote is run by hand (guest-consumers.sh); its services would
	# listen, or upload to nowhere.
	for unit in systemd-journal-remote.socket systemd-journal-remote.service systemd-journal-upload.service; do
		ln -sf /dev/null "$stage/etc/systemd/system/$unit"
	done
	# Every boot is a first boot on a snapshot=on disk, seconds long, under
	# TCG: maintenance timers, gettys on tty2-6 and a random seed that could
	# never be saved only take CPU from the test. The seed service also holds
	# sysinit.target until the kernel's entropy pool is ready.
	for unit in e2scrub_reap.service e2scrub_all.timer fstrim.timer apt-daily.timer \
		apt-daily-upgrade.timer dpkg-db-backup.timer getty-static.service \
		systemd-random-seed.service; do
		ln -sf /dev/null "$stage/etc/systemd/system/$unit"
	done
	# Generators for what this guest has none of: encrypted, integrity or
	# verity volumes, GPT auto-mounts, resume from swap, SysV scripts,
	# rc.local, offline updates. Each costs an exec on every boot.
	mkdir -p "$stage/etc/systemd/system-generators"
	for gen in cryptsetup gpt-auto hibernate-resume integritysetup veritysetup sysv \
		rc-local system-update; do
		ln -sf /dev/null "$stage/etc/systemd/system-generators/systemd-$gen-generator"
	done
	# CONFIG_BASE_SMALL caps pid_max at 32768: systemd's 4194304 fails
	# systemd-sysctl on every boot.
	ln -sf /dev/null "$stage/etc/sysctl.d/50-pid-max.conf"
	echo pkv-guest >"$stage/etc/hostname"
	mkdir -p "$stage/pkv/in" "$stage/pkv/out"
}

rootfs_image() {
	rootfs_base
	[ -d "$MOD_DIR/lib/modules" ] || pkv_die "$MOD_DIR: no modules; build the kernel first (qemu-images/kernel.sh)"
	local key base manifest=$PKV_CACHE/rootfs-manifest.new
	image_files >"$manifest"
	# The base and how an image is made from it (this function and the
	# system it stages): an in-place update needs both unchanged.
	base="$(cat "$BASE_DIR/.pkv-base") $(declare -f rootfs_image stage_system | sha256sum | cut -c1-16)"
	key=$( { echo "$base"; sed 's/\t.*//' "$manifest"; } | sha256sum | cut -c1-16)
	[ -f "$IMAGE" ] && [ "$(cat "$IMAGE.key" 2>/dev/null)" = "$key" ] && { rm -f "$manifest"; return 0; }
	if [ "$(sed -n 1p "$IMAGE.key" 2>/dev/null)" != "" ] &&
		[ "$(cat "$IMAGE.base" 2>/dev/null)" = "$base" ] &&
		image_update_in_place "$IMAGE.manifest" "$manifest"; then
		mv "$manifest" "$IMAGE.manifest"
		echo "$key" >"$IMAGE.key"
		return 0
	fi
	local stage=$PKV_CACHE/rootfs-stage
	rm -rf "$stage"
	# Hard links: the base is never modified, the stage only gets new files.
	cp -al "$BASE_DIR" "$stage" || pkv_die "cannot stage $BASE_DIR"
	rm -f "$stage/.pkv-base"
	cp -a "$MOD_DIR/lib/modules/." "$stage/lib/modules/" 2>/dev/null ||
		{ mkdir -p "$stage/lib/modules" && cp -a "$MOD_DIR/lib/modules/." "$stage/lib/modules/"; }
	local f
	for f in $(reader_files); do
		install -m 0755 "$f" "$stage/usr/local/bin/"
	done
	stage_system "$stage"
	# The module index comes from $MOD_DIR (qemu-images/oot-module.sh runs
	# depmod there), so that an in-place update writes it like any file.
	rm -f "$IMAGE.tmp"
	mke2fs -q -t ext4 -E root_owner=0:0 -L pkvroot -d "$stage" -F "$IMAGE.tmp" 1200M >/dev/null ||
		pkv_die "mke2fs -d $stage failed"
	mv "$IMAGE.tmp" "$IMAGE"
	echo "$key" >"$IMAGE.key"
	echo "$base" >"$IMAGE.base"
	mv "$manifest" "$IMAGE.manifest"
	rm -rf "$stage"
}

mkdir -p "$PKV_CACHE"
case "${1:-image}" in
base) rootfs_base ;;
image) rootfs_image ;;
*) pkv_die "rootfs.sh: unknown command '$1' (base|image)" ;;
esac
