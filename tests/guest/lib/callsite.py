#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Find the call site of each printk_kv record in printk index.

Records do not carry their call site (docs/FORMAT.md, "Call sites"):
/sys/kernel/debug/printk/index/<module> lists every format with its file,
line and function, and a record's format is found from its module (the
MOD line), its level, its fields (the PRINTK_KV line) and its text.

usage: callsite.py KMSG INDEXDIR OUT.json
  KMSG      /dev/kmsg records as read (header;text, then dictionary lines),
            or /dev/kmsg itself, read to its end
  INDEXDIR  /sys/kernel/debug/printk/index, or a copy of it
  OUT.json  a JSON line per record with a PRINTK_KV line: seq, mod, level,
            indexed (the index holds formats of the module: it is built in,
            or loaded now), text, kv, sites (every "file:line function" that matches) and
            would_src (the bytes " src=FILE:LINE" took in the block, for the
            first site)

The format is taken apart as the header builds it: PREFIX "[kv " BLOCK "] "
MESSAGE, the prefix holding no '[' or '%'. Under printk.kv=text the record
text holds "[kv " PRINTK_KV "]" after the prefix; under dict it does not.
"""
import errno
import json
import os
import re
import sys

DIRECTIVE = re.compile(r'%(%|[-+ #0]*(?:\*|[0-9]+)?(?:\.(?:\*|[0-9]+))?'
                       r'(?:hh|h|ll|l|z|t|j|L)?([diouxXcsp]))')
POINTER_EXT = re.compile(r'[A-Za-z0-9]*')


def unescape_index(s):
    """Undo seq_escape_str(ESCAPE_ANY | ESCAPE_NAP, "\"\\") of index.c."""
    simple = {'n': '\n', 't': '\t', 'r': '\r', 'v': '\v', 'f': '\f',
              'a': '\a', 'e': '\x1b', '\\': '\\', '"': '"', '0': '\0'}
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c != '\\':
            out.append(c)
            i += 1
        elif re.match(r'[0-7]{3}', s[i + 1:i + 4]):
            out.append(chr(int(s[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(simple.get(s[i + 1], s[i + 1]))
            i += 2
    return ''.join(out)


def format_regex(fmt):
    """A printf format as a regular expression over what it prints."""
    parts, pos = [], 0
    for m in DIRECTIVE.finditer(fmt):
        parts.append(re.escape(fmt[pos:m.start()]))
        pos = m.end()
        conv = m.group(2)
        if m.group(1) == '%':
            parts.append('%')
        elif conv in 'di':
            parts.append(r' *-?[0-9]+')
        elif conv == 'u':
            parts.append(r' *[0-9]+')
        elif conv == 'x':
            parts.append(r' *[0-9a-f]+')
        elif conv == 'X':
            parts.append(r' *[0-9A-F]+')
        else:
            if conv == 'p':  # %pV, %pe...: the extension letters follow
                pos += POINTER_EXT.match(fmt, pos).end() - pos
            parts.append('.*?')
    parts.append(re.escape(fmt[pos:]))
    return re.compile(''.join(parts), re.S)


def load_index(indexdir):
    """{module: [entry]}; an entry: level, site, func, prefix, block, msg."""
    line_re = re.compile(r'^<(-?\d+)(?:,c)?> (\S+):(\d+) (\S+) "(.*)"$')
    index = {}
    for name in sorted(os.listdir(indexdir)):
        entries = []
        with open(os.path.join(indexdir, name), encoding='latin-1') as f:
            for line in f:
                m = line_re.match(line.rstrip('\n'))
                if not m:
                    continue
                fmt = unescape_index(m.group(5)).rstrip('\n')
                k = fmt.find('[kv ')
                end = fmt.find(']', k)
                if k < 0 or end < 0 or '%' in fmt[:k] or '[' in fmt[:k]:
                    continue
                mod = re.match(r'mod=([A-Za-z0-9_]+)', fmt[k + 4:])
                entries.append({
                    'mod': mod.group(1) if mod else None,
                    'level': int(m.group(1)),
                    'file': m.group(2), 'line': int(m.group(3)),
                    'func': m.group(4),
                    'prefix': fmt[:k],
                    'block': format_regex(fmt[k + 4:end]),
                    'msg': format_regex(fmt[end + 2:] if fmt[end + 1:end + 2] == ' '
                                        else fmt[end + 1:]),
                })
        index[name] = entries
    return index


def unescape_kmsg(s):
    return re.sub(r'\\x([0-9a-f]{2})', lambda m: chr(int(m.group(1), 16)), s)


def read_kmsg(path):
    """Records as (level, seq, text, {KEY: value}); raw text, latin-1."""
    if path == '/dev/kmsg':
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        chunks = []
        while True:
            try:
                chunks.append(os.read(fd, 8192))
            except OSError as e:
                if e.errno == errno.EAGAIN:
                    break
                if e.errno == errno.EPIPE:  # overwritten: read on
                    continue
                raise
        os.close(fd)
        data = b''.join(chunks)
    else:
        with open(path, 'rb') as f:
            data = f.read()
    records = []
    for line in data.decode('latin-1').split('\n'):
        if line.startswith(' ') and records:
            key, _, value = line[1:].partition('=')
            records[-1][3][key] = unescape_kmsg(value)
        elif ';' in line:
            head, _, text = line.partition(';')
            h = head.split(',')
            records.append((int(h[0]) & 7, int(h[1]), unescape_kmsg(text), {}))
    return records


def human_text(text, kv):
    """The record text without its block, as under printk.kv=dict."""
    for block in ('[kv ' + kv + '] ', '[kv ' + kv + ']'):
        k = text.find(block)
        if k >= 0 and '[' not in text[:k]:
            return text[:k] + text[k + len(block):]
    return text


def sites(index, mod, level, text, kv):
    human = human_text(text, kv)
    found = []
    for name in ('vmlinux', mod):
        for e in index.get(name, []):
            if (e['mod'] == mod and e['level'] in (level, -1) and human.startswith(e['prefix']) and
                    e['block'].fullmatch(kv) and
                    e['msg'].fullmatch(human, len(e['prefix']))):
                found.append(e)
    return found


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    index = load_index(sys.argv[2])
    indexed = {e['mod'] for entries in index.values() for e in entries}
    out = []
    for level, seq, text, d in read_kmsg(sys.argv[1]):
        kv = d.get('PRINTK_KV')
        if kv is None or kv.endswith(' ...'):
            continue
        mod = d.get('MOD')
        found = sites(index, mod, level, text, kv)
        first = found[0] if found else None
        out.append({
            'seq': seq, 'mod': mod, 'level': level,
            'indexed': mod in indexed,
            'text': text, 'kv': kv,
            'sites': ['%s:%d %s' % (e['file'], e['line'], e['func']) for e in found],
            'would_src': (len(' src=%s:%d' % (os.path.basename(first['file']),
                                              first['line'])) if first else None),
        })
    with open(sys.argv[3], 'w') as f:
        for o in out:
            f.write(json.dumps(o) + '\n')


if __name__ == '__main__':
    main()
