#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write docs/PROPOSALS.md from the raw data of ./pkv compare.

usage: compare.py DATADIR OUT.md
  DATADIR  docs/data/compare: meta.json and, per encoding ENC (off, text,
           dict), ENC-records.json and ENC-bench-records.json
           (tests/guest/lib/ringbuf_records.py: the ring first, then a
           record per line, with the bytes of its data block) and
           ENC-runs.json (the scenarios' exit status, the bench's runs)

Every figure comes from DATADIR. Bytes are the data blocks the kernel gave
the records (descriptor text_blk_lpos, read with drgn), not a formula; the
2012 printk_emit() layout alone is on paper. Refuses to write a table with
an empty, non-numeric or non-finite cell, or data that does not hold
together (a missing encoding, scenario or bench kind).
"""
import difflib
import json
import math
import os
import re
import statistics
import sys

ENCODINGS = ('off', 'text', 'dict')
SCENARIOS = ('l2tp', 'ext4', 'cs89x0', 'misdn')
WIDTHS = (1, 4, 8)
DEFAULT_BUFFER = 128 * 1024
# Targets of issue #16, as ratios to the record with the same information
# in its text, measured in the same boot.
TARGET_NS = {'dict': 1.05, 'text': 1.10}
TARGET_BYTES = {'dict': 1.25, 'text': 1.5}
# struct printk_log of 2012-2020 (printk_emit()): ts_nsec, len, text_len,
# dict_len, facility, flags:5 + level:3, in front of text and dictionary,
# aligned to 8 (LOG_ALIGN on 64-bit). On paper: that kernel is gone.
LOG2012_HEADER = 16
LOG2012_ALIGN = 8


class DataError(Exception):
    pass


def fail(msg):
    sys.exit('compare.py: %s' % msg)


def load_lines(path):
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    except (OSError, ValueError) as e:
        raise DataError('%s: %s' % (path, e))


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise DataError('%s: %s' % (path, e))


def unescape(text):
    """The bytes of a /dev/kmsg text (\\xNN escapes)."""
    return re.sub(r'\\x([0-9a-f]{2})', lambda m: chr(int(m.group(1), 16)),
                  text).encode('latin-1')


def log2012(rec):
    """Bytes of the record in the 2012 layout: header, text, "KEY=value"
    dictionary entries separated by NUL (the /dev/kmsg lines as they were)."""
    dict_lines = [d for d in rec['dict'] if not d.startswith('PRINTK_KV=')]
    n = LOG2012_HEADER + len(unescape(rec['text']))
    if dict_lines:
        n += sum(len(unescape(d)) for d in dict_lines) + len(dict_lines) - 1
    return (n + LOG2012_ALIGN - 1) // LOG2012_ALIGN * LOG2012_ALIGN


def human(rec):
    """The text without the block: what the person reads under text with
    printk.kv_console_plain=1, and under dict and off always."""
    if rec['flags'] & 1 == 0:  # LOG_KV_TEXT: a block in the text
        return rec['text']
    kv = next((d[len('PRINTK_KV='):] for d in rec['dict'] if d.startswith('PRINTK_KV=')), None)
    block = '[kv %s] ' % kv
    if kv is None or block not in rec['text']:
        raise DataError('record %d: a block in its text, but not the one PRINTK_KV gives: %r'
                        % (rec['seq'], rec['text']))
    return rec['text'].replace(block, '', 1)


class Ring:
    def __init__(self, head):
        r = head['ring']
        self.data = r['data_bytes']
        self.descs = r['descriptors']
        self.desc_bytes = r['desc_bytes'] + r['info_bytes']
        self.id_bytes = r['id_bytes']
        # Data bytes per descriptor (PRB_AVGBITS): the default buffer's rings.
        self.per_desc = self.data // self.descs
        self.default_descs = DEFAULT_BUFFER // self.per_desc

    def fit(self, mean_block):
        """Records the default buffer holds at this mean data block."""
        if mean_block <= 0:
            fail('a mean data block of %s bytes' % mean_block)
        return min(int(DEFAULT_BUFFER // mean_block), self.default_descs)


def segments(records):
    """Kernel records per scenario, between its "pkv-compare:" marker and
    the next one."""
    seg, cur = {}, None
    for r in records:
        for key in ('seq', 'facility', 'level', 'flags', 'text_len', 'block'):
            if not isinstance(r.get(key), int) or isinstance(r.get(key), bool):
                raise DataError('record %s: %s is not an integer' % (r.get('seq'), key))
        if r['facility'] == 1 and r['text'].startswith('pkv-compare: '):
            m = re.match(r'pkv-compare: scenario (\S+)$', r['text'])
            cur = m.group(1) if m else None
            if cur:
                seg[cur] = []
        elif cur is not None and r['facility'] == 0:
            seg[cur].append(r)
    return seg


def bench_records(records, enc):
    """The six bench records (plain and kv for 1, 4, 8 fields), in order."""
    recs = [r for r in records if r['facility'] == 0 and r['text'].startswith('test_printk_kv: ')
            and 'bench result' not in r['text']][:6]
    if len(recs) != 6:
        raise DataError('%s: %d bench records, want 6' % (enc, len(recs)))
    out = {}
    for i, w in enumerate(WIDTHS):
        plain, kv = recs[2 * i], recs[2 * i + 1]
        want = 'test_printk_kv: bench' + ''.join(' %s=0' % k for k in 'abcdefgh'[:w])
        if plain['text'] != want:
            raise DataError('%s: bench record %r, want %r' % (enc, plain['text'], want))
        if human(kv) != 'test_printk_kv: bench':
            raise DataError('%s: structured bench record %r' % (enc, kv['text']))
        out[w] = (plain, kv)
    return out


def median_spread(values):
    return statistics.median(values), min(values), max(values)


class Table:
    """A markdown table whose cells other than labels must be numbers."""

    def __init__(self, name, head):
        self.name, self.head, self.rows = name, head, []

    def row(self, label, *cells):
        out = [label]
        for c in cells:
            if isinstance(c, str):
                out.append(c)
                continue
            if c is None or isinstance(c, bool) or not math.isfinite(c):
                fail('%s: row %r: cell %r is not a number' % (self.name, label, c))
            out.append('%d' % c if isinstance(c, int) else '%.2f' % float(c))
        for c in out:
            if c == '':
                fail('%s: row %r: an empty cell' % (self.name, label))
        self.rows.append(out)

    def lines(self):
        if not self.rows:
            fail('%s: no row' % self.name)
        return (['| ' + ' | '.join(self.head) + ' |', '|' + ' --- |' * len(self.head)]
                + ['| ' + ' | '.join(r) + ' |' for r in self.rows] + [''])


def spread(m, lo, hi):
    return '%.0f (%d-%d)' % (m, lo, hi)


def targets(t):
    return ', '.join('`%s` at most %.2f' % (e, v) for e, v in sorted(t.items()))


def judge(value, target):
    return 'met' if value <= target else 'missed'


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    d = sys.argv[1]
    try:
        meta = load(os.path.join(d, 'meta.json'))
        for key in ('command', 'date', 'machine', 'accel', 'kernel', 'series_sha256'):
            if not isinstance(meta.get(key), str) or not meta[key]:
                raise DataError('meta.json: no %s' % key)
        for key in ('bench_records', 'bench_runs'):
            if not isinstance(meta.get(key), int) or meta[key] <= 0:
                raise DataError('meta.json: %s is not a positive integer' % key)
        recs, bench, runs, rings = {}, {}, {}, {}
        for enc in ENCODINGS:
            lines = load_lines(os.path.join(d, enc + '-records.json'))
            blines = load_lines(os.path.join(d, enc + '-bench-records.json'))
            if not lines or 'ring' not in lines[0] or not blines or 'ring' not in blines[0]:
                raise DataError('%s: no ring line first' % enc)
            for name, head in (('records', lines[0]), ('bench records', blines[0])):
                if head['lost']:
                    raise DataError('%s: %d %s no longer in the ring when read'
                                    % (enc, head['lost'], name))
            rings[enc] = Ring(lines[0])
            recs[enc] = segments(lines[1:])
            for s in SCENARIOS:
                if not recs[enc].get(s):
                    raise DataError('%s: no record of scenario %s' % (enc, s))
            bench[enc] = bench_records(blines[1:], enc)
            runs[enc] = load(os.path.join(d, enc + '-runs.json'))
            for w in WIDTHS:
                b = [x for x in runs[enc]['bench'] if x['fields'] == w]
                if len(b) < 5:
                    raise DataError('%s: fewer than 5 bench runs of %d fields' % (enc, w))
                if not all(isinstance(x[k], int) and x[k] > 0 for x in b for k in ('plain_ns', 'kv_ns')):
                    raise DataError('%s: a bench run of %d fields without positive ns' % (enc, w))
    except DataError as e:
        fail(str(e))
    ring = rings['off']
    for enc in ENCODINGS:
        r = rings[enc]
        if (r.desc_bytes, r.id_bytes, r.per_desc) != (ring.desc_bytes, ring.id_bytes, ring.per_desc):
            fail('%s: another ring layout than under off' % enc)

    out = [
        '# Proposals side by side: `printk.kv=off`, `text` and `dict`',
        '',
        'Written by `%s` on %s (%s, QEMU under %s, guest kernel %s, series sha256 %s),'
        % (meta['command'], meta['date'], meta['machine'], meta['accel'], meta['kernel'],
           meta['series_sha256']),
        'from the raw data in `docs/data/compare/` (tests/bench/compare.py). One kernel, one',
        'boot per encoding; each boot ran the selftest and the l2tp, ext4, cs89x0 and mISDN',
        'scenarios of `tests/guest/`, then `tests/bench/guest-compare.sh`. Nothing here is',
        'edited by hand.',
        '',
        'The encodings (docs/FORMAT.md): `text` keeps the fields in a block in the record',
        'text; `dict` keeps them after the text in the same data block, out of the text;',
        '`off` keeps none, and is the baseline. The peer of every ratio is a record with the',
        'same information in its text, measured in the same boot.',
        '',
        '## Ring buffer: bytes per record',
        '',
        'Bytes are the data blocks the kernel gave each record, read from its descriptor',
        '(`text_blk_lpos`, with drgn: tests/guest/lib/ringbuf_records.py): the %d-byte id,'
        % ring.id_bytes,
        'the text, under `dict` the fields after it, aligned to %d. Every record also takes'
        % ring.id_bytes,
        'a descriptor: struct prb_desc and struct printk_info, %d bytes under every encoding'
        % ring.desc_bytes,
        '(sizes from the DWARF of this vmlinux). The default 128 KiB buffer has %d'
        % ring.default_descs,
        'descriptors (%d KiB) beside its data ring, whatever the records hold: *per 128 KiB*'
        % (ring.default_descs * ring.desc_bytes // 1024),
        'below is what fits in its data ring, capped by the descriptors. The 2012 column is',
        'on paper: the `printk_emit()` layout that 5.10 removed, a %d-byte header in front of'
        % LOG2012_HEADER,
        'the text and a dictionary of the same `KEY=value` lines, without a descriptor ring.',
        '',
        '### The selftest\'s records: 1, 4 and 8 u32 fields',
        '',
        '*plain* is `printk("test_printk_kv: bench a=0 ...")`, the same values in the text;',
        'the structured record is `pr_info_kv("bench", KV_U32(a, 0), ...)` in the same',
        'boot. The ratio is structured over plain (target: %s).' % targets(TARGET_BYTES),
        '',
    ]
    t = Table('bench bytes', ['fields', 'encoding', 'plain text', 'plain block',
                              'structured text', 'structured block', 'ratio', 'target',
                              'plain per 128 KiB', 'structured per 128 KiB', '2012 layout'])
    missed_bytes = []
    for w in WIDTHS:
        for enc in ENCODINGS:
            plain, kv = bench[enc][w]
            ratio = kv['block'] / plain['block']
            target = TARGET_BYTES.get(enc)
            verdict = ('%.2f: %s' % (target, judge(ratio, target))) if target else 'baseline'
            if target and ratio > target:
                missed_bytes.append((enc, w, ratio, target, kv['block'] - plain['block']))
            t.row(str(w), enc, plain['text_len'], plain['block'], kv['text_len'], kv['block'],
                  ratio, verdict, ring.fit(plain['block']), ring.fit(kv['block']),
                  log2012(kv) if enc == 'dict' else '-')
    out += t.lines()
    # What the structured record holds that the plain one does not: the
    # file's static fields, from the fields themselves.
    kv_line = next((x for x in bench['dict'][1][1]['dict'] if x.startswith('PRINTK_KV=')), None)
    if kv_line is None:
        fail('dict: the 1-field bench record has no PRINTK_KV line')
    static = ' '.join(f for f in kv_line[len('PRINTK_KV='):].split(' ')
                      if f.split('=')[0] not in 'abcdefgh')
    if missed_bytes:
        out += ['Where the bytes target is missed: %s.'
                % '; '.join('`%s`, %d-field record: %.2f against %.2f, %d bytes more'
                            % (e, w, r, tg, extra) for e, w, r, tg, extra in missed_bytes),
                'The structured record holds what the plain one does not: the file\'s static',
                'fields, `%s` (%d bytes), and under `text` the `[kv ` and `] ` around the block,'
                % (static, len(static)),
                'under `dict` a space, `]` and a NUL after the text; the block is then aligned to',
                '%d bytes. The plain peer has the values, not the module and subsystem names.'
                % ring.id_bytes,
                '']

    out += ['### The driver scenarios\' records', '',
            'Every kernel record between a scenario\'s marker and the next, under each',
            'encoding: the same workload, so the same records (their count is shown for each).',
            '*with fields* counts the records that carry fields under that encoding. The ratio',
            'is the mean block over `off`\'s, whose text carries what the unconverted kernel',
            'printed (target: %s).' % targets(TARGET_BYTES),
            '']
    t = Table('scenario bytes', ['scenario', 'encoding', 'records', 'with fields',
                                 'mean block', 'ratio to off', 'target',
                                 'per 128 KiB', '2012 layout, mean'])
    for s in SCENARIOS + ('all',):
        for enc in ENCODINGS:
            rs = [r for sc in (SCENARIOS if s == 'all' else (s,)) for r in recs[enc][sc]]
            off = [r for sc in (SCENARIOS if s == 'all' else (s,)) for r in recs['off'][sc]]
            mean = float(statistics.mean(r['block'] for r in rs))
            ratio = mean / float(statistics.mean(r['block'] for r in off))
            target = TARGET_BYTES.get(enc)
            verdict = ('%.2f: %s' % (target, judge(ratio, target))) if target else 'baseline'
            fields = sum(1 for r in rs if any(x.startswith('PRINTK_KV=') for x in r['dict']))
            t.row('**all**' if s == 'all' else s, enc, len(rs), fields, mean, ratio, verdict,
                  ring.fit(mean),
                  float(statistics.mean(log2012(r) for r in rs)) if enc == 'dict' else '-')
    out += t.lines()
    counts = {s: [len(recs[enc][s]) for enc in ENCODINGS] for s in SCENARIOS}
    uneven = ['%s (%s)' % (s, ', '.join('%s %d' % (e, c) for e, c in zip(ENCODINGS, counts[s])))
              for s in SCENARIOS if len(set(counts[s])) > 1]
    if uneven:
        out += ['The boots did not print the same number of kernel records in: %s. The means'
                % '; '.join(uneven),
                'above are over each boot\'s own records; the listing below shows which differ.', '']
    else:
        out += ['Each scenario printed the same number of kernel records in every boot.', '']

    # ns per record.
    out += ['## ns per record', '',
            'test_printk_kv\'s bench: %d records of `pr_info_kv()` with 1, 4 and 8 u32 fields'
            % meta['bench_records'],
            'against the plain `printk()` with the same values in its text, plain then',
            'structured for each width in every run, %d runs per boot; console quiet'
            % meta['bench_runs'],
            '(loglevel=3), journald stopped, clocksource tsc. Median and, in brackets, the',
            'lowest and highest run. The ratio is the structured median over the plain median',
            '(target: %s); under `off` the structured' % targets(TARGET_NS),
            'call prints only its message, so its ratio is the cost of the call path alone.',
            'Absolute ns are those of QEMU under %s; the ratios are what carries over.'
            % meta['accel'],
            '']
    t = Table('ns', ['fields', 'encoding', 'plain ns', 'structured ns', 'difference ns',
                     'ratio', 'target'])
    missed_ns = []
    for w in WIDTHS:
        for enc in ENCODINGS:
            b = [x for x in runs[enc]['bench'] if x['fields'] == w]
            pm, plo, phi = median_spread([x['plain_ns'] for x in b])
            km, klo, khi = median_spread([x['kv_ns'] for x in b])
            if pm <= 0:
                fail('ns: %s, %d fields: a plain median of %s ns' % (enc, w, pm))
            ratio = km / pm
            target = TARGET_NS.get(enc)
            verdict = ('%.2f: %s' % (target, judge(ratio, target))) if target else 'baseline'
            if target and ratio > target:
                missed_ns.append((enc, w, ratio, target, km - pm))
            t.row(str(w), enc, spread(pm, plo, phi), spread(km, klo, khi), km - pm, ratio, verdict)
    out += t.lines()
    if missed_ns:
        out += ['Where the ns target is missed: %s.'
                % '; '.join('`%s`, %d-field record: %.2f against %.2f, %.0f ns more'
                            % (e, w, r, tg, extra) for e, w, r, tg, extra in missed_ns)]
        by_enc = {}
        for e, w, r, tg, extra in missed_ns:
            by_enc.setdefault(e, []).append((w, extra))
        for e, xs in sorted(by_enc.items()):
            diffs = {w: bench_extra for w, bench_extra in xs}
            off_extra = {w: statistics.median([x['kv_ns'] for x in runs['off']['bench'] if x['fields'] == w])
                         - statistics.median([x['plain_ns'] for x in runs['off']['bench'] if x['fields'] == w])
                         for w in WIDTHS}
            out += ['Under `%s` the structured record costs %s ns more than the plain one.'
                    % (e, ', '.join('%.0f (%d-field)' % (diffs[w], w) for w in sorted(diffs))),
                    'Under `off`, where the same call formats its items and stores no field, it costs'
                    ' %s ns more: that part is the call path, the rest is the fields stored.'
                    % ', '.join('%.0f (%d-field)' % (off_extra[w], w) for w in WIDTHS)]
        out.append('')

    # What a person reads.
    out += ['## What a person reads', '',
            'Each driver scenario\'s kernel records in order, as dmesg prints them (the text;',
            'no dictionary line), under each encoding, with the length in bytes. `off`\'s line',
            'is the baseline: the text of the call sites without any field. A `dict` or',
            '`text` line equal to `off`\'s is shown as `=`. Lines are aligned with difflib, so',
            'a record only one boot printed shows alone.',
            '']
    t = Table('person', ['scenario', 'records under off', 'dict: identical to off',
                         'text: identical to off', 'text without the block: identical to off',
                         'off mean length', 'dict mean length', 'text mean length'])
    listings = []
    for s in SCENARIOS:
        off = [r['text'] for r in recs['off'][s]]
        dic = [r['text'] for r in recs['dict'][s]]
        txt = [r['text'] for r in recs['text'][s]]
        txt_h = [human(r) for r in recs['text'][s]]

        def same(a, b):
            return sum(m.size for m in difflib.SequenceMatcher(None, a, b, autojunk=False)
                       .get_matching_blocks())
        t.row(s, len(off), same(off, dic), same(off, txt), same(off, txt_h),
              float(statistics.mean(len(unescape(x)) for x in off)),
              float(statistics.mean(len(unescape(x)) for x in dic)),
              float(statistics.mean(len(unescape(x)) for x in txt)))
        listing = ['### %s' % s, '', '```']
        sm = difflib.SequenceMatcher(None, off, dic, autojunk=False)
        ti = {}
        # text records pair with dict's by their text without the block.
        for tag, a1, a2, b1, b2 in difflib.SequenceMatcher(None, [human(r) for r in recs['dict'][s]],
                                                           txt_h, autojunk=False).get_opcodes():
            if tag == 'equal':
                for k in range(a2 - a1):
                    ti[a1 + k] = b1 + k
        shown_text = set()
        for tag, a1, a2, b1, b2 in sm.get_opcodes():
            for k in range(max(a2 - a1, b2 - b1)):
                o = off[a1 + k] if a1 + k < a2 else None
                di = b1 + k if b1 + k < b2 else None
                if o is not None:
                    listing.append('off  %4d  %s' % (len(unescape(o)), o))
                if di is not None:
                    dl = dic[di]
                    listing.append('dict %4d  %s' % (len(unescape(dl)), '=' if dl == o else dl))
                    if di in ti:
                        tl = txt[ti[di]]
                        shown_text.add(ti[di])
                        listing.append('text %4d  %s' % (len(unescape(tl)), '=' if tl == o else tl))
                listing.append('')
        # A text record whose line without the block no dict record has.
        for j, tl in enumerate(txt):
            if j not in shown_text:
                listing += ['text %4d  %s  (no dict record reads the same)' % (len(unescape(tl)), tl), '']
        listing += ['```', '']
        listings += listing
    out += t.lines() + listings

    st = ['%s %s' % (x['scenario'], 'passed' if x['rc'] == 0 else 'failed (exit %s)' % x['rc'])
          for x in runs['off']['scenarios']]
    out += ['## The scenarios\' own checks', '',
            'Under `text` and `dict` every scenario passed its assertions (./pkv compare stops',
            'otherwise). Under `off` they assert fields that `off` does not keep, so their',
            'exit status is only recorded: %s.' % ', '.join(st), '',
            '## Not measured by this command yet', '',
            'Issue #16 also asks for the image cost per converted subsystem, stack growth',
            'with gcc and clang, the trust paths and what each consumer sees (dmesg -J,',
            'journald and systemd-journal-remote, drgn) per encoding. Until they are added',
            'here, docs/PERFORMANCE.md has the object sizes, and the guest scenarios trust.sh,',
            'journal.sh and drgn.sh check trust and consumers without a table.', '']
    with open(sys.argv[2], 'w') as f:
        f.write('\n'.join(out))


if __name__ == '__main__':
    main()
