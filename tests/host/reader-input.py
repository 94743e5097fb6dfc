#!/usr/bin/env python3
"""reader-input.py KMSG2JSON: what kmsg2json takes for /dev/kmsg.

Only the kmsg device (char 1:11) is read a record per read(); a terminal or
any other file is a stream, read to its end. The flags of an inherited
descriptor are never changed (standard input's open file is the caller's).
"""
import fcntl
import json
import os
import pty
import subprocess
import sys
import termios
import time

k2j = sys.argv[1]
failed = 0


def result(ok, desc, detail=""):
    global failed
    print(("ok   " if ok else "FAIL ") + desc + ("" if ok else ": " + detail))
    failed += not ok


# A terminal on standard input: a stream, its record printed at end of file.
master, slave = pty.openpty()
p = subprocess.Popen([k2j, "-"], stdin=slave, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
time.sleep(0.3)
os.write(master, b"6,1,0,-;typed at a terminal\n")
time.sleep(0.2)
os.write(master, termios.tcgetattr(slave)[6][termios.VEOF])
try:
    out, err = p.communicate(timeout=20)
except subprocess.TimeoutExpired:
    p.kill()
    out, err = p.communicate()
lines = out.decode(errors="replace").splitlines()
result(p.returncode == 0 and len(lines) == 1 and
       json.loads(lines[0]).get("text") == "typed at a terminal",
       "kmsg2json - on a terminal reads it as a stream",
       "exit %s, output %r, stderr %r" % (p.returncode, lines, err.decode(errors="replace")))
result(not fcntl.fcntl(slave, fcntl.F_GETFL) & os.O_NONBLOCK,
       "the terminal's flags are unchanged (no O_NONBLOCK left behind)",
       "O_NONBLOCK is set on the caller's terminal")
os.close(master)
os.close(slave)

# /dev/kmsg inherited as standard input, blocking: read to the last record,
# then exit (without --follow), its flags unchanged. Its content is the
# host's and is not looked at, only that every line is JSON.
try:
    fd = os.open("/dev/kmsg", os.O_RDONLY)
except OSError as e:
    print("# /dev/kmsg not readable here (%s): that part not run" % e.strerror)
    fd = -1
if fd >= 0:
    try:
        p = subprocess.run([k2j, "-"], stdin=fd, capture_output=True, timeout=60)
        lines = p.stdout.splitlines()
        bad = []
        for line in lines:
            try:
                json.loads(line)
            except ValueError:
                bad.append(line)
        result(p.returncode == 0 and lines and not bad,
               "kmsg2json - with /dev/kmsg on standard input ends after the last record (%d lines)"
               % len(lines), "exit %d, %d lines, %d not JSON" % (p.returncode, len(lines), len(bad)))
    except subprocess.TimeoutExpired:
        result(False, "kmsg2json - with /dev/kmsg on standard input ends",
               "still reading after 60 s")
    result(not fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK,
           "the inherited /dev/kmsg descriptor's flags are unchanged",
           "O_NONBLOCK is set on the caller's descriptor")
    os.close(fd)

# A character device that is not kmsg: a stream (empty, here).
p = subprocess.run([k2j, "/dev/null"], capture_output=True, timeout=20)
result(p.returncode == 0 and p.stdout == b"", "/dev/null is an empty stream",
       "exit %d, output %r" % (p.returncode, p.stdout[:200]))
print("reader-input: %d failed" % failed)
sys.exit(1 if failed else 0)
