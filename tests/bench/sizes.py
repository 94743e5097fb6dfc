#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Section sizes of the converted code, pristine tree against the series.

usage: sizes.py PRISTINE_OUT SERIES_OUT DIR...
  PRISTINE_OUT, SERIES_OUT  the two kernel build directories (O=)
  DIR                       a converted directory, e.g. net/l2tp

Writes JSON on stdout: "config", the options of SERIES_OUT/.config that
decide these sections and the compiler, and "objects", for every compiled
object of each DIR that both builds have, its sizes in each build. An object linked from
several (mISDN_core.o, whose .mod lists its parts) is left out: its parts
are counted. Categories, from the section headers (readelf -SW):
  text          .text*, .init.text, .exit.text (probe and init code)
  rodata        .rodata*
  dyndbg        __dyndbg* (a struct _ddebug per pr_debug() call site)
  jump_table    __jump_table (a static key entry per dynamic debug site)
  printk_index  .printk_index (a struct pi_entry per printk call site)
  alloc         every allocated section: what the object adds to the image
"""
import json
import os
import subprocess
import sys


def sections(path):
    try:
        out = subprocess.run(['readelf', '-SW', path], check=True, capture_output=True,
                             text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit('sizes.py: %s: readelf failed: %s' % (path, e))
    secs = []
    for line in out.splitlines():
        if not line.lstrip().startswith('[') or ']' not in line:
            continue
        t = line.split(']', 1)[1].split()
        # Name Type Address Off Size ES [Flg] Lk Inf Al
        if len(t) < 9 or t[0] == 'Name':
            continue
        flags = '' if t[6].isdigit() else t[6]
        secs.append((t[0], int(t[4], 16), flags))
    if not secs:
        sys.exit('sizes.py: %s: no section headers' % path)
    return secs


def categorise(path):
    c = dict.fromkeys(('text', 'rodata', 'dyndbg', 'jump_table', 'printk_index', 'alloc'), 0)
    for name, size, flags in sections(path):
        if 'A' not in flags:
            continue
        c['alloc'] += size
        if name.startswith(('.text', '.init.text', '.exit.text')):
            c['text'] += size
        elif name.startswith('.rodata'):
            c['rodata'] += size
        elif name.startswith('__dyndbg'):
            c['dyndbg'] += size
        elif name == '__jump_table':
            c['jump_table'] += size
        elif name == '.printk_index':
            c['printk_index'] += size
    return c


CONFIG_KEYS = ('CONFIG_CC_VERSION_TEXT', 'CONFIG_CC_OPTIMIZE_FOR_SIZE', 'CONFIG_DYNAMIC_DEBUG',
               'CONFIG_FRAME_WARN', 'CONFIG_JUMP_LABEL', 'CONFIG_PRINTK_INDEX')


def config(build):
    """The options of CONFIG_KEYS in BUILD/.config ("n" when not set)."""
    c = dict.fromkeys(CONFIG_KEYS, 'n')
    try:
        with open(os.path.join(build, '.config')) as f:
            for line in f:
                key, eq, value = line.strip().partition('=')
                if eq and key in c:
                    c[key] = value.strip('"')
    except OSError as e:
        sys.exit('sizes.py: %s' % e)
    return c


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    pristine, series, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    out = []
    for d in dirs:
        n = 0
        for name in sorted(os.listdir(os.path.join(series, d))):
            if not name.endswith('.o') or name.endswith('.mod.o'):
                continue
            o = os.path.join(d, name)
            mod = os.path.join(series, o[:-2] + '.mod')
            if os.path.exists(mod):
                with open(mod) as f:
                    if len(f.read().split()) > 1:
                        continue
            if not os.path.exists(os.path.join(pristine, o)):
                continue
            out.append({'subsystem': d, 'object': o,
                        'pristine': categorise(os.path.join(pristine, o)),
                        'series': categorise(os.path.join(series, o))})
            n += 1
        if not n:
            sys.exit('sizes.py: no object of %s in both %s and %s' % (d, pristine, series))
    json.dump({'config': config(series), 'objects': out}, sys.stdout, indent=1)
    print()


if __name__ == '__main__':
    main()
