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
import re
import select
import subprocess
import sys
import tempfile
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

def raw_run(args, data=b""):
    p = subprocess.run([k2j] + args, input=data, capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def run(args, data=None):
    code, out, err = raw_run(args, data)
    return code, [json.loads(x) for x in out.splitlines()], err


def summary(objs):
    """seq for a record, "gap:LOST:AFTER:NEXT", "boot:AFTER:NEXT"."""
    out = []
    for o in objs:
        if o.get("gap"):
            out.append("gap:%s:%s:%s" % (o["lost"], o["after_seq"], o["next_seq"]))
        elif o.get("new_boot"):
            out.append("boot:%s:%s" % (o["after_seq"], o["next_seq"]))
        else:
            out.append(o.get("seq"))
    return out


def read_or_none(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def records(*seqs):
    return b"".join(b"6,%d,0,-;r%d\n" % (q, q) for q in seqs)


def expect(args, data, want, desc, rc=0):
    code, objs, err = run(args, data)
    got = summary(objs)
    result(code == rc and got == want, desc, "exit %d, got %r, want %r, stderr %r" %
           (code, got, want, err))


# A record from a pipe is printed when it arrives, not when the next one's
# first byte does (it could be a dictionary line's space), and so is a
# malformed record's object.
r, w = os.pipe()
p = subprocess.Popen([k2j, "-"], stdin=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
os.close(r)


def line_within(sec):
    ready = select.select([p.stdout], [], [], sec)[0]
    return p.stdout.readline() if ready else b""


os.write(w, b"6,1,0,-;from a pipe\n SUBSYSTEM=net\n")
first = line_within(10)
os.write(w, b"not a record\n")
second = line_within(10)
os.close(w)
rest, err = p.communicate(timeout=20)
result(first.startswith(b"{") and json.loads(first).get("dict") == {"SUBSYSTEM": "net"},
       "a piped record is printed while the writer keeps the pipe open", "got %r" % first)
result(second.startswith(b'{"error"'), "a piped malformed record's object is printed at once",
       "got %r" % second)
result(p.returncode == 1 and rest == b"", "the malformed record makes the exit status 1",
       "exit %d, then %r" % (p.returncode, rest))

# A FIFO given as FILE: its open waits for the writer, then it is a stream.
with tempfile.TemporaryDirectory() as tmp:
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    p = subprocess.Popen([k2j, fifo], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    with open(fifo, "wb") as f:
        f.write(b"6,1,0,-;through a fifo\n")
    try:
        out, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    result(p.returncode == 0 and [json.loads(x)["text"] for x in out.splitlines()] == ["through a fifo"],
           "a FIFO: kmsg2json waits for its writer and reads the record",
           "exit %s, %r, %r" % (p.returncode, out[:200], err[:200]))

# --since-seq N: a resume point. Records lost from N on are a gap; a new
# boot after it is reported, and its records printed.
expect(["--since-seq", "6", "-"], records(5, 6, 7), [6, 7], "--since-seq 6 starts at 6")
expect(["--since-seq", "3", "-"], records(5, 6, 7), ["gap:2:2:5", 5, 6, 7],
       "--since-seq 3 before the oldest record: records 3 and 4 are a gap")
expect(["--since-seq", "6", "-"], records(5, 6, 7, 2, 3), [6, 7, "boot:7:2", 2, 3],
       "--since-seq 6: a new boot after it is reported and printed")
expect(["--since-seq", "9", "-"], records(5, 6, 7), [], "--since-seq past the last record: nothing")
expect(["--since-seq", "0", "-"], records(0, 1), [0, 1], "--since-seq 0 starts at record 0")
expect(["--after-cursor", "s=5", "-"], records(5, 6, 7), [6, 7], "--after-cursor s=5 starts at 6")
expect(["--after-cursor", "s=5;x", "-"], records(5), [], "a malformed cursor is a usage error", 2)

# --cursor-file: where the last run stopped; written at the end.
with tempfile.TemporaryDirectory() as tmp:
    cur = os.path.join(tmp, "cursor")
    expect(["--cursor-file", cur, "-"], records(1, 2, 3), [1, 2, 3], "a first run reads everything")
    text = read_or_none(cur)
    result(text == "s=3\n", "the cursor file holds the last record's seq", "got %r" % text)
    expect(["--cursor-file", cur, "--level", "err", "-"], records(1, 2, 3, 4, 5), [],
           "the next run starts after it (records 4 and 5, filtered out)")
    text = read_or_none(cur)
    result(text == "s=5\n", "filtered records move the cursor too", "got %r" % text)
    expect(["--cursor-file", cur, "-"], records(1, 2, 3, 4, 5), [], "nothing new: nothing printed")
    text = read_or_none(cur)
    result(text == "s=5\n", "nothing new: the cursor stays", "got %r" % text)
    expect(["--cursor-file", cur, "-"], records(4, 5, 9), ["gap:3:5:9", 9],
           "records lost since the last run are a gap")
    open(cur, "w").write("garbage\n")
    code, objs, err = run(["--cursor-file", cur, "-"], records(1))
    result(code == 2 and cur in err and "not a cursor" in err and not objs,
           "a bad cursor file stops kmsg2json, naming the file", "exit %d, stderr %r" % (code, err))
    result(open(cur).read() == "garbage\n", "a bad cursor file is left as it was")
    code, objs, err = run(["--cursor-file", cur, "--since-seq", "2", "-"], records(1))
    result(code == 2 and "one start" in err, "a cursor file and --since-seq together are refused",
           "exit %d, stderr %r" % (code, err))

# /dev/kmsg: the cursor holds this boot's id; another boot's cursor is a new
# boot. Only the shape is checked: the host's records are not ours.
if fd >= 0:
    boot = open("/proc/sys/kernel/random/boot_id").read().strip().replace("-", "")
    with tempfile.TemporaryDirectory() as tmp:
        cur = os.path.join(tmp, "cursor")
        code, objs, err = run(["--cursor-file", cur])
        text = read_or_none(cur) or ""
        m = re.fullmatch(r"b=([0-9a-f]{32});s=(\d+)\n", text)
        result(code == 0 and m and m.group(1) == boot,
               "a /dev/kmsg cursor holds this boot's id", "exit %d, cursor %r, boot %s" %
               (code, text, boot))
        if m:
            code, objs, err = run(["--cursor-file", cur])
            seqs = [o.get("seq") for o in objs if "seq" in o]
            result(code == 0 and all(q > int(m.group(2)) for q in seqs) and
                   not any(o.get("new_boot") for o in objs),
                   "the next run on /dev/kmsg prints only later records (%d)" % len(seqs),
                   "exit %d, seqs %r" % (code, seqs[:5]))
        # Following, stopped by SIGTERM: the cursor is written on the way out.
        os.unlink(cur)
        p = subprocess.Popen([k2j, "--follow", "--cursor-file", cur],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(1.5)
        p.terminate()
        try:
            err = p.communicate(timeout=20)[1]
        except subprocess.TimeoutExpired:
            p.kill()
            err = p.communicate()[1]
        text = read_or_none(cur) or ""
        result(p.returncode == 0 and re.fullmatch(r"b=%s;s=\d+\n" % boot, text),
               "--follow stopped by SIGTERM writes its cursor and exits 0",
               "exit %d, cursor %r, stderr %r" % (p.returncode, text, err))
        other = "b=" + "0" * 32 + ";s=5"
        code, objs, err = run(["--after-cursor", other])
        result(code == 0 and objs and objs[0].get("new_boot") is True and objs[0]["after_seq"] == 5,
               "another boot's cursor on /dev/kmsg: a new boot first", "exit %d, first %r" %
               (code, objs[:1]))


# dmesg's and journalctl's habits (issue "kmsg2json 1.0", req. 5).
habit = (b"6,1,9,-,caller=T1;one\n"
         b"3,2,1500000,-,caller=C0;two \\x01err\n"
         b"4,5,2000000,-;Three WARN\n"
         b"14,6,2000001,-;user space\n")
code, out, err = raw_run(["-o", "short", "-"], habit)
want = (b"[    0.000009] one\n"
        b"[    1.500000] two \\x01err\n"
        b"-- 2 records lost (seq) --\n"
        b"[    2.000000] Three WARN\n"
        b"[    2.000001] user space\n")
result(code == 0 and out == want, "-o short: dmesg's lines, a gap as a note",
       "exit %d, got %r" % (code, out))
code, out, err = raw_run(["-o", "short", "-"], b"6,1,0,-;a\\xc2\\x9b2J \\xc3\\xa9 \\xff\\x1b[0m\n")
result(code == 0 and out == b"[    0.000000] a\\xc2\\x9b2J \xc3\xa9 \\xff\\x1b[0m\n",
       "-o short: a C1 control, invalid UTF-8 and ESC as \\xNN, printable UTF-8 as it is",
       "got %r" % out)
# A record of two lines: the second under the first's text, as dmesg aligns
# it (a guest boot found calibrate_delay_direct()'s); a final newline alone.
code, out, err = raw_run(["-o", "short", "-"],
                         b"6,1,74188,-;first line.\\x0asecond line\n6,2,75000,-;end\\x0a\n")
result(code == 0 and out == b"[    0.074188] first line.\n               second line\n"
       b"[    0.075000] end\n\n",
       "-o short: a multi-line record's lines under its text, as dmesg prints them",
       "got %r" % out)
code, out, err = raw_run(["-o", "cat", "-"], habit)
result(code == 0 and out == b"one\ntwo \\x01err\nThree WARN\nuser space\n", "-o cat: the text alone",
       "got %r" % out)
code, out, err = raw_run(["-o", "json-seq", "-"], habit)
texts = out.split(b"\x1e")
result(code == 0 and texts[0] == b"" and len(texts) == 6 and
       all(t.endswith(b"\n") and json.loads(t) for t in texts[1:]),
       "-o json-seq: RFC 7464, a record separator before each object", "got %r" % out[:200])
code1, pretty, _ = raw_run(["-o", "json-pretty", "-"], habit)
code2, p2, _ = raw_run(["--pretty", "-"], habit)
result(code1 == 0 and pretty == p2 and pretty.count(b"\n") > 20, "-o json-pretty is --pretty")
code, out, err = raw_run(["--output-fields", "seq,msg", "-"], habit)
objs = [json.loads(x) for x in out.splitlines()]
result(code == 0 and [sorted(o) for o in objs if "seq" in o and "gap" not in o] == [["msg", "seq"]] * 4
       and any(o.get("gap") for o in objs),
       "--output-fields seq,msg: records with those members, a gap whole", "got %r" % objs)
code, out, err = raw_run(["--output-fields", "seq,nosuch", "-"], habit)
result(code == 2 and "--output-fields" in err, "--output-fields with an unknown member: usage error",
       "exit %d, %r" % (code, err))
expect(["-n", "2", "-"], habit, [5, 6], "-n 2: the last two records")
expect(["-n", "1", "-l", "err", "-"], habit, [2], "-n 1 -l err: the last one chosen")
expect(["-n", "0", "-"], habit, [], "-n 0: none")
expect(["-k", "-"], habit, [1, 2, "gap:2:2:5", 5], "-k: the kernel's records")
expect(["-u", "-"], habit, ["gap:2:2:5", 6], "-u: user space's records")
expect(["-f", "user", "-"], habit, ["gap:2:2:5", 6], "-f user: dmesg's facility letter")
expect(["-l", "WARNING,Error", "-"], habit, [2, "gap:2:2:5", 5],
       "-l: level names in any case, journalctl's spellings too")
expect(["-p", "warning", "-"], habit, [1, 2, "gap:2:2:5", 5][1:], "-p LEVEL: that level and every more severe one")
expect(["-p", "info..warning", "-"], habit, [1, "gap:2:2:5", 5, 6], "-p FROM..TO: a range of levels")
expect(["--grep", "three", "-"], habit, ["gap:2:2:5", 5], "--grep without capitals ignores case")
expect(["--grep", "three|Three", "-"], habit, ["gap:2:2:5", 5], "--grep: an extended regex")
expect(["--grep", "THREE", "-"], habit, ["gap:2:2:5"], "--grep with a capital keeps case")
for opt in (["-T"], ["--since", "-1h"], ["--until", "now"]):
    code, out, err = raw_run(opt + ["-"], habit)
    result(code == 2 and "need /dev/kmsg" in err and not out,
           "%s on a saved stream: refused, its boot time is unknown" % opt[0], "exit %d, %r" % (code, err))
for bad in ("25:99", "-nanmin", "-infmin", "-1e9w", "-0x10s", "@99999999999999"):
    code, out, err = raw_run(["--since", bad])
    result(code == 2 and "not a time" in err, "--since %s: not a time, a usage error" % bad,
           "exit %d, %r" % (code, err))
# Output that did not all go out: the cursor stays where it was.
with tempfile.TemporaryDirectory() as tmp:
    cur = os.path.join(tmp, "cursor")
    with open("/dev/full", "wb") as full:
        p = subprocess.run([k2j, "--cursor-file", cur, "-"], input=records(1, 2, 3),
                           stdout=full, stderr=subprocess.PIPE, timeout=20)
    result(p.returncode == 1 and b"write failed" in p.stderr and not os.path.exists(cur),
           "a write error (stdout /dev/full): exit 1, and no cursor past the lost output",
           "exit %d, %r, cursor %r" % (p.returncode, p.stderr, read_or_none(cur)))
for args, what in ((["--since-seq", " -1"], "not a sequence number"),
                   (["--since-seq", "3", "--after-cursor", "s=1"], "give one start"),
                   (["-W", "--since-seq", "4"], "no start to give"),
                   (["-o", "short", "--output-fields", "seq"], "not with -o short"),
                   (["--bogus"], "Try 'kmsg2json --help'")):
    code, out, err = raw_run(args + ["-"], b"")
    result(code == 2 and what in err, "%s: usage error (%s)" % (" ".join(args), what),
           "exit %d, %r" % (code, err))
if fd >= 0:
    code, out, err = raw_run(["-T", "-n", "3"])
    objs = [json.loads(x) for x in out.splitlines()]
    result(code == 0 and objs and all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", o["time"])
                                      for o in objs),
           "-T on /dev/kmsg: a \"time\" member, ISO 8601 UTC", "exit %d, %r" % (code, objs[:1]))
    code, out, err = raw_run(["--until", "2000-01-01"])
    result(code == 0 and out == b"", "--until before the boot: no record", "exit %d, %r" % (code, out[:200]))
    code, out, err = raw_run(["--since", "-1h", "-o", "short", "-T", "-n", "1"])
    result(code == 0 and (out == b"" or re.match(rb"\[\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\] ", out)),
           "-o short -T on /dev/kmsg: dmesg -T's stamp", "exit %d, %r" % (code, out[:200]))
code, out, err = raw_run(["-V"])
result(code == 0 and re.fullmatch(rb"kmsg2json \d+\.\d+ \(JSON schema \d+\)\n", out),
       "-V names the version and the JSON schema's", "got %r" % out)

# Every option of --help is in the man page, and the other way round.
man = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                        "userspace-reader", "kmsg2json.1")).read().replace("\\-", "-")
code, out, err = raw_run(["--help"])
helped = set(re.findall(r"--[a-z][a-z-]+", out.decode()))
in_man = set(re.findall(r"(?m)^\.B[IR]? .*?(--[a-z][a-z-]+)", man))
in_man |= set(re.findall(r"(?m)^\.B[IR]? .*?, (--[a-z][a-z-]+)", man))
result(code == 0 and helped and not (helped - set(re.findall(r"--[a-z][a-z-]+", man))),
       "every option of --help is in the man page (%d)" % len(helped),
       "missing: %s" % sorted(helped - set(re.findall(r"--[a-z][a-z-]+", man))))
result(not (in_man - helped), "every option the man page describes is in --help",
       "missing: %s" % sorted(in_man - helped))

print("reader-input: %d failed" % failed)
sys.exit(1 if failed else 0)
