#!/usr/bin/env bash
# pkv-lock.sh TOP: one ./pkv at a time per PKV_CACHE (pkv_lock_cache in
# qemu-images/lib.sh). Two ./pkv started together: the second says which
# command holds the cache and waits for it; a ./pkv that the holder runs
# itself does not wait for its parent. On a temporary PKV_CACHE. TAP.
top=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PKV_CACHE=$tmp/cache
unset PKV_CACHE_LOCKED
. "$top/tests/lib/tap.sh"
tap_plan 4

# A holder: the lock for 3 s, as a long ./pkv step would hold it.
(
	. "$top/qemu-images/lib.sh"
	pkv_lock_cache "./pkv test (stand-in)"
	: >"$tmp/held"
	sleep 3
) &
holder=$!
for _ in $(seq 100); do [ -e "$tmp/held" ] && break; sleep 0.1; done
[ -e "$tmp/held" ]
tap_check $? "the first ./pkv takes the lock on an empty PKV_CACHE"

# The real ./pkv, started while it is held: an unknown command, so it
# ends as soon as it has the lock.
t0=$(date +%s.%N)
out=$("$top/pkv" no-such-command 2>&1)
t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
printf '%s\n' "$out" | grep -q "waiting for $PKV_CACHE: ./pkv test (stand-in) (pid [0-9]*, since "
tap_check $? "a second ./pkv says which command holds the cache"
[ -n "$(awk -v t="$t" 'BEGIN { if (t >= 1.5) print "waited" }')" ] &&
	printf '%s\n' "$out" | grep -q "unknown command 'no-such-command'"
rc=$?
tap_check $rc "... waits for it (${t}s), then goes on"
[ $rc -eq 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
wait "$holder"

# Nested: a ./pkv run by the holder goes on at once.
rm -f "$tmp/held"
out=$(
	. "$top/qemu-images/lib.sh"
	pkv_lock_cache "outer"
	t0=$(date +%s.%N)
	timeout 20 "$top/pkv" no-such-command 2>&1
	awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "took %.1f\n", b - a }'
)
! printf '%s\n' "$out" | grep -q "waiting for" && printf '%s\n' "$out" | grep -q "unknown command"
tap_check $? "a ./pkv that the holder runs does not wait for it ($(printf '%s\n' "$out" | tail -1))"
tap_exit
