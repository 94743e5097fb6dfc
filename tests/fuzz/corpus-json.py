#!/usr/bin/env python3
"""corpus-json.py KMSG2JSON CORPUS...: every committed fuzz input, read by
kmsg2json as a saved stream (as the kernel marks it, and with --unmarked), must give
one JSON object per line: strict JSON (no NaN, no duplicate keys), and an
exit status of 0 or 1 (1: a malformed record, reported as an object).

jq reads the same lines once more at the end, so that two parsers agree.
Prints TAP results, a line per corpus; exits 1 on any failure.
"""
import json
import os
import subprocess
import sys

k2j = sys.argv[1]
corpora = sys.argv[2:]


def reject_constant(name):
    raise ValueError("non-JSON constant " + name)


def no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(pairs)


failed = 0
print("TAP version 13")
print("1..%d" % (len(corpora) + 1))
everything = []
for n, corpus in enumerate(corpora, 1):
    files = sorted(os.listdir(corpus))
    bad = []
    lines = 0
    for name in files:
        path = os.path.join(corpus, name)
        for args in ([], ["--unmarked"]):
            p = subprocess.run([k2j] + args + [path], capture_output=True, timeout=60)
            if p.returncode not in (0, 1):
                bad.append("%s %s: exit %d: %s" % (name, " ".join(args), p.returncode,
                                                   p.stderr.decode(errors="replace")[:200]))
                continue
            for i, line in enumerate(p.stdout.split(b"\n")[:-1], 1):
                lines += 1
                try:
                    obj = json.loads(line, parse_constant=reject_constant,
                                     object_pairs_hook=no_duplicates)
                    if not isinstance(obj, dict):
                        raise ValueError("not an object")
                except ValueError as e:
                    bad.append("%s %s line %d: %s: %r" % (name, " ".join(args), i, e, line[:120]))
            if p.stdout and not p.stdout.endswith(b"\n"):
                bad.append("%s %s: output does not end with a newline" % (name, " ".join(args)))
            everything.append(p.stdout)
    ok = files and not bad
    print("%s %d - %s: %d inputs, %d lines, %d invalid" %
          ("ok" if ok else "not ok", n, corpus, len(files), lines, len(bad)))
    for b in bad[:20]:
        print("# " + b)
    failed += not ok

# jq: every line one JSON text, as many texts out as lines in.
data = b"".join(everything)
p = subprocess.run(["jq", "-c", "."], input=data, capture_output=True)
out = p.stdout.count(b"\n")
want = data.count(b"\n")
ok = p.returncode == 0 and out == want
print("%s %d - jq reads the same %d lines as %d JSON texts" %
      ("ok" if ok else "not ok", len(corpora) + 1, want, out))
if not ok:
    print("# jq: exit %d: %s" % (p.returncode, p.stderr.decode(errors="replace")[:300]))
failed += not ok
sys.exit(1 if failed else 0)
