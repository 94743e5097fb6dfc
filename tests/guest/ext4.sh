# fs/ext4: a loop-mounted image through mount, remount, a bad mount option,
# trigger_fs_error with forged text, an inode corrupted with debugfs and read
# back by a program whose name forges a field block, and umount; on a second
# image, readdir of a corrupted directory whose name forges one too; on a
# third, a block group whose descriptor and bitmap disagree; on a fourth, a
# block freed twice. Every record carries the device, function, line and
# comm; inode, block, errno and path where ext4 knows them; and nothing the
# user wrote becomes a field.
# pkv-time-limit: 150
. "$PKV_IN/lib/assert.sh"
# mkimg IMG [MKFS_OPTION...]: a new 8 MiB ext4 image.
mkimg() {
	local img=$1
	shift
	truncate -s 8M "$img" && mkfs.ext4 -q -F "$@" "$img" || bail "mkfs.ext4 $* $img"
}
img=/tmp/ext4.img
mnt=/mnt/pkv-ext4
mkdir -p "$mnt"
mkimg "$img"
loop=$(losetup -f --show "$img") || bail "losetup"
dev=${loop#/dev/}
mount -o errors=continue "$loop" "$mnt" || bail "mount $loop"
echo victim >"$mnt/victim"
ino=$(stat -c %i "$mnt/victim")
mount -o remount,ro "$mnt"
mount -o remount,rw "$mnt"
mount -o remount,resuid=4294967295 "$mnt" 2>/dev/null && fail "an invalid resuid was accepted"
FORGED='forged] mod=evil subsys=x fsdev="vda" line=1'
printf '%s\n' "$FORGED" >"/sys/fs/ext4/$dev/trigger_fs_error"
umount "$mnt"
# An extent-mapped inode whose extent header has lost its magic.
debugfs -w -R "sif <$ino> block[0] 0" "$img" >/dev/null 2>&1 || fail "debugfs sif"
mount -o errors=continue "$loop" "$mnt" || bail "mount $loop again"
# TASK_COMM_LEN keeps 15 bytes of the name: this one is 11.
COMM=$(printf 'a]b"c=d\te\nf')
cp /bin/cat "/tmp/$COMM"
"/tmp/$COMM" "$mnt/victim" >/dev/null 2>&1 && fail "the corrupted inode was read"
umount "$mnt"
# A second image without dir_index (so readdir is linear and reports through
# ext4_error_file()): a directory whose name forges a field block, its only
# block zeroed. The path field is that name, exactly.
img2=/tmp/ext4-dir.img
mnt2=/mnt/pkv-ext4-dir
mkdir -p "$mnt2"
mkimg "$img2" -b 1024 -O ^dir_index
loop2=$(losetup -f --show "$img2") || bail "losetup $img2"
dev2=${loop2#/dev/}
mount -o errors=continue "$loop2" "$mnt2" || bail "mount $loop2"
DIR=$(printf 'd] ino=1 path="x"\tq\nz')
mkdir "$mnt2/$DIR" && touch "$mnt2/$DIR/f" || fail "mkdir"
dino=$(stat -c %i "$mnt2/$DIR")
umount "$mnt2"
dblk=$(debugfs -R "bmap <$dino> 0" "$img2" 2>/dev/null)
dd if=/dev/zero of="$img2" bs=1024 seek="$dblk" count=1 conv=notrunc status=none || fail "dd"
mount -o errors=continue "$loop2" "$mnt2" || bail "mount $loop2 again"
ls "$mnt2/$DIR" >/dev/null 2>&1
umount "$mnt2"
# A third image whose block group descriptor counts more free blocks than
# its bitmap (more, so that the write is not refused for space first): the
# allocator's first look at the group reports it through
# ext4_grp_locked_error(), which printed in KERN_CONT pieces before the series.
img3=/tmp/ext4-grp.img
mkimg "$img3"
debugfs -w -f - "$img3" >/dev/null 2>&1 <<-EOF || fail "debugfs set_bg"
	set_bg 0 free_blocks_count 8000
	set_bg 0 checksum calc
	EOF
loop3=$(losetup -f --show "$img3") || bail "losetup $img3"
dev3=${loop3#/dev/}
mnt3=/mnt/pkv-ext4-grp
mkdir -p "$mnt3"
mount -o errors=continue "$loop3" "$mnt3" || bail "mount $loop3"
head -c 65536 /dev/zero >"$mnt3/f" 2>/dev/null
sync
umount "$mnt3"
# A fourth image with a file whose data block debugfs marked free: deleting
# the file frees it again, and mb_free_blocks() reports that with the inode
# and the block, the parts ext4_grp_locked_error() formats only when known.
img4=/tmp/ext4-freed.img
mkimg "$img4"
loop4=$(losetup -f --show "$img4") || bail "losetup $img4"
dev4=${loop4#/dev/}
mount -o errors=continue "$loop4" "$mnt3" || bail "mount $loop4"
echo freed >"$mnt3/freed"
fino=$(stat -c %i "$mnt3/freed")
umount "$mnt3"
fblk=$(debugfs -R "bmap <$fino> 0" "$img4" 2>/dev/null)
# freeb changes the bitmap only: the descriptor counts the block too, or
# the allocator reports the disagreement first (the third image's error).
ffree=$(dumpe2fs "$img4" 2>/dev/null | sed -n 's/^ *\([0-9]*\) free blocks, .*/\1/p' | head -1)
[ -n "$ffree" ] || bail "dumpe2fs $img4: no free block count for group 0"
debugfs -w -f - "$img4" >/dev/null 2>&1 <<-EOF || fail "debugfs freeb"
	freeb $fblk
	set_bg 0 free_blocks_count $((ffree + 1))
	set_bg 0 checksum calc
	EOF
# data=writeback: ext4 frees a data block at once, with its inode, where
# ordered mode defers it to the journal commit, which no longer knows it.
mount -o errors=continue,data=writeback "$loop4" "$mnt3" || bail "mount $loop4 again"
rm -f "$mnt3/freed"
sync
umount "$mnt3"
# Detached only now, so that each image has a loop device of its own.
losetup -d "$loop4"
losetup -d "$loop3"
losetup -d "$loop2"
losetup -d "$loop"
kmsg_capture

E=".fields.mod == \"ext4\" and .fields.fsdev == \"$dev\""
K='.fields | keys'
check "every ext4 record of the image: the static fields, device, function, line, comm" "$E" \
	'length >= 6 and all(.structured and .prefix == "" and (human | test("^EXT4-fs[ :]")) and .fields.subsys == "ext4"
	  and (.fields | has("src") | not) and (.fields.func | type) == "string"
	  and (.fields.line | type) == "number" and (.fields.comm | type) == "string")'
check_encoding "$E"
# What a person reads is the unconverted kernel's text: ext4's own words, then the caller's.
check "mount: one record, the mount's comm, info level" "$E and (human | startswith(\"EXT4-fs ($dev): mounted filesystem\"))" \
	'length == 2 and all(.level == 6 and .fields.comm == "mount" and .fields.func == "ext4_fill_super")
	 and ([.[0] | '"$K"'[]] == ["comm", "fsdev", "func", "line", "mod", "subsys"])'
check "remount ro and rw: two records from ext4_reconfigure" "$E and (human | startswith(\"EXT4-fs ($dev): re-mounted\"))" \
	'length == 2 and all(.fields.func == "ext4_reconfigure" and .fields.comm == "mount")'
check "the invalid resuid: an error with no device (ext4 has no superblock at parse time)" \
	'.fields.mod == "ext4" and (human | startswith("EXT4-fs: Invalid uid value"))' \
	'length == 1 and .[0].level == 3 and .[0].fields.func == "ext4_parse_param"
	 and (.[0].fields | has("fsdev") | not) and .[0].fields.comm == "mount"'
check "trigger_fs_error: the written text is the message, never a field" "$E and .fields.func == \"trigger_test_error\"" \
	'length == 1 and .[0].level == 2 and (.[0] | human == "EXT4-fs error (device \($dev)): trigger_test_error:\(.fields.line): comm bash: \($forged)")
	 and ([.[0] | '"$K"'[]] == ["comm", "fsdev", "func", "line", "mod", "subsys"])
	 and .[0].fields.subsys == "ext4" and .[0].fields.comm == "bash"' --arg forged "$FORGED" --arg dev "$dev"
check "the corrupted inode: inode, errno and the reader's hostile comm, exactly" "$E and has(\"fields\") and .fields.ino == $ino" \
	'length == 1 and .[0].level == 2 and .[0].fields.comm == $comm
	 and .[0].fields.err == "-EUCLEAN" and .[0].fields.func == "ext4_ext_check_inode"
	 and ([.[0] | '"$K"'[]] == ["comm", "err", "fsdev", "func", "ino", "line", "mod", "subsys"])
	 and (.[0] as $r | $r | human | startswith("EXT4-fs error (device \($dev)): ext4_ext_check_inode:\($r.fields.line): inode #\($ino): comm \($comm): pblk 0 bad header/extent: invalid magic"))' \
	--arg comm "$COMM" --arg dev "$dev" --argjson ino "$ino"
check "umount: one record per unmount" "$E and human == \"EXT4-fs ($dev): unmounting filesystem.\"" \
	'length == 2 and all(.fields.comm == "umount")'
check "no record of the image has a key its writer chose" "$E" \
	'all(.fields | keys - ["comm", "err", "fsdev", "func", "ino", "line", "mod", "subsys"] | length == 0)'
check "readdir of the zeroed directory: its path exactly, as a field, no forged key" \
	".fields.mod == \"ext4\" and .fields.fsdev == \"$dev2\" and .level == 2" \
	'length >= 1 and all(.fields.path == $path and .fields.ino == $dino and .fields.comm == "ls"
	  and (.fields.func == "ext4_readdir" or .fields.func == "__ext4_check_dir_entry")
	  and (.fields | keys - ["block", "comm", "fsdev", "func", "ino", "line", "mod", "path", "subsys"] | length == 0)
	  and (. as $r | human | startswith("EXT4-fs error (device \($dev2)): \($r.fields.func):\($r.fields.line): inode #\($dino): "))
	  and (human | contains("comm ls: path \($path): ")))' \
	--arg path "$mnt2/$DIR" --argjson dino "$dino" --arg dev2 "$dev2"
check "a group whose descriptor disagrees with its bitmap: one whole record, the group as a field" \
	".fields.mod == \"ext4\" and .fields.fsdev == \"$dev3\" and .fields.func == \"ext4_mb_generate_buddy\"" \
	'length == 1 and .[0].level == 2 and .[0].fields.group == 0
	 and (.[0].fields | has("ino") or has("block") | not)
	 and (.[0] as $r | $r | human | test("^EXT4-fs error \\(device \($dev3)\\): ext4_mb_generate_buddy:\($r.fields.line): group 0, block bitmap and bg descriptor inconsistent: [0-9]+ vs 8000 free clusters$"))' \
	--arg dev3 "$dev3"
check "a block freed twice: the inode and block parts of the text and their fields" \
	".fields.mod == \"ext4\" and .fields.fsdev == \"$dev4\" and .fields.func == \"mb_free_blocks\"" \
	'length == 1 and .[0].level == 2 and .[0].fields.group == 0
	 and .[0].fields.ino == $fino and .[0].fields.block == $fblk
	 and (.[0] as $r | $r | human | test("^EXT4-fs error \\(device \($dev4)\\): mb_free_blocks:\($r.fields.line): group 0, inode \($fino): block \($fblk):freeing already freed block \\(bit [0-9]+\\); block bitmap corrupt\\.$"))' \
	--arg dev4 "$dev4" --argjson fino "$fino" --argjson fblk "$fblk"
check "the root filesystem's mount at boot: fsdev=vda" '.fields.mod == "ext4" and .fields.fsdev == "vda"' \
	'any(human | startswith("EXT4-fs (vda): mounted filesystem"))'

J=/tmp/ext4-journal.json
journal_query "$J" 1 _KERNEL_FSDEV="$dev" _KERNEL_INO="$ino"
check_file "$J" "journalctl _KERNEL_FSDEV=$dev _KERNEL_INO=$ino: the corrupted inode's record only" 'true' \
	'length == 1 and .[0]._KERNEL_ERR == "-EUCLEAN" and .[0].PRIORITY == "2"
	 and (.[0]._KERNEL_COMM | if type == "array" then implode else . end) == $comm' --arg comm "$COMM"
n=$(jq -s "[.[] | select($E)] | length" "$KMSG")
journal_query "$J" "$n" _KERNEL_SUBSYS=ext4 _KERNEL_FSDEV="$dev"
check_file "$J" "journalctl _KERNEL_SUBSYS=ext4 _KERNEL_FSDEV=$dev: every record of the image, no other" 'true' \
	'length == $n and all(._KERNEL_MOD == "ext4")' --argjson n "$n"
journal_query "$J" 1 _KERNEL_FSDEV="$dev" _KERNEL_FUNC=trigger_test_error
check_file "$J" "journalctl _KERNEL_FUNC=trigger_test_error: the block's _KERNEL_ fields, no forged one" 'true' \
	'length == 1 and ([.[0] | keys[] | select(startswith("_KERNEL_"))] ==
	 ["_KERNEL_COMM", "_KERNEL_FSDEV", "_KERNEL_FUNC", "_KERNEL_LINE", "_KERNEL_MOD", "_KERNEL_PRINTK_KV",
	  "_KERNEL_SUBSYS"])
	 and .[0]._KERNEL_MOD == "ext4" and .[0]._KERNEL_FSDEV == $dev and .[0]._KERNEL_LINE != "1"' --arg dev "$dev"
journal_query "$J" 1 _KERNEL_FSDEV="$dev2" _KERNEL_INO="$dino" PRIORITY=2
check_file "$J" "journalctl _KERNEL_FSDEV=$dev2 _KERNEL_INO=$dino: _KERNEL_PATH is the directory's path" 'true' \
	'length >= 1 and all((._KERNEL_PATH | if type == "array" then implode else . end) == $path)' --arg path "$mnt2/$DIR"
finish
