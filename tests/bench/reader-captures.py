#!/usr/bin/env python3
"""reader-captures.py DATA OUT MIB: the reader's two benchmark inputs, made
from records committed in DATA (tests/data), each repeated to MIB MiB with
its sequence numbers running on (no gap, no new boot):

  OUT/structured.kmsg  burst_mixed records of the selftest (text encoding:
                       a field block in the text, and its dictionary lines),
                       rebuilt in /dev/kmsg's format from burst-mixed.kmsg.json
  OUT/plain.kmsg       the unstructured records of a guest boot, as read
                       from /dev/kmsg (guest-boot.kmsg)
"""
import json
import os
import sys

data, out, mib = sys.argv[1], sys.argv[2], int(sys.argv[3])


def escape(b, dict_value=False):
    """/dev/kmsg's escaping: bytes below space (newline in the text too) and
    from 0x7f up, and the backslash, as \\xNN."""
    o = bytearray()
    for c in b:
        if c < 0x20 or c >= 0x7f or c == 0x5c:
            o += b"\\x%02x" % c
        else:
            o.append(c)
    return bytes(o)


def as_bytes(v):
    return bytes(v) if isinstance(v, list) else v.encode()


def structured():
    recs = []
    with open(os.path.join(data, "burst-mixed.kmsg.json")) as f:
        for line in f:
            r = json.loads(line)
            head = "%d,%%d,%d,%s" % (r["facility"] * 8 + r["level"], r["ts_usec"],
                                     "c" if r["cont"] else "-")
            if "caller" in r:
                head += ",caller=" + r["caller"]
            body = b";" + escape(as_bytes(r["text"])) + b"\n"
            for k, v in r["dict"].items():
                for one in (v if isinstance(v, list) and v and isinstance(v[0], str) else [v]):
                    body += b" " + k.encode() + b"=" + escape(as_bytes(one)) + b"\n"
            recs.append((head, body))
    return recs


def plain():
    recs = []
    with open(os.path.join(data, "guest-boot.kmsg"), "rb") as f:
        raw = f.read()
    # A record ends at a newline not followed by a space (dictionary lines).
    lines = raw.split(b"\n")
    cur = []
    for ln in lines:
        if ln.startswith(b" ") and cur:
            cur.append(ln)
            continue
        if cur:
            recs.append(cur)
        cur = [ln] if ln else []
    if cur:
        recs.append(cur)
    outr = []
    for r in recs:
        if b"[kv " in r[0]:
            continue
        head, _, text = r[0].partition(b";")
        f = head.decode().split(",")
        head = ",".join([f[0], "%d"] + f[2:])
        outr.append((head, b";" + text + b"\n" + b"".join(x + b"\n" for x in r[1:])))
    return outr


for name, recs in (("structured", structured()), ("plain", plain())):
    seq = 0
    size = 0
    with open(os.path.join(out, name + ".kmsg"), "wb") as f:
        while size < mib << 20:
            for head, body in recs:
                b = (head % seq).encode() + body
                f.write(b)
                size += len(b)
                seq += 1
    print("%s.kmsg: %d records, %d bytes" % (name, seq, size))
