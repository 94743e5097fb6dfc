#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write docs/STATIC-FIELDS.md from the raw data of ./pkv bench --static-fields.

usage: static-fields.py DATADIR OUT.md
  DATADIR  docs/data/static-fields: meta.json and, per encoding, ENC.json
           (tests/guest/lib/callsite.py's lines over every record of a boot
           that ran the selftest and the driver scenarios)

Bytes are what the ring buffer allocates for a record's data block: an
8-byte id and the data, aligned to 8 (kernel/printk/printk_ringbuffer.c).
The data is the text under text; under dict the text, then the block's
fields as " KEY=VALUE ...]" and a NUL (printk.kv=dict). Refuses to write a
table with an empty or non-numeric cell.
"""
import json
import os
import sys

ENCODINGS = ('text', 'dict')
DRIVERS = ('l2tp_core', 'l2tp_eth', 'l2tp_netlink', 'ext4', 'cs89x0', 'l1oip', 'mISDN_core')
BUFFER = 128 * 1024


def block(n):
    return (8 + n + 7) // 8 * 8


def data_len(rec, enc):
    text = len(rec['text'].encode('latin-1'))
    return text if enc == 'text' else text + len(rec['kv'].encode('latin-1')) + 3


def row(name, recs, enc):
    n = len(recs)
    if n == 0:
        return None
    one = sum(1 for r in recs if len(r['sites']) == 1)
    several = sum(1 for r in recs if len(r['sites']) > 1)
    none = n - one - several
    now = [block(data_len(r, enc)) for r in recs]
    mod = [len(r['mod']) + 5 for r in recs]
    sited = [r for r in recs if r['would_src'] is not None]
    with_src = [block(data_len(r, enc) + r['would_src']) for r in sited]
    now_sited = [block(data_len(r, enc)) for r in sited]
    mean = sum(now) / n
    cells = [name, n, one, several, none, '%.1f' % mean, '%.1f' % (sum(mod) / n)]
    if sited:
        src_cost = (sum(with_src) - sum(now_sited)) / len(sited)
        cells += ['%.1f' % (sum(r['would_src'] for r in sited) / len(sited)),
                  '%.1f' % src_cost,
                  '%d' % (BUFFER // mean), '%d' % (BUFFER // (mean + src_cost))]
    else:
        cells += ['-'] * 4
    return cells


def check(cells):
    for c in cells[1:]:
        if c == '-':
            continue
        try:
            float(c)
        except (TypeError, ValueError):
            sys.exit('static-fields.py: non-numeric cell %r in row %r' % (c, cells[0]))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    d = sys.argv[1]
    try:
        meta = json.load(open(os.path.join(d, 'meta.json')))
        data = {}
        for enc in ENCODINGS:
            with open(os.path.join(d, enc + '.json')) as f:
                data[enc] = [json.loads(line) for line in f if line.strip()]
    except (OSError, ValueError) as e:
        sys.exit('static-fields.py: %s: %s' % (d, e))
    head = ('| records of | records | one call site in printk index | several | none |'
            ' bytes per record | mod= bytes | src= bytes | src= ring bytes |'
            ' records per 128 KiB | with src= |')
    lines = [
        '# Static fields: what `mod=` and `src=` cost, and where the call site is',
        '',
        'Written by `./pkv bench --static-fields` on %s (%s, QEMU under %s), from the raw'
        % (meta['date'], meta['machine'], meta['accel']),
        'data in `docs/data/static-fields/` (tests/bench/static-fields.py). One boot per',
        'encoding ran the selftest and the l2tp, ext4, cs89x0 and mISDN scenarios, then',
        '`tests/guest/callsite.sh`, which looks every record with fields up in printk index',
        '(tests/guest/lib/callsite.py).',
        '',
        'The block carries `mod=`, and no call site. The columns:',
        '',
        '- *one call site / several / none*: how many records match one format of printk',
        '  index, several (identical formats at several places), or none: cs89x0 never',
        '  stays loaded (no chip), and a module\'s formats leave the index with it.',
        '- *bytes per record*: the data block the ring buffer allocates, mean.',
        '- *mod= bytes*: what `mod=` takes of it, with its separator.',
        '- *src= bytes*: what ` src=FILE:LINE` took in the block before it was dropped, from',
        '  the call site the index gives (records with a site); *src= ring bytes*: the',
        '  growth of the allocated block, alignment included.',
        '- *records per 128 KiB*: the default buffer\'s data ring over the mean block,',
        '  without and with `src=` (the descriptor ring is not the limit at these sizes).',
        '',
    ]
    for enc in ENCODINGS:
        recs = data[enc]
        lines += ['## printk.kv=%s' % enc, '', head,
                  '|' + ' --- |' * (head.count('|') - 1)]
        mods = sorted({r['mod'] for r in recs})
        rows = [row('driver scenarios',
                    [r for r in recs if r['mod'] in DRIVERS], enc)]
        rows += [row(m, [r for r in recs if r['mod'] == m], enc) for m in mods]
        for cells in rows:
            if cells is None:
                sys.exit('static-fields.py: %s: no record' % enc)
            check(cells)
            lines.append('| ' + ' | '.join(str(c) for c in cells) + ' |')
        lines.append('')
    several = sorted({' and '.join(r['sites']) for enc in ENCODINGS for r in data[enc]
                      if len(r['sites']) > 1})
    lines += ['## Formats printed from several places', '',
              'A reader that finds one of these formats gets every site listed:', '']
    lines += ['- %s' % s for s in several] or ['- none']
    lines.append('')
    with open(sys.argv[2], 'w') as f:
        f.write('\n'.join(lines))


if __name__ == '__main__':
    main()
