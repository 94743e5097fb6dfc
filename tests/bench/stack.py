#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Stack usage per function from -fstack-usage output, pristine against
the series, gcc and clang (tests/bench/stack.sh builds them).

usage: stack.py ROOT SRC_DIR PRISTINE_DIR DIR...
  ROOT          $PKV_CACHE/stack: gcc-pristine/, gcc-series/,
                clang-pristine/, clang-series/, each with DIR/*.su
  SRC_DIR, PRISTINE_DIR  the two source trees, stripped from the paths
  DIR           a converted directory, e.g. net/l2tp

Writes JSON on stdout:
  compilers  {gcc, clang}: the version line of each
  functions  a line per compiler and function of a converted directory
             (and of a header compiled into it, where that changed):
             {compiler, subsystem, file, function, pristine, series,
              unbounded}; pristine or series is null where the function is
             not in that build (new, removed, or inlined there); unbounded
             when either build says "dynamic" without "bounded" (a frame
             the compiler cannot bound: a variable-length array or alloca;
             gcc's "dynamic,bounded" is a frame that pushes call arguments)
A function's name drops gcc's clone suffixes (.isra.0, .constprop.0,
.part.0, .cold): a clone is counted as its function, the largest frame of
the function and its clones kept, so that a clone made in one build and
not the other does not read as a new function.
"""
import json
import os
import re
import subprocess
import sys

CLONE = re.compile(r'(\.(isra|constprop|part|cold|lto_priv)(\.\d+)?)+$')


def version(cc):
    try:
        return subprocess.run([cc, '--version'], check=True, capture_output=True,
                              text=True).stdout.splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError) as e:
        sys.exit('stack.py: %s --version: %s' % (cc, e))


def read_su(build, d, trees):
    """(file, function) -> (bytes, dynamic) for the .su files of build/d."""
    out = {}
    path = os.path.join(build, d)
    names = sorted(n for n in os.listdir(path) if n.endswith('.su')) if os.path.isdir(path) else []
    if not names:
        sys.exit('stack.py: no .su file in %s' % path)
    for name in names:
        with open(os.path.join(path, name)) as f:
            for n, line in enumerate(f, 1):
                parts = line.rstrip('\n').split('\t')
                if len(parts) != 3 or not parts[1].isdigit():
                    sys.exit('stack.py: %s/%s:%d: not "LOCATION\\tBYTES\\tQUALIFIER": %r'
                             % (path, name, n, line))
                loc, size, qual = parts
                src, _, func = loc.rpartition(':')
                src = src.split(':')[0]
                for t in trees:
                    if src.startswith(t + '/'):
                        src = src[len(t) + 1:]
                func = CLONE.sub('', func)
                key = (src, func)
                prev = out.get(key, (0, False))
                unbounded = 'dynamic' in qual and 'bounded' not in qual
                out[key] = (max(prev[0], int(size)), prev[1] or unbounded)
    return out


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    root, src_dir, pristine_dir, dirs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    trees = (os.path.realpath(src_dir), src_dir, os.path.realpath(pristine_dir), pristine_dir)
    funcs = []
    for cc in ('gcc', 'clang'):
        for d in dirs:
            before = read_su(os.path.join(root, cc + '-pristine'), d, trees)
            after = read_su(os.path.join(root, cc + '-series'), d, trees)
            for key in sorted(set(before) | set(after)):
                b, a = before.get(key), after.get(key)
                # Header functions compiled into the directory's objects
                # count only where they changed.
                if not key[0].startswith(d + '/') and b == a:
                    continue
                funcs.append({'compiler': cc, 'subsystem': d, 'file': key[0], 'function': key[1],
                              'pristine': b[0] if b else None, 'series': a[0] if a else None,
                              'unbounded': bool((b and b[1]) or (a and a[1]))})
    # A function per line: the file is kept in the repository, and diffs
    # between runs read per function.
    print('{"compilers": %s, "functions": [' % json.dumps({cc: version(cc) for cc in ('gcc', 'clang')}))
    print(',\n'.join(json.dumps(f) for f in funcs))
    print(']}')


if __name__ == '__main__':
    main()
