#!/bin/sh
# valgrind.sh KMSG2JSON DATA: memcheck on every corpus, zero errors and zero
# leaks (run on the plain build: valgrind and ASan do not mix).
set -u
k2j=$1
data=$2
fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for f in "$data"/*.kmsg; do
	for opts in "" "--pretty --match subsys=selftest"; do
		valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all \
			--show-leak-kinds=all "$k2j" $opts "$f" >/dev/null 2>"$log"
		rc=$?
		if [ $rc -eq 99 ] || [ -s "$log" ]; then
			echo "FAIL valgrind on kmsg2json $opts $(basename "$f") (exit $rc):"
			head -20 "$log"
			fail=1
		else
			echo "ok   valgrind: kmsg2json $opts $(basename "$f"): no error, no leak"
		fi
	done
done
exit $fail
