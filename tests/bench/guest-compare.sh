# Guest half of ./pkv compare, run last in a boot that ran the selftest and
# the driver scenarios (./pkv compare's boots, and ./pkv test's, where it
# runs at tiny sizes). Writes to $PKV_OUT:
#   records.json  the records from the runner's start of selftest.sh to its
#                 end of misdn.sh, with the ring-buffer bytes of each
#                 (lib/ringbuf_records.py)
#   uname         uname -a of the kernel measured
#   bench.tsv     PKV_BENCH_REPS runs of test_printk_kv's bench, a line per
#                 run and field count: run, fields, plain ns, kv ns
#   bench-records.json  one record of each bench kind (values 0), with its bytes
#   bench.json    the bench's sizes: records per kind and run, runs
# No pkv-time-limit line: its run time follows the sizes ./pkv compare
# gives it, so the boot's limit is its own.
. "$PKV_IN/env"
run=/sys/kernel/debug/test_printk_kv/run
reps=${PKV_BENCH_REPS:-7}
n=${PKV_BENCH_KERNEL:-20000}
kdir=/run/pkv-kernel
mkdir -p "$kdir"
mountpoint -q "$kdir" ||
	mount -t 9p -o trans=virtio,version=9p2000.L,ro pkvkernel "$kdir" ||
	{ echo "FAIL cannot mount the build's share pkvkernel"; exit 1; }
modprobe test_printk_kv || { echo "FAIL modprobe test_printk_kv"; exit 1; }
uname -a >"$PKV_OUT/uname"
printf '{"bench_records": %d, "bench_runs": %d}\n' "$n" "$reps" >"$PKV_OUT/bench.json"
python3 "$PKV_IN/lib/ringbuf_records.py" "$kdir/vmlinux" 'pkv-runner: start [0-9]+-selftest\.sh$' \
	'pkv-runner: end [0-9]+-misdn\.sh ' "$PKV_OUT/records.json" ||
	{ echo "FAIL ringbuf_records.py (scenario records)"; exit 1; }
echo "records: $(($(wc -l <"$PKV_OUT/records.json") - 1)), $(head -n 1 "$PKV_OUT/records.json")"

# One record of each bench kind (the first of a run: values 0).
echo "pkv-compare: bench records" >/dev/kmsg
echo "bench 1" >"$run" || { echo "FAIL bench 1"; exit 1; }
python3 "$PKV_IN/lib/ringbuf_records.py" "$kdir/vmlinux" '^pkv-compare: bench records$' '' \
	"$PKV_OUT/bench-records.json" || { echo "FAIL ringbuf_records.py (bench records)"; exit 1; }

# ns per record: journald stopped, so that it does not compete with what is
# timed; each run times plain then structured for 1, 4 and 8 fields, and
# prints the results last, in the text (syslog(2) reads them back: it does
# not walk /dev/kmsg's hundreds of thousands of records one read() at a time).
# A first run, not kept, of PKV_BENCH_FILL records per kind fills the 32 MiB
# ring: every timed record then pushes the oldest out, as on a system that
# has run for a while.
systemctl stop systemd-journald.socket systemd-journald-dev-log.socket \
	systemd-journald-audit.socket systemd-journald.service 2>/dev/null
fill=${PKV_BENCH_FILL:-60000}
echo "bench $fill" >"$run" || { echo "FAIL bench $fill (the run that fills the ring)"; exit 1; }
: >"$PKV_OUT/bench.tsv"
for i in $(seq "$reps"); do
	echo "bench $n" >"$run" || { echo "FAIL bench $n"; exit 1; }
	dmesg -S | sed -n 's/.*bench result: \([0-9]*\) fields, plain \([0-9]*\) ns, kv \([0-9]*\) ns$/\1\t\2\t\3/p' |
		tail -n 3 | sed "s/^/$i\t/" >>"$PKV_OUT/bench.tsv"
done
lines=$(wc -l <"$PKV_OUT/bench.tsv")
[ "$lines" -eq $((reps * 3)) ] || { echo "FAIL bench: $lines result lines, want $((reps * 3))"; exit 1; }
echo "bench: $reps runs of $n records per kind"
