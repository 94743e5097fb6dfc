# shellcheck shell=bash
# Assertions for guest scenarios: jq over kmsg2json or journalctl output,
# reported as KTAP version 1 (Documentation/dev-tools/ktap.rst): a version
# line when sourced, "ok N DESC" or "not ok N DESC" per check with "#"
# diagnostic lines before it, and the plan "1..N" from finish, since a
# scenario's loops and branches make N known only at its end.
#
#   . "$PKV_IN/lib/assert.sh"
#   kmsg_capture [ARGS]        records now in /dev/kmsg -> $KMSG (JSON lines),
#                              kmsg2json ARGS; its non-zero exit fails a check
#   check DESC SELECT EXPR [jq args...]
#       jq -s over the records of $KMSG that match SELECT; passes when EXPR
#       is true; on failure prints the expression and the records it looked at
#   check_file FILE DESC SELECT EXPR [jq args...]   the same over FILE
#   check_equal DESC GOT WANT  passes when the two strings are equal (for
#                              summaries too large for jq -s)
#   pass DESC                  a check that passed without jq (a shell test)
#   fail DESC                  a failed check that is not a jq expression (a
#                              set-up step that did not do what it should)
#   bail DESC                  fail DESC, then finish: a set-up step the
#                              remaining checks need did not work
#   start_seq                  seq of the runner's start record of this
#                              scenario in $KMSG (-1 if none)
#   finish                     summary and plan; exit status 1 if a check failed
# The boot's printk.kv= encoding. Under dict a record's text has no block:
# pfx and body give the prefix (up to the first ": ") and the message after
# it, as .prefix and .msg do under text, so that one assertion holds under
# both; .text is what each encoding stores. human is what a person reads:
# the text without the block (dmesg under dict and off, console_plain under
# text), which the driver scenarios compare with the unconverted kernel's.
PKV_KV=$(cat /sys/module/printk/parameters/kv 2>/dev/null || echo none)
PKV_JQ_DEFS='def pfx: if .kv == "dict" then ((.text | capture("^(?<p>[^:]*: )") | .p) // "") else .prefix end;
def body: if .kv == "dict" then (.msg | sub("^[^:]*: "; "")) else .msg end;
def human: if .kv == "text" then .prefix + .msg else .text end;'
PKV_SCENARIO=$(basename "${0%.sh}")
PKV_SCENARIO=${PKV_SCENARIO#[0-9][0-9][0-9]-}
KMSG=${TMPDIR:-/tmp}/pkv-$PKV_SCENARIO.kmsg.json
pkv_checks=0
pkv_failed=0
echo "KTAP version 1"
echo "# $PKV_SCENARIO: printk.kv=$PKV_KV"

# pkv_result ok|"not ok" DESC: the next test line, DESC on one line and
# without "#", which would start a directive.
pkv_result() {
	local desc=${2//$'\n'/ }
	pkv_checks=$((pkv_checks + 1))
	[ "$1" = ok ] || pkv_failed=$((pkv_failed + 1))
	echo "$1 $pkv_checks ${desc//#/no.}"
}

kmsg_capture() {
	kmsg2json "$@" >"$KMSG"
	local rc=$?
	[ $rc -eq 0 ] || fail "kmsg2json exited $rc (a malformed record in /dev/kmsg?)"
}

check_file() {
	local file=$1 desc=$2 select=$3 expr=$4
	shift 4
	if jq -e -s "$@" "$PKV_JQ_DEFS [.[] | select($select)] | $expr" "$file" >/dev/null 2>"$file.jqerr"; then
		pkv_result ok "$desc"
		return 0
	fi
	echo "# select: $select" | sed '2,$s/^/#   /'
	echo "# expect: $expr" | sed '2,$s/^/#   /'
	[ -s "$file.jqerr" ] && sed 's/^/# jq: /' "$file.jqerr"
	local n
	n=$(jq -s "$@" "$PKV_JQ_DEFS [.[] | select($select)] | length" "$file" 2>/dev/null)
	echo "# records looked at: ${n:-?} (from $file, up to 8 shown)"
	jq -c -s "$@" "$PKV_JQ_DEFS [.[] | select($select)] | .[:8][]" "$file" 2>/dev/null | sed 's/^/#   /'
	pkv_result "not ok" "$desc"
	return 1
}

check() {
	check_file "$KMSG" "$@"
}

pass() {
	pkv_result ok "$*"
}

fail() {
	pkv_result "not ok" "$*"
}

bail() {
	fail "$*"
	echo "# $PKV_SCENARIO: the checks after this set-up step did not run"
	finish
	exit 1
}

check_equal() {
	if [ "$2" = "$3" ]; then
		pkv_result ok "$1"
		return 0
	fi
	printf '%s\n' "got:    $2" | sed 's/^/# /'
	printf '%s\n' "expect: $3" | sed 's/^/# /'
	pkv_result "not ok" "$1"
	return 1
}

# check_encoding SELECT: the selected records are stored as this boot's
# encoding stores them: under text, the block after the prefix and the
# message after the block; under dict, the text without any block.
check_encoding() {
	check "records stored as printk.kv=$PKV_KV stores them" "$1" \
		'length >= 1 and all(. as $r | .kv == $kv and (if .kv == "text"
		   then (.text | startswith($r.prefix + "[kv ")) and (.text | endswith($r.msg))
		   else (.text | contains("[kv ") | not) end))' --arg kv "$PKV_KV"
}

# start_seq: the seq of the runner's record "pkv-runner: start NNN-NAME.sh"
# for this scenario in $KMSG, -1 without one: records after it are this
# scenario's, and the kernel's while it ran.
start_seq() {
	jq -s --arg s "$PKV_SCENARIO" '[.[] | select((.text // "")
		| test("^pkv-runner: start [0-9]+-" + $s + "\\.sh$")) | .seq] | max // -1' "$KMSG"
}

# Every scenario that read the log: no record written since it started (the
# runner's "pkv-runner: start NNN-NAME.sh") has a kv_error, other than the
# one for a block the kernel did not mark, which trust.sh and the selftest's
# hand-built blocks write on purpose. A rejected block leaves a record
# without fields, which no field-selected check looks at.
check_no_kv_error() {
	[ -s "$KMSG" ] || return 0
	local start
	start=$(start_seq)
	check "no record since $PKV_SCENARIO started has a kv_error (but for unmarked blocks)" \
		".seq > $start and has(\"kv_error\")
		 and .kv_error != \"field block not marked by the kernel: not trusted\"" 'length == 0'
}

finish() {
	check_no_kv_error
	echo "# $PKV_SCENARIO (printk.kv=$PKV_KV): $pkv_checks checks, $pkv_failed failed"
	echo "1..$pkv_checks"
	[ "$pkv_failed" -eq 0 ]
}

# journal_query FILE COUNT MATCH...: journalctl -k -o json MATCH... into FILE,
# waiting up to 20 s for journald to have imported at least COUNT entries.
# Under off, the selftest and driver scenarios run for their records only
# (./pkv compare, and ./pkv test's smoke of it): their field queries cannot
# succeed, so they try once.
journal_query() {
	local file=$1 count=$2 i tries=40
	shift 2
	case "$PKV_KV/$PKV_SCENARIO" in off/selftest | off/l2tp | off/ext4 | off/cs89x0 | off/misdn) tries=1 ;; esac
	for i in $(seq $tries); do
		journalctl -k -o json "$@" >"$file" 2>/dev/null
		[ "$(wc -l <"$file")" -ge "$count" ] && return 0
		sleep 0.5
	done
	return 0
}
