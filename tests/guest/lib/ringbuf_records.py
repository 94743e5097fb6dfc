#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The running kernel's records, with the ring-buffer bytes each one took.

usage: ringbuf_records.py VMLINUX FROM UNTIL OUT.json

Reads the records of /dev/kmsg (their text as /dev/kmsg escapes it, and
their dictionary lines) from the first whose text matches the regular
expression FROM up to the first after it that matches UNTIL (or the end,
when UNTIL is empty), both included, and looks
each up in the printk ring buffer with drgn (Debian's python3-drgn, through
/proc/kcore), where its descriptor says which data block it was given.

OUT.json gets one JSON line first, the ring itself:
  {"ring": {data_bytes, descriptors, desc_bytes, info_bytes, id_bytes},
   "skipped": records left out (the selftest's bursts), "lost": see below}
data_bytes and descriptors are this boot's rings; desc_bytes and info_bytes
the sizes of struct prb_desc and struct printk_info, from the DWARF of
VMLINUX; id_bytes the id in front of every data block. Then one line per
record:
  {seq, facility, level, flags (printk_info's), text (escaped as /dev/kmsg
   shows it), text_len (printk_info's: bytes of text), dict (the lines,
   without their leading space), block (bytes of its data block: next -
   begin, id and alignment included; 0 for a record without data),
   wrapped (the block went round the end of the ring: block is then the
   block alone, without the space skipped at the end)}

A record the ring no longer holds, or whose descriptor was reused, is
dropped and counted in "lost", as is each overrun of the /dev/kmsg reader;
the caller decides what that means.
"""
import json
import re
import sys

import drgn

import kmsg_raw

SKIP = "burst record with a payload"


def kmsg_records(start, until):
    """/dev/kmsg records from the first whose text matches start to the
    first after it that matches until, and how many times the reader was
    overrun in between (records lost before it read them)."""
    out, overruns = [], 0
    for r in kmsg_raw.records():
        if r is None:
            overruns += bool(out)
        elif out or start.match(r["text"]):
            out.append(r)
            if until and len(out) > 1 and until.match(r["text"]):
                return out, overruns
    if until and out:
        sys.exit("ringbuf_records.py: no record after %r matches %r"
                 % (start.pattern, until.pattern))
    return out, overruns


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    vmlinux, start, until, out = sys.argv[1:]
    try:
        start = re.compile(start)
        until = re.compile(until) if until else None
    except re.error as e:
        sys.exit("ringbuf_records.py: %s" % e)
    prog = drgn.Program()
    prog.set_kernel()
    try:
        prog.load_debug_info([vmlinux])
    except drgn.MissingDebugInfoError as e:
        print("note: %s" % str(e).splitlines()[0], file=sys.stderr)
    records, overruns = kmsg_records(start, until)
    if not records:
        sys.exit("ringbuf_records.py: no record of /dev/kmsg matches %r" % start.pattern)
    prb = prog["prb"]
    count = 1 << prb.desc_ring.count_bits.value_()
    size_bits = prb.text_data_ring.size_bits.value_()
    id_bytes = drgn.sizeof(prog.type("unsigned long"))
    ring = {"data_bytes": 1 << size_bits, "descriptors": count,
            "desc_bytes": drgn.sizeof(prog.type("struct prb_desc")),
            "info_bytes": drgn.sizeof(prog.type("struct printk_info")),
            "id_bytes": id_bytes}
    descs, infos = prb.desc_ring.descs, prb.desc_ring.infos
    kept, skipped, lost = [], 0, overruns
    for r in records:
        if SKIP in r["text"]:
            skipped += 1
            continue
        i = r["seq"] & (count - 1)
        # Both read whole, then the sequence number again: a descriptor
        # reused meanwhile (a writer reserved it) would mix two records.
        info, desc = infos[i].read_(), descs[i].read_()
        if info.seq.value_() != r["seq"] or infos[i].seq.value_() != r["seq"]:
            lost += 1
            continue
        lpos = desc.text_blk_lpos
        begin, nxt = lpos.begin.value_(), lpos.next.value_()
        if begin & 1:  # FAILED_LPOS or NO_LPOS: no data block
            block, wrapped = 0, False
        elif begin >> size_bits == nxt >> size_bits:
            block, wrapped = nxt - begin, False
        else:
            block, wrapped = nxt & ((1 << size_bits) - 1), True
        r.update({"flags": info.flags.value_(), "text_len": info.text_len.value_(),
                  "block": block, "wrapped": wrapped})
        kept.append(r)
    with open(out, "w") as f:
        f.write(json.dumps({"ring": ring, "skipped": skipped, "lost": lost}) + "\n")
        for r in kept:
            f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
