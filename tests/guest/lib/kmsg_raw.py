# SPDX-License-Identifier: GPL-2.0
"""/dev/kmsg records as the kernel writes them, for the guest's drgn tools.

records() yields every record /dev/kmsg holds now, oldest first, as a dict:
  seq, facility, level, text (escaped as /dev/kmsg shows it: bytes below
  0x20, from 0x7f and the backslash as \\xNN), dict (its dictionary lines,
  without their leading space)
and None where the reader was overrun (records overwritten before it read
them; reading goes on with the oldest left). It stops at the end of the
buffer rather than waiting for new records.
"""
import os


def records():
    fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
    try:
        while True:
            try:
                raw = os.read(fd, 65536)
            except BlockingIOError:
                return
            except BrokenPipeError:
                yield None
                continue
            head, _, rest = raw.decode("latin-1").partition(";")
            lines = rest.rstrip("\n").split("\n")
            fields = head.split(",")
            pri = int(fields[0])
            yield {"seq": int(fields[1]), "facility": pri >> 3, "level": pri & 7,
                   "text": lines[0], "dict": [line[1:] for line in lines[1:]]}
    finally:
        os.close(fd)
