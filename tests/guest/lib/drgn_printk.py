#!/usr/bin/env python3
"""What drgn reads from the running kernel's log, beside /dev/kmsg.

drgn_printk.py VMLINUX OUT.json [SAMPLE]

Reads the printk ring buffer with drgn's own helper (get_printk_records(),
Debian's python3-drgn, through /proc/kcore), then every record of
/dev/kmsg, and writes one JSON object:

  drgn      number of records drgn read
  kmsg      number of /dev/kmsg records
  compared  records both hold (by sequence number), the newest excepted
  differ    up to 8 of them whose text differs: {seq, drgn, kmsg}
  sample    {seq, drgn, drgn_context, kmsg, dict} of the last record whose /dev/kmsg
            text contains SAMPLE (default "printf-style message", the
            selftest's case=msg record): drgn's text and the /dev/kmsg
            record

drgn's text is compared with /dev/kmsg's as the kernel escapes it there
(bytes below 0x20, from 0x7f and the backslash as \\xNN), so that any
byte drgn sees and /dev/kmsg does not, or the other way round, counts.
"""
import json
import sys

import drgn
from drgn.helpers.linux.printk import get_printk_records

import kmsg_raw


def kmsg_escape(text):
    return "".join(chr(c) if 0x20 <= c < 0x7f and c != 0x5c else "\\x%02x" % c
                   for c in text)


def kmsg_records():
    """seq -> (text as /dev/kmsg shows it, dictionary lines); records
    overwritten while reading are passed over."""
    return {r["seq"]: (r["text"], r["dict"]) for r in kmsg_raw.records() if r is not None}


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    vmlinux, out = sys.argv[1], sys.argv[2]
    want = sys.argv[3] if len(sys.argv) == 4 else "printf-style message"
    prog = drgn.Program()
    prog.set_kernel()
    try:
        prog.load_debug_info([vmlinux])
    except drgn.MissingDebugInfoError as e:
        # The modules' debug info is not looked for; the log is the core's.
        print("note: %s" % str(e).splitlines()[0], file=sys.stderr)
    records = get_printk_records(prog)
    kmsg = kmsg_records()
    by_seq = {r.seq: r for r in records}
    newest = max(by_seq) if by_seq else -1
    common = sorted(s for s in by_seq if s in kmsg and s != newest)
    differ = []
    for s in common:
        d = kmsg_escape(by_seq[s].text)
        if d != kmsg[s][0]:
            differ.append({"seq": s, "drgn": d, "kmsg": kmsg[s][0]})
    sample = None
    for s in common:
        if want in kmsg[s][0]:
            # context: what drgn gives beside the text (dev_printk's
            # SUBSYSTEM and DEVICE from printk_info's dev_info).
            ctx = getattr(by_seq[s], "context", None) or {}
            sample = {"seq": s, "drgn": kmsg_escape(by_seq[s].text),
                      "drgn_context": {kmsg_escape(k): kmsg_escape(v) for k, v in ctx.items()},
                      "kmsg": kmsg[s][0], "dict": kmsg[s][1]}
    result = {"drgn": len(records), "kmsg": len(kmsg),
              "compared": len(common), "differ": differ[:8],
              "ndiffer": len(differ), "sample": sample}
    with open(out, "w") as f:
        json.dump(result, f)
        f.write("\n")


if __name__ == "__main__":
    main()
