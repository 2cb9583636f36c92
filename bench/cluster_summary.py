#!/usr/bin/env python3
"""Summarize bench/cluster_bench.sh's raw.csv: for every MPI, shape and
waiting mode, each of our rows against the raw MPI floor under it
(floor_routes.py), two ways:
  - paired (ratio): in each round, our row against the fastest of its
    routes measured by raw MPI in the same launch, after ours (oshbench
    keeps our progress thread out of MPI there, as if the program had
    none); the median of those per-launch ratios.  A launch's placement
    moves every row of it together (2 namespace nodes on 2 cores: 18-19 us
    or 25-27 us per 8-byte get, by launch), and pairing cancels it;
  - across launches (ratio_floor_launch): the median of our row against
    the median of the floor launches, which ran raw MPI alone with the
    progress thread off and MPI below MPI_THREAD_MULTIPLE.
Spreads are (max - min) / median over the rounds.  A ratio is a cost
ratio whatever the unit (ns: ours / floor; MB/s, M/s: floor / ours), so
1.2 means 20% slower than MPI.  Writes summary.csv and summary.md; lists
the 8-byte rows whose paired ratio is above MAX_RATIO (1.2) last.

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
by_round = {}  # (mpi, shape, wait, launch, target, op, round): value
units, order = {}, {}
for r in csv.DictReader(open(raw)):
    k = (r['mpi'], r['shape'], r['wait'], r['launch'], r['target'], r['op'])
    vals[k].append(float(r['value']))
    by_round[k + (r['round'],)] = float(r['value'])
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


def paired(mpi, shape, wait, target, op):
    """Median over rounds of our row / its fastest route in the same
    launch, and the spread of those ratios."""
    unit, ratios = units[(target, op)], []
    for key, v in by_round.items():
        if key[:6] != (mpi, shape, wait, 'ours', target, op):
            continue
        floors = [by_round.get((mpi, shape, wait, 'ours', kind, route, key[6]))
                  for kind, route in floor_keys(target, op)]
        floors = [1e3 / f if unit == 'M/s' else f for f in floors if f]
        if floors:
            ratios.append(cost(v, unit) / min(cost(f, unit) for f in floors))
    if not ratios:
        return None, None
    m = statistics.median(ratios)
    return m, (max(ratios) - min(ratios)) / m if len(ratios) > 1 else None


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
        rf = cost(med[k], unit) / cost(fv, unit) if fv else None
        ratio, rsp = paired(mpi, shape, wait, target, op)
        row = [mpi, shape, wait, target, op, unit, '%.6g' % med[k],
               '%.3f' % spread[k] if spread[k] is not None else '', len(vals[k]),
               '%.3f' % ratio if ratio else '', '%.3f' % rsp if rsp is not None else '',
               '%.6g' % fv if fv else '', '%.3f' % fsp if fsp is not None else '',
               where or '', '%.3f' % rf if rf else '']
        rows.append(row)
        small = unit != 'MB/s' and target != 'coll'
        if ratio and small and ratio > max_ratio:
            over.append(row)

head = ['mpi', 'shape', 'wait', 'target', 'op', 'unit', 'ours', 'ours_spread', 'rounds',
        'ratio', 'ratio_spread', 'floor', 'floor_spread', 'floor_route',
        'ratio_floor_launch']
with open(os.path.join(out, 'summary.csv'), 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(head)
    w.writerows(rows)
with open(os.path.join(out, 'summary.md'), 'w') as f:
    for mpi, shape, wait in configs:
        f.write('\n### %s, %s, target %s\n\n' % (mpi, shape, wait))
        f.write('| row | unit | ours: median (spread) | ratio, paired (spread) '
                '| floor launches: median (spread) | route | ratio to them |\n')
        f.write('|---|---|---:|---:|---:|---|---:|\n')
        for r in rows:
            if tuple(r[:3]) != (mpi, shape, wait):
                continue
            num = [float(x) if x else None for x in r[6:13]]
            f.write('| %s %s | %s | %s | %s | %s | %s | %s |\n' % (
                r[3], r[4], r[5], fmt(num[0], num[1]),
                fmt(num[3], num[4]) if r[9] else '', fmt(num[5], num[6]) if r[11] else '',
                r[13], r[14]))
print(open(os.path.join(out, 'summary.md')).read())
print('8-byte rows above %.2fx the floor in their launch: %d' % (max_ratio, len(over)))
for r in over:
    print('  %s %s %s %s %s: %s (to the floor launches %s)' % (r[0], r[1], r[2], r[3], r[4],
                                                         r[9], r[14]))
