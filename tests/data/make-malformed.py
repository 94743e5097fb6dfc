#!/usr/bin/env python3
"""Write malformed.kmsg: one record per malformation kmsg2json must report,
between well-formed ones, and malformed.kmsg.errors: the reasons expected."""
import os

here = os.path.dirname(os.path.abspath(__file__))
recs = [
    b"6,0,100,-;well-formed before\n",
    b"6,1,100,-no semicolon in this header\n",
    b"x,2,100,-;bad priority\n",
    b"6,3,100,-;invalid \\q escape\n",
    b"6,4,100,-;a NUL \x00 byte\n",
    b"6,5,100,-;raw non-UTF-8 \xff\xfe bytes are kept, not an error\n",
    b"6,6,100,-;CRLF line end\r\n SUBSYSTEM=net\r\n",
    b"6,7,100,-;dictionary line without key\n novalue\n",
    b"6,8,100,-;" + b"L" * 9000 + b"\n",
    b"6,9,100,-;p: [kv a=1 a=2] duplicate key: rejected block, record kept\n",
    b"6,10,100,-;p: [kv s=\"x\\x5c\" cut=\"" + b"y" * 20 + b"\n",
    b"6,11,100,-;p: [kv a=1 b=\"cut by printk\n",
    b"6,13,100,-;after a seq gap, no final newline",
]
with open(os.path.join(here, "malformed.kmsg"), "wb") as f:
    f.write(b"".join(recs))
with open(os.path.join(here, "malformed.kmsg.errors"), "w") as f:
    f.write("no ';' ends the record header\nbad priority field\n"
            "invalid escape in text\nNUL byte at offset\n"
            "dictionary line at byte\nlonger than 8192\n")
