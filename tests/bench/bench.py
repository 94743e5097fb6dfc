#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write docs/PERFORMANCE.md from the raw data of ./pkv bench.

usage: bench.py DATADIR OUT.md
  DATADIR  docs/data/bench: meta.json; drain.json and drain.tsv (the guest's
           drain: a line per run, ms of kmsg2json, dmesg -J, journalctl and
           the raw read() loop); replay.json and replay.tsv (the host's
           replay: a line per run, us of cat, kmsg2json and
           pkv-json-jansson); fresh-test-phases.tsv and loop.json (the
           developer loop: runs of an edited driver's scenario and of
           ./pkv try, seconds by phase) when measured; ipb.json
           (tests/bench/reader-ipb.sh: callgrind instruction counts of
           kmsg2json and pkv-json-jansson on two captures) when measured

Every figure comes from DATADIR; a table with an empty or non-numeric cell
is refused. The kernel's cost per record is docs/PROPOSALS.md's.
"""
import json
import os
import statistics
import sys

from mdtable import Table, fail as mdfail

PROG = 'bench.py'
# Targets of the reader (issue "kmsg2json"), as ratios measured in the same run.
TARGET_DMESG = 1.5      # kmsg2json at least this much faster than dmesg -J
TARGET_FLOOR = 1.5      # at most this much slower than a raw read() loop
TARGET_CAT = 5.0        # at most this much slower than cat on a file
TARGET_IPB = 25.0       # at most this many instructions per input byte


def fail(msg):
    mdfail(PROG, msg)


# Targets of the developer loop (issue "./pkv try"), seconds of wall time.
TARGET_EDIT_S = 30
TARGET_TRY_S = 25


def loop_runs(lp, name, keys):
    runs = lp.get(name)
    if not isinstance(runs, list) or not runs:
        fail('loop.json: no "%s" runs' % name)
    for r in runs:
        for k in keys + ['exit']:
            v = r.get(k) if isinstance(r, dict) else None
            if not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0:
                fail('loop.json: %s run %r: no number %s' % (name, r, k))
    return runs


def loop_verdict(totals, target, passed):
    """Met when the median is within the target and every run passed; the
    runs over the target are counted either way."""
    over = sum(1 for t in totals if t > target)
    v = 'met' if statistics.median(totals) <= target and passed else 'missed'
    return v + (' (%d of %d runs over)' % (over, len(totals)) if over else '')


def loop_tables(lp):
    edit = loop_runs(lp, 'edit', ['build_s', 'image_s', 'guest_s'])
    tr = loop_runs(lp, 'try', ['module_build_s', 'boot_s', 'total_s'])
    med = lambda runs, k: statistics.median(r[k] for r in runs)
    spread = lambda runs, k: '%.1f-%.1f' % (min(r[k] for r in runs), max(r[k] for r in runs))
    out = []
    edit_total = [r['build_s'] + r['image_s'] + r['guest_s'] for r in edit]
    ok_edit = all(r['exit'] == 0 for r in edit)
    t = Table('loop', ['loop', 'runs', 'build s', 'image s', 'guest s', 'total s (median)', 'range', 'target', 'result'], PROG)
    t.row('edit %s, its scenario %s' % (lp.get('edit_file', '?'), lp.get('scenario', '?')), len(edit),
          '%.1f' % med(edit, 'build_s'), '%.1f' % med(edit, 'image_s'), '%.1f' % med(edit, 'guest_s'),
          '%.1f' % statistics.median(edit_total), '%.1f-%.1f' % (min(edit_total), max(edit_total)),
          '<= %d s' % TARGET_EDIT_S, loop_verdict(edit_total, TARGET_EDIT_S, ok_edit))
    host = [r['total_s'] - r['boot_s'] for r in tr]
    ok_try = all(r['exit'] == 0 for r in tr)
    t.row('./pkv try %s, unchanged' % lp.get('try_module', '?'), len(tr),
          '%.1f' % statistics.median(host), 'none (the module goes in by 9p)', '%.1f' % med(tr, 'boot_s'),
          '%.1f' % med(tr, 'total_s'), spread(tr, 'total_s'), '<= %d s' % TARGET_TRY_S,
          loop_verdict([r['total_s'] for r in tr], TARGET_TRY_S, ok_try))
    out += ['Wall time on the machine above, TCG. *build*: the kernel step (make only where',
            'a file is newer than the last build; modules alone when only module code changed)',
            'and the out-of-tree modules (rebuilt when their sources change, or when the kernel',
            'step built more than module code or changed the symbols modules export); for try,',
            './pkv build\'s checks and the module\'s make.',
            '*image*: the guest image, changed files written in place. *guest*: QEMU from start',
            'to exit, the scenario or the module\'s load and unload included. Every run\'s',
            'scenario passed: %s.' % ('yes' if ok_edit and ok_try else 'NO'), ''] + t.lines()
    return out


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail('%s: %s' % (path, e))


def columns(path, n, runs):
    """A tab-separated table of non-negative integers, n per line and a line
    per run, as n lists."""
    try:
        with open(path) as f:
            rows = [line.rstrip('\n').split('\t') for line in f if line.strip()]
    except OSError as e:
        fail(str(e))
    if len(rows) != runs:
        fail('%s: %d runs, meta.json says %d' % (path, len(rows), runs))
    for i, r in enumerate(rows):
        if len(r) != n or not all(c.isdigit() for c in r):
            fail('%s: line %d: want %d non-negative integers, got %r' % (path, i + 1, n, r))
    return [[int(r[k]) for r in rows] for k in range(n)]


def positive_int(obj, key, where):
    v = obj.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
        fail('%s: %s is not a positive integer' % (where, key))
    return v


def med(xs, scale=1):
    m = statistics.median(xs) / scale
    if m <= 0:
        fail('a median of %s ms: too fast to time at these sizes' % m)
    return m


def spread(xs, scale=1):
    """Median (lowest-highest) in ms, from values in 1/scale ms."""
    if scale == 1:
        return '%.0f (%d-%d)' % (statistics.median(xs), min(xs), max(xs))
    return '%.1f (%.1f-%.1f)' % (statistics.median(xs) / scale, min(xs) / scale, max(xs) / scale)


def verdict(value, target, at_least):
    ok = value >= target if at_least else value <= target
    return '%s %.1fx: %s' % ('at least' if at_least else 'at most', target,
                             'met' if ok else 'missed')


def ipb_section(d):
    """The reader's instructions per input byte, from ipb.json."""
    out = ['## Reader: instructions per input byte (callgrind)', '']
    path = os.path.join(d, 'ipb.json')
    if not os.path.exists(path):
        return out + ['Not measured in this data (./pkv bench --ipb measures it).', '']
    ipb = load(path)
    for key in ('command', 'date', 'valgrind'):
        if not isinstance(ipb.get(key), str) or not ipb[key]:
            fail('ipb.json: no %s' % key)
    caps = ipb.get('captures')
    if not isinstance(caps, dict) or set(caps) != {'structured', 'plain'}:
        fail('ipb.json: captures must be structured and plain')
    out += ['Written by `%s` on %s: every instruction kmsg2json executes, counted by %s'
            % (ipb['command'], ipb['date'], ipb['valgrind']),
            '(callgrind), over the bytes it reads. Instruction counts do not depend on the',
            'load of the machine, so this is the figure to compare across changes. The',
            'captures (%d MiB each) are made by tests/bench/reader-captures.py from the'
            % positive_int(ipb, 'mib', 'ipb.json'),
            'records in tests/data: *structured*, test_printk_kv\'s burst records with a field',
            'block and their dictionary lines (printk.kv=text); *plain*, the unstructured',
            'records of a guest boot. The peer is the same parser writing through jansson',
            'objects (pkv-json-jansson).', '']
    t = Table('ipb', ['capture', 'bytes', 'records', 'kmsg2json, instructions per byte',
                      'per record', 'pkv-json-jansson, per byte', 'ratio', 'target'], PROG)
    for name in ('structured', 'plain'):
        c = caps[name]
        where = 'ipb.json: captures.%s' % name
        n, recs = positive_int(c, 'bytes', where), positive_int(c, 'records', where)
        k, jn = positive_int(c, 'kmsg2json', where), positive_int(c, 'pkv-json-jansson', where)
        t.row(name, n, recs, '%.1f' % (k / n), round(k / recs), '%.1f' % (jn / n),
              '%.1fx kmsg2json' % (jn / k),
              '<= %g: %s' % (TARGET_IPB, 'met' if k / n <= TARGET_IPB else 'missed'))
    return out + t.lines()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    d, out_path = sys.argv[1], sys.argv[2]
    meta = load(os.path.join(d, 'meta.json'))
    for key in ('command', 'date', 'machine', 'accel'):
        if not isinstance(meta.get(key), str) or not meta[key]:
            fail('meta.json: no %s' % key)
    runs = positive_int(meta, 'runs', 'meta.json')
    if runs < 5:
        fail('meta.json: %d runs: medians need at least 5' % runs)
    vcpus = positive_int(meta, 'guest_cpus', 'meta.json')
    drain = load(os.path.join(d, 'drain.json'))
    records = positive_int(drain, 'records', 'drain.json')
    jentries = positive_int(drain, 'journal_entries', 'drain.json')
    bursts = positive_int(drain, 'burst_records', 'drain.json')
    k2j, dmesg, journal, raw = columns(os.path.join(d, 'drain.tsv'), 4, runs)
    replay = load(os.path.join(d, 'replay.json'))
    in_bytes = positive_int(replay, 'input_bytes', 'replay.json')
    out_bytes = positive_int(replay, 'kmsg2json_bytes', 'replay.json')
    cat, rk2j, jansson = columns(os.path.join(d, 'replay.tsv'), 3, runs)

    mk2j, mdmesg, mjournal, mraw = med(k2j), med(dmesg), med(journal), med(raw)
    r_dmesg, r_floor = mdmesg / mk2j, mk2j / mraw
    out = [
        '# Performance', '',
        'Written by `%s` on %s (%s, QEMU under %s, %d vCPUs for the guest)'
        % (meta['command'], meta['date'], meta['machine'], meta['accel'], vcpus),
        'from the raw data in `docs/data/bench/` (tests/bench/bench.py). Every figure is the',
        'median of %d runs, with the lowest and highest in brackets, and its peer measured in' % runs,
        'the same run: the ratios are what carries over to other machines; absolute guest',
        'timings are those of QEMU under %s.' % meta['accel'], '',
        'The kernel side (bytes, ns, image cost, what dmesg shows, per `printk.kv=`',
        'encoding) is in docs/PROPOSALS.md, written by `./pkv compare`.', '',
        '## Reader: draining the ring buffer in the guest', '',
        '%d records in /dev/kmsg, %d of them from test_printk_kv\'s burst on every CPU'
        % (records, bursts),
        '(log_buf_len=32M); journalctl reads the %d kernel entries journald imported.' % jentries,
        'Above 1 a reader is slower than kmsg2json; the targets are kmsg2json\'s.', '']
    t = Table('drain', ['reader', 'ms', 'records/s', 'its time over kmsg2json\'s', 'target'], PROG)
    t.row('kmsg2json', spread(k2j), round(records * 1000 / mk2j), '-', '-')
    t.row('dmesg -J (util-linux)', spread(dmesg), round(records * 1000 / mdmesg),
          '%.2fx' % r_dmesg, verdict(r_dmesg, TARGET_DMESG, True))
    t.row('journalctl -k -o json', spread(journal), round(jentries * 1000 / mjournal),
          '%.2fx' % (mjournal / mk2j), '-')
    t.row('raw read() loop (pkv-kmsgraw)', spread(raw), round(records * 1000 / mraw),
          '%.2fx (kmsg2json over it)' % r_floor, verdict(r_floor, TARGET_FLOOR, False))
    out += t.lines()
    out += ['Any /dev/kmsg reader pays one read() per record: the raw loop, which does',
            'nothing else, takes %.0f ms, so no reader can be more than %.2fx faster than'
            % (mraw, mdmesg / mraw),
            'dmesg -J on this machine. kmsg2json\'s own work (parse, JSON) is the %.0f ms'
            % (mk2j - mraw),
            'above that floor, %.1f us per record in the guest.'
            % ((mk2j - mraw) * 1000 / records), '']

    mcat, mrk2j, mjansson = med(cat, 1000), med(rk2j, 1000), med(jansson, 1000)
    mb = in_bytes / 1048576
    out += ['## Reader: file replay on the host', '',
            'A %.1f MB capture (the drained buffer, repeated); kmsg2json writes %.1fx its input'
            % (mb, out_bytes / in_bytes),
            'in JSON.', '']
    t = Table('replay', ['command', 'ms', 'MB/s', 'ratio', 'target'], PROG)
    t.row('cat', spread(cat, 1000), round(mb * 1000 / mcat), '1', '-')
    t.row('kmsg2json (streaming writer)', spread(rk2j, 1000), round(mb * 1000 / mrk2j),
          '%.2fx cat' % (mrk2j / mcat), verdict(mrk2j / mcat, TARGET_CAT, False))
    t.row('same parser, jansson objects (pkv-json-jansson)', spread(jansson, 1000),
          round(mb * 1000 / mjansson),
          '%.2fx kmsg2json' % (mjansson / mrk2j), '-')
    out += t.lines()
    out += ['cat copies the page cache; kmsg2json decodes every record, parses its block and',
            'writes an object larger than its input, so its ratio to cat is JSON output against',
            'a copy. Building the same output with jansson objects, measured in the same run,',
            'takes %.2fx as long as the streaming writer.' % (mjansson / mrk2j), '']

    out += ipb_section(d)

    out += ['## ./pkv test from a fresh clone', '']
    phases = os.path.join(d, 'fresh-test-phases.tsv')
    if os.path.exists(phases):
        with open(phases) as f:
            lines = f.read().splitlines()
        if not lines or not lines[0].startswith('# '):
            fail('%s: no heading line' % phases)
        t = Table('phases', ['phase', 'seconds', 'exit'], PROG)
        total = 0.0
        for line in lines[1:]:
            # pkv_step's record: the phase, its seconds, its exit status.
            cols = line.split('\t')
            try:
                name, s, rc = cols[0], float(cols[1]), int(cols[2])
            except (IndexError, ValueError):
                fail('%s: %r: not a phase, its seconds and its exit status' % (phases, line))
            if len(cols) != 3:
                fail('%s: %r: not a phase, its seconds and its exit status' % (phases, line))
            total += s
            t.row(name, round(s), rc)
        t.row('total', round(total), '-')
        out += [lines[0][2:] + ', wall time by phase:', ''] + t.lines()
    else:
        out += ['Not measured on the cache of this run: ./pkv test from an empty PKV_CACHE',
                '(as CI runs it) leaves its phases for the next ./pkv bench.', '']

    out += ['## Developer loop', '']
    loop = os.path.join(d, 'loop.json')
    if os.path.exists(loop):
        out += loop_tables(load(loop))
    else:
        out += ['Not measured by `%s` (the full run measures it).' % meta['command'], '']
    with open(out_path, 'w') as f:
        f.write('\n'.join(out))


if __name__ == '__main__':
    main()
