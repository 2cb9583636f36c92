"""Shared by the summaries of bench/isx.sh and bench/osu.sh.

summary_writer(out) gives a writer whose rows go both to OUT/summary.csv
and to stdout; ratio(a, b) is a/b as printed there, or '' when either
median is missing.

SPDX-License-Identifier: BSD-3-Clause
"""
import csv
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
