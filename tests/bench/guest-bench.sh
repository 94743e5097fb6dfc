# Guest half of ./pkv bench (boot: log_buf_len=32M loglevel=3, a quiet console).
# PKV_BENCH_BURST records per CPU fill the buffer for the drain; the kernel
# cost is PKV_BENCH_KERNEL records per variant; PKV_BENCH_REPS repetitions.
. "$PKV_IN/env"
run=/sys/kernel/debug/test_printk_kv/run
reps=${PKV_BENCH_REPS:-5}
ms() { echo $((($(date +%s%N) - $1) / 1000000)); }
modprobe test_printk_kv || exit 1

# Kernel cost: ns per record, structured against plain, alternating.
for i in $(seq "$reps"); do
	echo "bench ${PKV_BENCH_KERNEL:-100000}" >"$run"
done
kmsg2json --match test=bench --match prefix=test_printk_kv >"$PKV_OUT/kernel.json"
# Text lengths of one record of each kind, for the bytes-per-record table.
kmsg2json | jq -c 'select(.msg == "bench" or (.text | test("^test_printk_kv: bench a=")))
	| {kv: .structured, len: (.text | utf8bytelength),
	   n: (if .structured then (.fields | length) - 3 else ([.text | scan("=")] | length) end)}' |
	jq -s -c 'unique_by([.kv, .n])' >"$PKV_OUT/lengths.json"

# Fill the buffer from every CPU, let journald import it, then drain it.
echo "burst ${PKV_BENCH_BURST:-50000}" >"$run"
want=$(( $(nproc) * ${PKV_BENCH_BURST:-50000} ))
for i in $(seq 120); do
	n=$(journalctl -k -o cat _KERNEL_TEST=burst 2>/dev/null | wc -l)
	[ "$n" -ge "$want" ] && break
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
printf '{"records": %s, "journal_entries": %s, "burst_in_journal": %s}\n' \
	"$records" "$jrecords" "${n:-0}" >"$PKV_OUT/drain.json"
# The buffer itself, for the file replay on the host.
dd if=/dev/kmsg iflag=nonblock bs=8192 of="$PKV_OUT/buffer.kmsg" 2>/dev/null
echo "drain: $records records; $(cat "$PKV_OUT/drain.tsv" | tr '\n' ' ')"
