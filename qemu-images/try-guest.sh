#!/bin/bash
# The guest half of ./pkv try (qemu-images/try.sh): load the developer's
# modules from $PKV_IN/share, run their script, unload them, and print the
# kernel records logged in between three ways: as kmsg2json's JSON, as the
# journal fields journald stored, and as the dmesg lines a person reads.
#
# $PKV_IN/share holds modules/*.ko, "order" (module names, load order),
# "args" (parameters of the last module, one per line), "unmarked" when the
# modules were built against the pristine tree, and "script" if given.
# Exit status: 0, or 1 when a module failed to load or unload, the script
# failed, or the kernel oopsed, warned or hit a BUG while they ran.
set -u
share=$PKV_IN/share
rel=$(uname -r)
dest=/lib/modules/$rel/extra/pkv-try
# The image is a snapshot: installing here changes nothing on the host.
mkdir -p "$dest"
cp "$share"/modules/*.ko "$dest/"
depmod -a || { echo "pkv try: depmod failed in the guest"; exit 1; }
mapfile -t order <"$share/order"
mapfile -t args <"$share/args"
status=0
last=$((${#order[@]} - 1))

# Markers: user-space records, so that the window is found in /dev/kmsg,
# in dmesg and in the journal alike (their facility is user, not kernel).
# No "word: " in front: journald would take it for a syslog identifier.
echo "pkv-try begin" >/dev/kmsg
for i in "${!order[@]}"; do
	m=${order[$i]}
	if [ "$i" -eq "$last" ]; then
		modprobe "$m" "${args[@]}" 2>/tmp/modprobe.err
	else
		modprobe "$m" 2>/tmp/modprobe.err
	fi
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "pkv try: modprobe $m failed (exit $rc):"
		sed 's/^/  /' /tmp/modprobe.err
		status=1
	fi
done
if [ -f "$share/script" ] && [ $status -eq 0 ]; then
	echo "== your script (--script), stdout and stderr"
	bash "$share/script" 2>&1
	rc=$?
	[ $rc -eq 0 ] || { echo "pkv try: the script exited $rc"; status=1; }
fi
for ((i = last; i >= 0; i--)); do
	m=${order[$i]}
	grep -q "^${m//-/_} " /proc/modules || continue
	if ! rmmod "$m" 2>/tmp/rmmod.err; then
		echo "pkv try: rmmod $m failed:"
		sed 's/^/  /' /tmp/rmmod.err
		status=1
	fi
done
echo "pkv-try end" >/dev/kmsg

# The window: the kernel's records (facility 0) between the two markers.
unmarked=()
[ -f "$share/unmarked" ] && unmarked=(--unmarked)
kmsg2json "${unmarked[@]}" >/tmp/all.json
krc=$?
jq -c 'select(.facility != 0 and (.text == "pkv-try begin" or .text == "pkv-try end"))
	| .seq' /tmp/all.json >/tmp/marks
begin=$(sed -n 1p /tmp/marks)
end=$(sed -n 2p /tmp/marks)
if [ -z "$begin" ] || [ -z "$end" ]; then
	echo "pkv try: the begin and end markers are not both in /dev/kmsg (ring buffer overrun?)"
	exit 1
fi
jq -c --argjson b "$begin" --argjson e "$end" \
	'select(.seq > $b and .seq < $e and .facility == 0)' /tmp/all.json >/tmp/window.json
n=$(wc -l </tmp/window.json)
echo "== kmsg2json${unmarked:+ --unmarked}: $n kernel record(s) from modprobe to rmmod"
cat /tmp/window.json
[ $krc -eq 0 ] || echo "pkv try: kmsg2json exited $krc (a malformed record in /dev/kmsg?)"

# journald reads /dev/kmsg on its own: wait until it has the end marker.
echo "== journalctl -k -o json: MESSAGE, PRIORITY and the _KERNEL_* fields"
for _ in $(seq 40); do
	journalctl -k -o json >/tmp/journal.json 2>/dev/null
	jq -e -s 'any(.MESSAGE == "pkv-try end")' /tmp/journal.json >/dev/null && break
	sleep 0.25
done
jq -c -S -s '(map(.MESSAGE) | index("pkv-try begin")) as $b | (map(.MESSAGE) | index("pkv-try end")) as $e
	| if $b == null or $e == null then "pkv try: the journal does not have both markers"
	  else .[$b + 1:$e][] | select((.SYSLOG_FACILITY // "0") == "0")
	    | {MESSAGE, PRIORITY} + with_entries(select(.key | startswith("_KERNEL_"))) end' \
	/tmp/journal.json

echo "== dmesg"
# dmesg -r keeps the priority, which tells the kernel's lines (0-7) from
# the markers'; without it, each line is what dmesg prints.
dmesg -r | awk '/^<[0-9]+>/ && index($0, "] pkv-try begin") { on = 1; next }
	/^<[0-9]+>/ && index($0, "] pkv-try end") { on = 0 }
	on && match($0, /^<[0-7]>/) { print substr($0, RLENGTH + 1) }'

# What a developer must not miss: the kernel's own reports of a bug.
if jq -e -s 'any(.text | test("^(BUG: |Oops: |general protection fault|WARNING: CPU: |Kernel panic)"))' \
	/tmp/window.json >/dev/null; then
	echo "pkv try: the kernel reported a bug while the module was loaded:"
	jq -r '.text' /tmp/window.json | grep -E -A 12 '^(BUG: |Oops: |general protection fault|WARNING: CPU: )' |
		head -40 | sed 's/^/  /'
	status=1
fi
exit $status
