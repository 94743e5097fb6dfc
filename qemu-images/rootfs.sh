#!/usr/bin/env bash
# Guest root filesystem, cached under $PKV_CACHE.
#
#   rootfs.sh base      mmdebstrap bookworm minbase with the guest's packages
#   rootfs.sh image     base + our modules + the reader + the runner -> rootfs.img
#
# The base is rebuilt only when the package list changes; the image only when the
# modules, the reader binaries or the guest/ files change.
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

rootfs_image() {
	rootfs_base
	[ -d "$MOD_DIR/lib/modules" ] || pkv_die "$MOD_DIR: no modules; build the kernel first (qemu-images/kernel.sh)"
	local key
	key=$( {
		cat "$BASE_DIR/.pkv-base"
		(cd "$MOD_DIR" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
		(cd "$GUEST_DIR" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
		reader_files | xargs -r sha256sum
	} | sha256sum | cut -c1-16)
	[ -f "$IMAGE" ] && [ "$(cat "$IMAGE.key" 2>/dev/null)" = "$key" ] && return 0
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
	local unit
	for unit in systemd-journal-remote.socket systemd-journal-remote.service systemd-journal-upload.service; do
		ln -sf /dev/null "$stage/etc/systemd/system/$unit"
	done
	echo pkv-guest >"$stage/etc/hostname"
	mkdir -p "$stage/pkv/in" "$stage/pkv/out"
	local depmod_rel
	for depmod_rel in "$stage"/lib/modules/*; do
		[ -d "$depmod_rel" ] && depmod -b "$stage" "$(basename "$depmod_rel")"
	done
	rm -f "$IMAGE.tmp"
	mke2fs -q -t ext4 -E root_owner=0:0 -L pkvroot -d "$stage" -F "$IMAGE.tmp" 1200M >/dev/null ||
		pkv_die "mke2fs -d $stage failed"
	mv "$IMAGE.tmp" "$IMAGE"
	echo "$key" >"$IMAGE.key"
	rm -rf "$stage"
}

mkdir -p "$PKV_CACHE"
case "${1:-image}" in
base) rootfs_base ;;
image) rootfs_image ;;
*) pkv_die "rootfs.sh: unknown command '$1' (base|image)" ;;
esac
