#!/usr/bin/env python3
"""Summarize bench/cluster_bench.sh's raw.csv: for every MPI, shape and
waiting mode, each of our rows against the raw MPI floor under it
(floor_routes.py), both as medians over the rounds with their spread
((max - min) / median).  The floor of a row is the fastest of its routes
in the launches that ran the floor alone with the progress thread off
(launch 'floor'): raw MPI with nothing of ours beside it.  The floor rows
of our own launches are reported too (ratio_inlaunch): there our thread
runs beside the raw calls, which do not tell it they are inside MPI, so
it slows them where the target polls MPI itself and speeds them where the
target computes.  A ratio is
a cost ratio whatever the unit (ns: ours / floor; MB/s, M/s: floor / ours),
so 1.2 means 20% slower than MPI.  Writes summary.csv and summary.md; lists
the 8-byte rows above MAX_RATIO (1.2) last.

usage: cluster_summary.py RAW_CSV OUTDIR

SPDX-License-Identifier: BSD-3-Clause
"""
import collections
import csv
import os
import statistics
import sys

from floor_routes import floor_keys

raw, out = sys.argv[1], sys.argv[2]
max_ratio = float(os.environ.get('MAX_RATIO', '1.2'))
os.makedirs(out, exist_ok=True)
vals = collections.defaultdict(list)
units, order = {}, {}
for r in csv.DictReader(open(raw)):
    k = (r['mpi'], r['shape'], r['wait'], r['launch'], r['target'], r['op'])
    vals[k].append(float(r['value']))
    units[(r['target'], r['op'])] = r['unit']
    if r['launch'] == 'ours' and not r['target'].startswith('floor'):
        order.setdefault((r['target'], r['op']), len(order))
med = {k: statistics.median(v) for k, v in vals.items()}
spread = {k: (max(v) - min(v)) / med[k] if len(v) > 1 and med[k] else None
          for k, v in vals.items()}


def cost(v, unit):
    return v if unit == 'ns' else 1.0 / v


def floor_of(mpi, shape, wait, target, op, launches=('floor',)):
    """(value in the row's unit, spread, where) of the row's floor."""
    best = None
    for kind, route in floor_keys(target, op):
        for launch in launches:
            k = (mpi, shape, wait, launch, kind, route)
            if k not in med:
                continue
            v = med[k]
            if units[(target, op)] == 'M/s':  # a rate floored by ns/op
                v = 1e3 / v
            c = cost(v, units[(target, op)])
            if best is None or c < best[0]:
                best = (c, v, spread[k], '%s:%s/%s' % (launch, kind, route))
    return best[1:] if best else (None, None, None)


def fmt(v, sp):
    if v is None:
        return ''
    return '%.4g (%s)' % (v, '%.2f' % sp if sp is not None else '-')


rows, over = [], []
configs = sorted({k[:3] for k in med if k[3] == 'ours'})
for mpi, shape, wait in configs:
    for target, op in sorted(order, key=order.get):
        k = (mpi, shape, wait, 'ours', target, op)
        if k not in med:
            continue
        unit = units[(target, op)]
        fv, fsp, where = floor_of(mpi, shape, wait, target, op)
        ratio = cost(med[k], unit) / cost(fv, unit) if fv else None
        iv = floor_of(mpi, shape, wait, target, op, ('ours',))[0]
        ri = cost(med[k], unit) / cost(iv, unit) if iv else None
        row = [mpi, shape, wait, target, op, unit, '%.6g' % med[k],
               '%.3f' % spread[k] if spread[k] is not None else '', len(vals[k]),
               '%.6g' % fv if fv else '', '%.3f' % fsp if fsp is not None else '',
               where or '', '%.3f' % ratio if ratio else '', '%.3f' % ri if ri else '']
        rows.append(row)
        small = unit != 'MB/s' and target != 'coll'
        if ratio and small and ratio > max_ratio:
            over.append(row)

head = ['mpi', 'shape', 'wait', 'target', 'op', 'unit', 'ours', 'ours_spread', 'rounds',
        'floor', 'floor_spread', 'floor_route', 'ratio', 'ratio_inlaunch']
with open(os.path.join(out, 'summary.csv'), 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(head)
    w.writerows(rows)
with open(os.path.join(out, 'summary.md'), 'w') as f:
    for mpi, shape, wait in configs:
        f.write('\n### %s, %s, target %s\n\n' % (mpi, shape, wait))
        f.write('| row | unit | ours: median (spread) | floor: median (spread) | route | ratio '
                '| ratio to the in-launch floor |\n')
        f.write('|---|---|---:|---:|---|---:|---:|\n')
        for r in rows:
            if tuple(r[:3]) != (mpi, shape, wait):
                continue
            f.write('| %s %s | %s | %s | %s | %s | %s | %s |\n' % (
                r[3], r[4], r[5], fmt(float(r[6]), float(r[7]) if r[7] else None),
                fmt(float(r[9]), float(r[10]) if r[10] else None) if r[9] else '',
                r[11], r[12], r[13]))
print(open(os.path.join(out, 'summary.md')).read())
print('8-byte rows above %.2fx the floor: %d' % (max_ratio, len(over)))
for r in over:
    print('  %s %s %s %s %s: %s' % (r[0], r[1], r[2], r[3], r[4], r[12]))
