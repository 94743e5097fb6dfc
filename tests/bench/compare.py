#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write docs/PROPOSALS.md from the raw data of ./pkv compare.

usage: compare.py [--cover] DATADIR OUT
  --cover  write the measured part of the cover letter
           (kernel-patches/cover-numbers.txt) instead of the document
  DATADIR  docs/data/compare: meta.json and, per encoding ENC (off, text,
           dict), ENC-records.json and ENC-bench-records.json
           (tests/guest/lib/ringbuf_records.py: the ring first, then a
           record per line, with the bytes of its data block) and
           ENC-runs.json (the scenarios' exit status, the bench's runs);
           sizes.json (tests/bench/sizes.py: section sizes of the
           converted objects, pristine tree against the series);
           stack.json (tests/bench/stack.py: their functions' frames, gcc
           and clang); ENC-trust.json (tests/guest/trust.sh: what each
           forgery path gave); ENC-consumers.json
           (tests/bench/guest-consumers.sh: what each consumer showed)

Every figure comes from DATADIR. Bytes are the data blocks the kernel gave
the records (descriptor text_blk_lpos, read with drgn), not a formula; the
2012 printk_emit() layout alone is on paper. Refuses to write a table with
an empty, non-numeric or non-finite cell, or data that does not hold
together (a missing encoding, scenario or bench kind).
"""
import difflib
import json
import os
import re
import statistics
import sys
import textwrap

import mdtable

PROG = 'compare.py'

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
    mdtable.fail(PROG, msg)


def Table(name, head):
    return mdtable.Table(name, head, PROG)


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


def has_fields(rec):
    return any(x.startswith('PRINTK_KV=') for x in rec['dict'])


def unhash(text):
    """The text with hashed pointers (%p: 16 hex digits on 64-bit, random
    per boot) as "(ptr)"."""
    return re.sub(r'\b(?:0x)?[0-9a-f]{16}\b', '(ptr)', text)


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
    """Kernel records per scenario: those between the guest runner's
    "pkv-runner: start NNN-SCENARIO.sh" and its "pkv-runner: end" line."""
    seg, cur = {}, None
    for r in records:
        for key in ('seq', 'facility', 'level', 'flags', 'text_len', 'block'):
            if not isinstance(r.get(key), int) or isinstance(r.get(key), bool):
                raise DataError('record %s: %s is not an integer' % (r.get('seq'), key))
        if r['facility'] == 1 and r['text'].startswith('pkv-runner: '):
            m = re.match(r'pkv-runner: start [0-9]+-(\S+)\.sh$', r['text'])
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


def spread(m, lo, hi):
    return '%.0f (%d-%d)' % (m, lo, hi)


def targets(t):
    return ', '.join('`%s` at most %.2f' % (e, v) for e, v in sorted(t.items()))


def judge(value, target):
    return 'met' if value <= target else 'missed'


SIZE_KEYS = ('text', 'rodata', 'dyndbg', 'jump_table', 'printk_index', 'alloc')
SIZE_NAMES = ('text', 'rodata', '`__dyndbg`', '`__jump_table`', '`.printk_index`', 'allocated')


def load_sizes(path):
    s = load(path)
    if not isinstance(s, dict) or not isinstance(s.get('config'), dict) \
            or not isinstance(s.get('objects'), list) or not s['objects']:
        raise DataError('%s: no config and objects' % path)
    for key in ('CONFIG_CC_VERSION_TEXT', 'CONFIG_CC_OPTIMIZE_FOR_SIZE', 'CONFIG_DYNAMIC_DEBUG',
                'CONFIG_FRAME_WARN', 'CONFIG_JUMP_LABEL', 'CONFIG_PRINTK_INDEX'):
        if not s['config'].get(key):
            raise DataError('%s: config has no %s' % (path, key))
    for o in s['objects']:
        for side in ('pristine', 'series'):
            for k in SIZE_KEYS:
                v = o.get(side, {}).get(k)
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    raise DataError('%s: %s: %s size %s is not a byte count'
                                    % (path, o.get('object'), side, k))
    return s


def image_cost(sizes):
    """The image cost section: per subsystem, then the objects that changed."""
    cfg = sizes['config']
    out = ['## Image cost', '',
           'Section sizes of every compiled object of the converted directories, the pristine',
           'tree against the series, same configuration (%s); from' % cfg.get('CONFIG_CC_VERSION_TEXT'),
           'the section headers (tests/bench/sizes.py). *text* counts `.text*`, `.init.text`',
           'and `.exit.text`; *rodata* every `.rodata*`; *allocated* every section the',
           'object puts in the image (what a module costs once loaded, or a built-in object',
           'adds to vmlinux; `.bss` and the init sections freed after boot included). `__dyndbg` holds a descriptor per `pr_debug()` site,',
           '`__jump_table` a static-key entry per site, `.printk_index` an entry per',
           'printk call site. In this configuration CONFIG_DYNAMIC_DEBUG=%s,'
           % cfg.get('CONFIG_DYNAMIC_DEBUG'),
           'CONFIG_JUMP_LABEL=%s and CONFIG_PRINTK_INDEX=%s.'
           % (cfg.get('CONFIG_JUMP_LABEL'), cfg.get('CONFIG_PRINTK_INDEX'))]
    if cfg.get('CONFIG_JUMP_LABEL') != 'y':
        out.append('Without jump labels, dynamic debug tests a flag at each site%s'
                   % (', and `__jump_table` is empty in both builds.'
                      if not any(o[side]['jump_table'] for o in sizes['objects']
                                 for side in ('pristine', 'series')) else '.'))
    out.append('')
    t = Table('image cost', ['subsystem', 'build', 'objects'] + list(SIZE_NAMES))
    subs = []
    for o in sizes['objects']:
        if o['subsystem'] not in subs:
            subs.append(o['subsystem'])
    for sub in subs:
        objs = [o for o in sizes['objects'] if o['subsystem'] == sub]
        tot = {side: {k: sum(o[side][k] for o in objs) for k in SIZE_KEYS}
               for side in ('pristine', 'series')}
        t.row('%s/' % sub, 'pristine', len(objs), *[tot['pristine'][k] for k in SIZE_KEYS])
        t.row('%s/' % sub, 'series', len(objs), *[tot['series'][k] for k in SIZE_KEYS])
        change = ['%+d' % (tot['series'][k] - tot['pristine'][k]) for k in SIZE_KEYS]
        change[-1] += ' (%+.1f%%)' % (100.0 * (tot['series']['alloc'] - tot['pristine']['alloc'])
                                      / tot['pristine']['alloc'])
        t.row('%s/' % sub, 'change', len(objs), *change)
    out += t.lines()
    out += ['The objects that changed, series minus pristine, in bytes:', '']
    t = Table('image cost per object', ['object'] + list(SIZE_NAMES))
    for o in sizes['objects']:
        d = [o['series'][k] - o['pristine'][k] for k in SIZE_KEYS]
        if any(d):
            t.row(o['object'], *['%+d' % x for x in d])
    out += t.lines()
    return out


# The l2tp receive paths, softirq context: each function calls the next
# (the last is the session's recv_skb, l2tp_eth's). Frames add up along a
# path unless a function is inlined into its caller.
L2TP_RX_PATHS = (
    ('UDP encapsulation', ('l2tp_udp_encap_recv', 'l2tp_udp_recv_core', 'l2tp_recv_common',
                           'l2tp_recv_dequeue', 'l2tp_recv_dequeue_skb', 'l2tp_eth_dev_recv')),
    ('L2TP over IP', ('l2tp_ip_recv', 'l2tp_recv_common', 'l2tp_recv_dequeue',
                      'l2tp_recv_dequeue_skb', 'l2tp_eth_dev_recv')),
    ('L2TP over IPv6', ('l2tp_ip6_recv', 'l2tp_recv_common', 'l2tp_recv_dequeue',
                        'l2tp_recv_dequeue_skb', 'l2tp_eth_dev_recv')),
)
STACK_TOP = 10


def load_stack(path):
    s = load(path)
    if not isinstance(s, dict) or not isinstance(s.get('compilers'), dict) \
            or not isinstance(s.get('functions'), list) or not s['functions']:
        raise DataError('%s: no compilers and functions' % path)
    for cc in ('gcc', 'clang'):
        if not isinstance(s['compilers'].get(cc), str) or not s['compilers'][cc]:
            raise DataError('%s: no %s version' % (path, cc))
        if not any(f.get('compiler') == cc for f in s['functions']):
            raise DataError('%s: no function compiled by %s' % (path, cc))
    for f in s['functions']:
        if not isinstance(f.get('unbounded'), bool):
            raise DataError('%s: %s: no unbounded flag' % (path, f.get('function')))
        for side in ('pristine', 'series'):
            v = f.get(side)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                raise DataError('%s: %s: %s frame %r is not a byte count'
                                % (path, f.get('function'), side, v))
        if f.get('pristine') is None and f.get('series') is None:
            raise DataError('%s: %s: in neither build' % (path, f.get('function')))
    return s


def frame(v):
    return '-' if v is None else v


def stack_growth(stack, opt, frame_warn):
    fs = stack['functions']
    out = ['## Stack', '',
           'Frame sizes from `-fstack-usage`, every function of the converted directories, the',
           'pristine tree against the series (tests/bench/stack.sh, tests/bench/stack.py):',
           'with %s, each object compiled again with the kernel build\'s own command;'
           % stack['compilers']['gcc'],
           'with %s, a build of its own from the same .config. The configuration' % stack['compilers']['clang'],
           'optimizes for %s. gcc\'s clones (`.isra`, `.constprop`, `.part`) count as their'
           % opt,
           'function. `-` is a function not in that build: new, removed, or inlined into its',
           'caller there. *over the limit*: frames above CONFIG_FRAME_WARN (%d bytes), where'
           % frame_warn,
           'the compiler warns.', '']
    subs = []
    for f in fs:
        if f['subsystem'] not in subs:
            subs.append(f['subsystem'])
    t = Table('stack summary', ['subsystem', 'compiler', 'functions', 'grew', 'shrank',
                                'new', 'gone', 'largest frame before', 'largest frame after',
                                'over the limit before', 'over the limit after'])
    for sub in subs:
        for cc in ('gcc', 'clang'):
            xs = [f for f in fs if f['subsystem'] == sub and f['compiler'] == cc]
            both = [f for f in xs if f['pristine'] is not None and f['series'] is not None]
            t.row('%s/' % sub, cc, len(xs),
                  sum(1 for f in both if f['series'] > f['pristine']),
                  sum(1 for f in both if f['series'] < f['pristine']),
                  sum(1 for f in xs if f['pristine'] is None),
                  sum(1 for f in xs if f['series'] is None),
                  max([f['pristine'] for f in xs if f['pristine'] is not None] or [0]),
                  max([f['series'] for f in xs if f['series'] is not None] or [0]),
                  sum(1 for f in xs if (f['pristine'] or 0) > frame_warn),
                  sum(1 for f in xs if (f['series'] or 0) > frame_warn))
    out += t.lines()
    over = sorted({'`%s` (%s, %d bytes)' % (f['function'], f['compiler'], f['series']) for f in fs
                   if (f['series'] or 0) > frame_warn >= (f['pristine'] or 0)})
    if over:
        out += ['Over the limit in the series and not before: %s. A build with that compiler'
                % ', '.join(over),
                'warns there (-Wframe-larger-than).', '']
    out += ['The %d functions per subsystem and compiler whose frame grew most (a new' % STACK_TOP,
            'function counts from 0), in bytes. *unbounded*: the compiler could not bound the',
            'frame (`-fstack-usage` says `dynamic` without `bounded`: a variable-length array',
            'or alloca); none is expected.', '']
    for sub in subs:
        t = Table('stack %s' % sub, ['function', 'file', 'compiler', 'before', 'after',
                                     'growth', 'unbounded'])
        for cc in ('gcc', 'clang'):
            xs = [f for f in fs if f['subsystem'] == sub and f['compiler'] == cc
                  and f['series'] is not None and f['series'] > (f['pristine'] or 0)]
            xs.sort(key=lambda f: (-(f['series'] - (f['pristine'] or 0)), f['function']))
            for f in xs[:STACK_TOP]:
                t.row('`%s`' % f['function'], f['file'], cc, frame(f['pristine']), f['series'],
                      '%+d' % (f['series'] - (f['pristine'] or 0)),
                      'yes' if f['unbounded'] else 'no')
        out += ['### %s/' % sub, '']
        out += t.lines() if t.rows else ['No function\'s frame grew or is new.', '']
    if any(f['subsystem'] == 'net/l2tp' for f in fs):
        out += ['### l2tp\'s receive paths (softirq)', '',
                'Each function calls the next, down to l2tp_eth\'s `recv_skb`. *path* adds up',
                'the frames of the functions the build has (one inlined into its caller has',
                'its frame in the caller\'s; `-/-`: inlined in both builds).', '']
        t = Table('l2tp rx', ['path', 'compiler', 'functions'] + ['before', 'after', 'growth'])
        for name, chain in L2TP_RX_PATHS:
            for cc in ('gcc', 'clang'):
                by = {f['function']: f for f in fs if f['compiler'] == cc
                      and f['subsystem'] == 'net/l2tp'}
                parts = []
                b = a = 0
                for fn in chain:
                    f = by.get(fn, {'pristine': None, 'series': None})
                    parts.append('`%s` %s/%s' % (fn, frame(f['pristine']), frame(f['series'])))
                    b += f['pristine'] or 0
                    a += f['series'] or 0
                t.row(name, cc, ', '.join(parts), b, a, '%+d' % (a - b))
        out += t.lines()
    return out


TRUST_PATHS = 6


def load_trust(path, enc):
    rows = load_lines(path)
    if len(rows) != TRUST_PATHS:
        raise DataError('%s: %d paths, want %d' % (path, len(rows), TRUST_PATHS))
    for r in rows:
        rec = r.get('record')
        if not isinstance(r.get('path'), str) or not isinstance(r.get('how'), str):
            raise DataError('%s: a row without its path' % path)
        if not isinstance(rec, dict):
            raise DataError('%s: %s: the record was not in /dev/kmsg under %s' % (path, r['path'], enc))
        for k, v in (('dict_lines', rec.get('dict_lines')), ('kmsg2json_fields', rec.get('kmsg2json_fields')),
                     ('facility', rec.get('facility')), ('journal_entries', r.get('journal_entries')),
                     ('journal_fields', r.get('journal_fields'))):
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise DataError('%s: %s: %s is not a count' % (path, r['path'], k))
        if r['journal_entries'] < 1:
            raise DataError('%s: %s: journald has no entry for it' % (path, r['path']))
        if r['path'].startswith('control'):
            n = rec['dict_lines'] + rec['kmsg2json_fields'] + r['journal_fields']
            if (n == 0) != (enc == 'off'):
                raise DataError('%s: the control record has %d fields under %s: the check '
                                'would not see a forgery' % (path, n, enc))
    if sum(r['path'].startswith('control') for r in rows) != 1:
        raise DataError('%s: not one control row' % path)
    return rows


def trust_section(trust):
    out = ['## Trust', '',
           'tests/guest/trust.sh, in each boot: text that looks like a field block, from each',
           'path a forger has, and a printk_kv call site as the control. Per encoding, what',
           'carries fields: /dev/kmsg\'s dictionary lines (other than dev_printk\'s SUBSYSTEM',
           'and DEVICE), kmsg2json\'s fields, and the `_KERNEL_` fields journald gave the',
           'entry (same exception). A forgery holds where any is above 0 on a forged row.',
           '']
    t = Table('trust', ['path', 'how', 'encoding', 'facility', '/dev/kmsg field lines',
                        'kmsg2json fields', 'journald fields', 'result'])
    forged_with_fields = 0
    for i, r0 in enumerate(trust['off']):
        for enc in ENCODINGS:
            r = trust[enc][i]
            if r['path'] != r0['path']:
                fail('trust: %s row %d is %r, off\'s is %r' % (enc, i, r['path'], r0['path']))
            rec = r['record']
            n = rec['dict_lines'] + rec['kmsg2json_fields'] + r['journal_fields']
            control = r['path'].startswith('control')
            if control:
                result = 'fields, as it should' if n else ('no fields (off keeps none)' if enc == 'off'
                                                           else 'NO FIELDS: the control failed')
            else:
                result = 'FORGED' if n else 'no field'
                forged_with_fields += bool(n)
            t.row(r['path'], '`%s`' % r['how'].replace('|', '\\|'), enc, rec['facility'], rec['dict_lines'],
                  rec['kmsg2json_fields'], r['journal_fields'], result)
    out += t.lines()
    out += ['%s.' % ('No forged text carried a field under any encoding' if not forged_with_fields
                     else '%d forged rows carried fields' % forged_with_fields), '']
    return out


CONSUMERS = ('dmesg', 'dmesg -J', 'kmsg2json', 'journald', 'systemd-journal-remote', 'drgn')


def load_consumers(path, enc):
    c = load(path)
    if not isinstance(c, dict) or not isinstance(c.get('record'), dict) \
            or not isinstance(c.get('consumers'), list):
        raise DataError('%s: no record and consumers' % path)
    names = [x.get('consumer') for x in c['consumers']]
    if tuple(names) != CONSUMERS:
        raise DataError('%s: consumers %s, want %s' % (path, names, list(CONSUMERS)))
    for x in c['consumers']:
        if not isinstance(x.get('text'), str) or not isinstance(x.get('fields'), int) \
                or isinstance(x.get('fields'), bool) or not isinstance(x.get('works'), bool):
            raise DataError('%s: %s: no text, field count or works' % (path, x['consumer']))
    # One record: every consumer that showed it shows the same message.
    texts = {x['text'] for x in c['consumers'] if x['works']}
    if len(texts) > 1:
        raise DataError('%s: the consumers show different records under %s: %s'
                        % (path, enc, sorted(texts)))
    return c


def consumers_section(cons):
    out = ['## Consumers', '',
           'One structured record, l2tp\'s "no session found" from the l2tp scenario, as each',
           'consumer shows it in each boot (tests/bench/guest-consumers.sh). *fields*: how',
           'many of the record\'s own fields the consumer carries (dev_printk\'s SUBSYSTEM',
           'and DEVICE not counted; the journal\'s count includes `_KERNEL_PRINTK_KV`, the',
           'fields as written); *text*: `=` where it is the line `off` shows, else its',
           'length in bytes. systemd-journal-remote is the entry exported with `journalctl -o',
           'export` and imported again, as a fleet\'s collector does.', '']
    t = Table('consumers', ['consumer', 'how'] + ['%s: text' % e for e in ENCODINGS]
              + ['%s: fields' % e for e in ENCODINGS] + ['works under all three'])
    for i, name in enumerate(CONSUMERS):
        xs = {e: cons[e]['consumers'][i] for e in ENCODINGS}
        base = xs['off']['text']
        t.row(name, '`%s`' % xs['off']['how'].replace('|', '\\|'),
              *(['=' if xs[e]['text'] == base and e != 'off' else len(xs[e]['text'].encode())
                 for e in ENCODINGS] + [xs[e]['fields'] for e in ENCODINGS]
                + ['yes' if all(xs[e]['works'] for e in ENCODINGS) else 'NO']))
    out += t.lines()
    out += ['What each shows as the message:', '']
    for enc in ENCODINGS:
        out += ['### `%s`' % enc, '', '```']
        for x in cons[enc]['consumers']:
            out.append('%-23s %s' % (x['consumer'], x['text']))
        out += ['```', '']
    return out


def wrap(text, item=False):
    """text in lines of at most 72 columns; item: a "- " list item."""
    return textwrap.wrap(text, 72, initial_indent='- ' if item else '',
                         subsequent_indent='  ' if item else '', break_on_hyphens=False)


def cover_text(meta, summary, ring, sizes, stack, trust, cons, frame_warn):
    """The measured part of the cover letter (kernel-patches/cover-numbers.txt),
    plain text from the same figures as the document."""
    w3 = '/'.join(str(w) for w in WIDTHS)

    def by_width(d):
        return '/'.join('%.2f' % d[w] for w in WIDTHS)
    a = summary['all']
    out = wrap('Measured by ./pkv compare on %s (%s, QEMU under %s), one boot per '
               'printk.kv= encoding with the same workload; the tables are in docs/PROPOSALS.md '
               'of the printk-kv repository, the raw data beside them in docs/data/compare/:'
               % (meta['date'], meta['machine'], meta['accel']))
    out.append('')
    items = [
        'Ring buffer: the driver scenarios\' %d kernel records (%d of them with fields) take a '
        'mean data block of %.1f bytes under off, %.1f under dict (%.2fx, against off\'s boot) '
        'and %.1f under text (%.2fx), beside the %d-byte descriptor every record has under any '
        'encoding; the 2012 printk_emit() layout would take %.1f for dict\'s records (on '
        'paper). Against a plain printk() with the same values in its text, in the same boot, '
        'the selftest\'s %s-field records take %sx under dict and %sx under text; %d bytes of '
        'the difference are the file\'s static fields (%s), which the plain record does not '
        'carry.'
        % (a['off'][0], summary['with_fields'], a['off'][1], a['dict'][1], a['dict'][2],
           a['text'][1], a['text'][2], ring.desc_bytes, a['dict'][3], w3,
           by_width(summary['bench']['dict']), by_width(summary['bench']['text']),
           len(summary['static']), summary['static']),
        'Time: %s u32 fields against the same plain printk() in the same boot, medians of %d '
        'runs of %d records: %sx under dict, %sx under text, %sx under off (where the '
        'structured call stores no field). QEMU under %s, noisy; the spread is in the '
        'document.'
        % (w3, meta['bench_runs'], meta['bench_records'], by_width(summary['ns']['dict']),
           by_width(summary['ns']['text']), by_width(summary['ns']['off']), meta['accel']),
        'dmesg under dict: of the driver scenarios\' %d records under off, %d read byte for '
        'byte the same, %d but for hashed pointers (%s); of the %d records with fields under '
        'dict, %d read the same as under off but for hashed pointers. The document lists the '
        'others.'
        % (sum(p[1] for p in summary['person']), sum(p[2] for p in summary['person']),
           sum(p[3] for p in summary['person']),
           ', '.join('%s %d/%d' % (p[0], p[3], p[1]) for p in summary['person']),
           sum(p[4] for p in summary['person']), sum(p[5] for p in summary['person'])),
    ]
    subs = []
    for o in sizes['objects']:
        if o['subsystem'] not in subs:
            subs.append(o['subsystem'])
    img = []
    for sub in subs:
        b = sum(o['pristine']['alloc'] for o in sizes['objects'] if o['subsystem'] == sub)
        af = sum(o['series']['alloc'] for o in sizes['objects'] if o['subsystem'] == sub)
        img.append('%s %+d bytes (%+.1f%%)' % (sub, af - b, 100.0 * (af - b) / b))
    items.append('Image, allocated sections of the converted objects: %s.' % ', '.join(img))
    st = []
    for sub in sorted({f['subsystem'] for f in stack['functions']}, key=subs.index):
        for cc in ('gcc', 'clang'):
            xs = [f for f in stack['functions'] if f['subsystem'] == sub and f['compiler'] == cc
                  and f['series'] is not None]
            if not xs:
                continue
            top = max(xs, key=lambda f: f['series'] - (f['pristine'] or 0))
            if top['series'] <= (top['pristine'] or 0):
                st.append('%s %s none grew' % (sub, cc))
                continue
            st.append('%s %s %s %s -> %d' % (sub, cc, top['function'],
                                              '-' if top['pristine'] is None else top['pristine'],
                                              top['series']))
    over = sorted({'%s (%s, %d)' % (f['function'], f['compiler'], f['series'])
                   for f in stack['functions'] if (f['series'] or 0) > frame_warn >= (f['pristine'] or 0)})
    items.append('Stack, the frame that grew most per subsystem and compiler: %s. Over '
                 'CONFIG_FRAME_WARN=%d in the series only: %s.'
                 % ('; '.join(st), frame_warn, ', '.join(over) if over else 'none'))
    forged = [r for r in trust['off'] if not r['path'].startswith('control')]
    carried = sum(1 for enc in ENCODINGS for r in trust[enc] if not r['path'].startswith('control')
                  and r['record']['dict_lines'] + r['record']['kmsg2json_fields'] + r['journal_fields'])
    items.append('Trust: %d forgery paths (user space through /dev/kmsg at any facility, a '
                 'process name, a block printed with "%%s"), each under every encoding: %d '
                 'carried a field.' % (len(forged), carried))
    cs = []
    for i, name in enumerate(CONSUMERS):
        f = {e: cons[e]['consumers'][i]['fields'] for e in ENCODINGS}
        ok = all(cons[e]['consumers'][i]['works'] for e in ENCODINGS)
        cs.append('%s %s (fields: text %d, dict %d)' % (name, 'works' if ok else 'FAILS',
                                                        f['text'], f['dict']))
    items.append('Consumers of one l2tp record under every encoding: %s.' % '; '.join(cs))
    for it in items:
        out += wrap(it, item=True)
    out.append('')
    return out


def main():
    args = sys.argv[1:]
    cover = args[:1] == ['--cover']
    if cover:
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    d, out_path = args
    # The figures the cover letter quotes, gathered as the tables are made.
    summary = {'bench': {}, 'all': {}, 'ns': {}, 'person': []}
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
                if len(b) != meta['bench_runs']:
                    raise DataError('%s: %d bench runs of %d fields, meta.json says %d'
                                    % (enc, len(b), w, meta['bench_runs']))
                if not all(isinstance(x[k], int) and x[k] > 0 for x in b for k in ('plain_ns', 'kv_ns')):
                    raise DataError('%s: a bench run of %d fields without positive ns' % (enc, w))
            if any(x.get('fields') not in WIDTHS for x in runs[enc]['bench']):
                raise DataError('%s: a bench run of another width than %s' % (enc, WIDTHS))
        sizes = load_sizes(os.path.join(d, 'sizes.json'))
        stack = load_stack(os.path.join(d, 'stack.json'))
        trust = {enc: load_trust(os.path.join(d, enc + '-trust.json'), enc) for enc in ENCODINGS}
        cons = {enc: load_consumers(os.path.join(d, enc + '-consumers.json'), enc) for enc in ENCODINGS}
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
        'scenarios of `tests/guest/`, its trust scenario, then `tests/bench/guest-consumers.sh`',
        'and `tests/bench/guest-compare.sh`. The image and stack sections come from the',
        'builds on the host. Nothing here is edited by hand.',
        '',
        'The encodings (docs/FORMAT.md): `text` keeps the fields in a block in the record',
        'text; `dict` keeps them after the text in the same data block, out of the text;',
        '`off` keeps none, and is the baseline. The bench\'s ratios (bytes and ns of the',
        'selftest\'s records) are against a plain record with the same values in its text,',
        'measured in the same boot; the driver scenarios\' ratios are against the same',
        'records under `off`, in another boot with the same workload.',
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
            summary['bench'].setdefault(enc, {})[w] = ratio
    out += t.lines()
    # What the structured record holds that the plain one does not: the
    # file's static fields, from the fields themselves.
    kv_line = next((x for x in bench['dict'][1][1]['dict'] if x.startswith('PRINTK_KV=')), None)
    if kv_line is None:
        fail('dict: the 1-field bench record has no PRINTK_KV line')
    static = ' '.join(f for f in kv_line[len('PRINTK_KV='):].split(' ')
                      if f.split('=')[0] not in 'abcdefgh')
    summary['static'] = static
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
            'Every kernel record from the start of a scenario\'s script to its end, under each',
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
            fields = sum(1 for r in rs if has_fields(r))
            if s == 'all':
                summary['all'][enc] = (len(rs), mean, ratio,
                                       float(statistics.mean(log2012(r) for r in rs)))
                if enc == 'dict':
                    summary['with_fields'] = fields
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
            summary['ns'].setdefault(enc, {})[w] = ratio
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
            out += ['Under `%s` the structured record costs %s ns more than the plain one.'
                    % (e, ', '.join('%.0f (%d-field)' % (diffs[w], w) for w in sorted(diffs)))]
        off_extra = {w: statistics.median([x['kv_ns'] for x in runs['off']['bench'] if x['fields'] == w])
                     - statistics.median([x['plain_ns'] for x in runs['off']['bench'] if x['fields'] == w])
                     for w in WIDTHS}
        out += ['Under `off`, where the same call formats its items and stores no field, it costs'
                ' %s ns more than its plain peer, in another boot: roughly the call path\'s share,'
                ' as far as boots compare.' % ', '.join('%.0f (%d-field)' % (off_extra[w], w) for w in WIDTHS),
                '']

    # What a person reads.
    out += ['## What a person reads', '',
            'Each driver scenario\'s kernel records in order, as dmesg prints them (the text;',
            'no dictionary line), under each encoding, with the length in bytes. `off`\'s line',
            'is the baseline: the text of the call sites without any field. A `dict` or',
            '`text` line equal to `off`\'s is shown as `=`. Lines are aligned with difflib, so',
            'a record only one boot printed shows alone.',
            '']
    t = Table('person', ['scenario', 'records under off', 'dict: identical to off',
                         'dict: identical but for hashed pointers', 'text: identical to off', 'text without the block: identical to off',
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
        # Of dict's records with fields, those whose line (pointers
        # unhashed) is one off printed: paired in order by difflib.
        kv_idx = {i for i, r in enumerate(recs['dict'][s]) if has_fields(r)}
        kv_same = sum(k for tag, a1, a2, b1, b2 in difflib.SequenceMatcher(
            None, [unhash(x) for x in off], [unhash(x) for x in dic], autojunk=False).get_opcodes()
            if tag == 'equal' for k in [sum(1 for j in range(b1, b2) if j in kv_idx)])
        summary['person'].append((s, len(off), same(off, dic),
                                  same([unhash(x) for x in off], [unhash(x) for x in dic]),
                                  len(kv_idx), kv_same))
        t.row(s, len(off), same(off, dic), same([unhash(x) for x in off], [unhash(x) for x in dic]),
              same(off, txt), same(off, txt_h),
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

    out += image_cost(sizes)
    try:
        frame_warn = int(sizes['config'].get('CONFIG_FRAME_WARN'))
    except (TypeError, ValueError):
        fail('sizes.json: no CONFIG_FRAME_WARN')
    out += stack_growth(stack, 'size (-Os)' if sizes['config'].get('CONFIG_CC_OPTIMIZE_FOR_SIZE') == 'y'
                        else 'speed (-O2)', frame_warn)
    out += trust_section(trust)
    out += consumers_section(cons)

    def status(enc):
        return ', '.join('%s %s' % (x['scenario'], 'passed' if x['rc'] == 0 else 'failed (exit %s)' % x['rc'])
                         for x in runs[enc]['scenarios'])
    out += ['## The scenarios\' own checks', '',
            'The scenarios assert the fields of their records. Under `off` they assert fields',
            'that `off` does not keep, so their exit status is only recorded: %s.' % status('off'),
            'Under `text`: %s. Under `dict`: %s. (A full `./pkv compare` stops when one'
            % (status('text'), status('dict')),
            'fails under `text` or `dict`.)', '']
    if cover:
        out = cover_text(meta, summary, ring, sizes, stack, trust, cons, frame_warn)
    with open(out_path, 'w') as f:
        f.write('\n'.join(out))


if __name__ == '__main__':
    try:
        main()
    except DataError as e:
        fail(str(e))
