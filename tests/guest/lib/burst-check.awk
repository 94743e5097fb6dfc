# burst-check.awk -v n=N: kmsg2json lines of a selftest burst_mixed run ->
# one summary line. Too many records for jq under TCG (100k take minutes),
# so each line is rebuilt byte for byte from the values it claims (seq,
# time, caller, call site, context, CPU, index) and compared whole: a record
# that is cut, mixed with another or altered anywhere differs. Then each
# source (context and CPU) must count 0..n-1 in order. Records of
# printk.kv=text and dict are both understood.
function val(key,   s) {
	if (!match($0, "\"" key "\":[^,}]*"))
		return "?"
	s = substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 3)
	gsub(/"/, "", s)
	return s
}
BEGIN {
	P = "0123456789abcdef0123456789abcdef"
	M = "burst record with a payload to make interleaving visible"
}
/^\{"gap":/ { gaps++; lost += val("lost"); next }
{
	recs++
	seq = val("seq"); ts = val("ts_usec"); caller = val("caller")
	ctx = val("ctx"); cpu = val("cpu"); i = val("i")
	kv = val("kv")
	F = "mod=test_printk_kv subsys=selftest test=\\\"burst_mixed\\\" ctx=\\\"" ctx \
		"\\\" cpu=" cpu " i=" i " pad=\\\"" P "\\\""
	# printk.kv=text: the block in the text; dict: the text as printed
	# without the header, the fields only in the dictionary.
	if (kv == "text") {
		head = "\"kv\":\"text\",\"prefix\":\"test_printk_kv: \",\"msg\":\"" M "\""
		text = "test_printk_kv: [kv " F "] " M
	} else {
		head = "\"kv\":\"dict\",\"prefix\":\"\",\"msg\":\"test_printk_kv: " M "\""
		text = "test_printk_kv: " M
	}
	want = "{\"seq\":" seq ",\"ts_usec\":" ts ",\"facility\":0,\"level\":6,\"cont\":false,\"caller\":\"" caller \
		"\",\"structured\":true," head ",\"fields\":{\"mod\":\"test_printk_kv\",\"subsys\":\"selftest\",\"test\":\"burst_mixed\"," \
		"\"ctx\":\"" ctx "\",\"cpu\":" cpu ",\"i\":" i ",\"pad\":\"" P \
		"\"},\"dict_agrees\":true,\"dict\":{\"PRINTK_KV\":\"" F "\",\"MOD\":\"test_printk_kv\"," \
		"\"SUBSYS\":\"selftest\",\"TEST\":\"burst_mixed\",\"CTX\":\"" ctx \
		"\",\"CPU\":\"" cpu "\",\"I\":\"" i "\",\"PAD\":\"" P "\"},\"text\":\"" text "\"}"
	# Softirq records carry the CPU as caller (PRINTK_CALLER), threads a pid.
	ok = ($0 == want) && (ctx == "softirq" ? caller == "C" cpu : (ctx == "thread" && caller ~ /^T[0-9]+$/))
	if (!ok) {
		bad++
		if (bad <= 3)
			print "malformed: " $0 > "/dev/stderr"
	}
	key = ctx " " cpu
	if (i != next_i[key] + 0)
		disorder++
	next_i[key] = i + 1
	if (ctx == "softirq")
		soft++
}
END {
	for (k in next_i) {
		srcs++
		if (next_i[k] != n)
			short++
	}
	printf "records %d sources %d softirq %d malformed %d disorder %d short %d gaps %d\n",
		recs, srcs, soft, bad, disorder, short, gaps
}
