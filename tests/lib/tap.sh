# shellcheck shell=sh
# TAP 13 for the host test scripts (meson's protocol: 'tap'):
#   tap_plan N         the version line and the plan
#   tap_check RC DESC  "ok K - DESC" when RC is 0, else "not ok K - DESC";
#                      returns RC, for a diagnostic after a failure
#   tap_exit           exit 1 if any check failed
tap_n=0
tap_failed=0
tap_plan() {
	echo "TAP version 13"
	echo "1..$1"
}
tap_check() {
	tap_n=$((tap_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
	return "$1"
}
tap_exit() {
	exit $((tap_failed > 0))
}
