# SPDX-License-Identifier: GPL-2.0
"""Markdown tables for the measured documents (compare.py, bench.py): a
cell is a label or a number, and a table with an empty or non-numeric
cell is refused, not written."""
import math
import re
import sys


def fail(prog, msg):
    sys.exit('%s: %s' % (prog, msg))


class Table:
    """A markdown table. Cells are strings (labels, and figures already
    formatted) or numbers: an int prints as is, a float with 2 decimals;
    None, a bool, NaN or an infinity, or an empty string, is refused."""

    def __init__(self, name, head, prog='mdtable'):
        self.name, self.head, self.rows, self.prog = name, head, [], prog

    def row(self, label, *cells):
        out = [label]
        for c in cells:
            if isinstance(c, str):
                # A figure formatted before it got here must still be one.
                if re.search(r'\b(nan|inf)\b', c, re.IGNORECASE):
                    fail(self.prog, '%s: row %r: cell %r is not a number' % (self.name, label, c))
                out.append(c)
                continue
            if c is None or isinstance(c, bool) or not math.isfinite(c):
                fail(self.prog, '%s: row %r: cell %r is not a number' % (self.name, label, c))
            out.append('%d' % c if isinstance(c, int) else '%.2f' % float(c))
        for c in out:
            if c == '':
                fail(self.prog, '%s: row %r: an empty cell' % (self.name, label))
        if len(out) != len(self.head):
            fail(self.prog, '%s: row %r: %d cells for %d columns'
                 % (self.name, label, len(out), len(self.head)))
        self.rows.append(out)

    def lines(self):
        if not self.rows:
            fail(self.prog, '%s: no row' % self.name)
        # A | inside a cell would end it.
        return (['| ' + ' | '.join(self.head) + ' |', '|' + ' --- |' * len(self.head)]
                + ['| ' + ' | '.join(re.sub(r'(?<!\\)\|', r'\\|', c) for c in r) + ' |'
                   for r in self.rows] + [''])
