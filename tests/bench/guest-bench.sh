# Guest half of ./pkv bench (boot: log_buf_len=32M loglevel=3, a quiet console).
# PKV_BENCH_BURST records per CPU fill the buffer for the drain, which every
# reader reads PKV_BENCH_REPS times. (The kernel's own cost per record is
# ./pkv compare's: tests/bench/guest-compare.sh.)
. "$PKV_IN/env"
run=/sys/kernel/debug/test_printk_kv/run
reps=${PKV_BENCH_REPS:-5}
ms() { echo $((($(date +%s%N) - $1) / 1000000)); }
modprobe test_printk_kv || exit 1

# Fill the buffer from every CPU, wait until journald has imported the last
# record (the tail of the journal, a cheap query), then drain it.
echo "burst ${PKV_BENCH_BURST:-50000}" >"$run"
last=$(kmsg2json | tail -n 1 | jq .ts_usec)
for i in $(seq 300); do
	[ "$(journalctl -k -n 1 -o json | jq -r ._SOURCE_MONOTONIC_TIMESTAMP)" = "$last" ] && break
	sleep 1
done
records=$(pkv-kmsgraw | cut -d' ' -f1)
jrecords=$(journalctl -k -o json | wc -l)
: >"$PKV_OUT/drain.tsv"
for i in $(seq "$reps"); do
	t=$(date +%s%N); kmsg2json >/dev/null; a=$(ms "$t")
	t=$(date +%s%N); dmesg -J >/dev/null; b=$(ms "$t")
	t=$(date +%s%N); journalctl -k -o json >/dev/null; c=$(ms "$t")
	t=$(date +%s%N); pkv-kmsgraw >/dev/null; d=$(ms "$t")
	printf '%s\t%s\t%s\t%s\n' "$a" "$b" "$c" "$d" >>"$PKV_OUT/drain.tsv"
done
bursts=$(kmsg2json --match test=burst | wc -l)
printf '{"records": %s, "journal_entries": %s, "burst_records": %s, "log_buf": "%s"}\n' "$records" "$jrecords" \
	"$bursts" "$(dmesg | grep -m1 'log buffer data' | sed 's/.*] //')" >"$PKV_OUT/drain.json"
# The buffer itself, for the file replay on the host.
dd if=/dev/kmsg iflag=nonblock bs=8192 of="$PKV_OUT/buffer.kmsg" 2>/dev/null

echo "drain: $records records; $(tr '\n' ' ' <"$PKV_OUT/drain.tsv")"
