"""Shared by the summaries of bench/isx.sh, bench/npb_mg.sh and bench/osu.sh.

summary_writer(out) gives a writer whose rows go both to OUT/summary.csv
and to stdout; ratio(a, b) is a/b as printed there, or '' when either
median is missing; verified_medians(raw, keys, fields) reads a raw.csv
whose launches carry a 'verify' column.

SPDX-License-Identifier: BSD-3-Clause
"""
import collections
import csv
import statistics
import sys


class _Both:
    def __init__(self, out):
        self._file = csv.writer(open(out + '/summary.csv', 'w'))
        self._shown = csv.writer(sys.stdout)

    def writerow(self, row):
        self._file.writerow(row)
        self._shown.writerow(row)


def summary_writer(out):
    return _Both(out)


def ratio(a, b):
    return '%.2f' % (a / b) if a is not None and b else ''


def verified_medians(raw, keys, fields):
    """Per key (the values of the columns in keys, in first-seen order):
    the launches seen, the launches verified ('verify' == 'ok'), and the
    median of each column in fields over the verified ones, as
    med[key + (field,)]."""
    vals = collections.defaultdict(list)
    runs, order = collections.Counter(), []
    for r in csv.DictReader(open(raw)):
        k = tuple(r[c] for c in keys)
        if k not in order:
            order.append(k)
        runs[k] += 1
        if r['verify'] == 'ok':
            for f in fields:
                vals[k + (f,)].append(float(r[f]))
    ok = {k: len(vals.get(k + (fields[0],), [])) for k in order}
    med = {k: statistics.median(v) for k, v in vals.items()}
    return order, runs, ok, med
