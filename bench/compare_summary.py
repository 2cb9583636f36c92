#!/usr/bin/env python3
"""Summarize bench/compare.sh's raw.csv: medians over rounds with their
spread ((max - min) / median, over the rounds), the raw MPI floor of each
row, ratios; writes summary.csv, summary.md, compare.png.

usage: compare_summary.py RAW_CSV OUTDIR

A ratio is a cost ratio whatever the unit (ns: ours / theirs; MB/s and
M/s: theirs / ours), so below 1 means mpishmem is faster.

SPDX-License-Identifier: BSD-3-Clause
"""
import collections
import csv
import os
import statistics
import sys

raw, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
vals = collections.defaultdict(list)
units = {}
order = {}  # rows in the order the benchmark prints them
for r in csv.DictReader(open(raw)):
    key = (r['np'], r['topo'], r['impl'], r['mpi'], r['variant'], r['target'], r['op'])
    vals[key].append(float(r['value']))
    if r['impl'] != 'floor':
        units[(r['target'], r['op'])] = r['unit']
        order.setdefault((r['target'], r['op']), len(order))
med = {k: statistics.median(v) for k, v in vals.items()}
# Spread over the rounds: (max - min) / median; None with fewer than 2.
spread = {k: (max(v) - min(v)) / med[k] if len(v) > 1 and med[k] else None
          for k, v in vals.items()}

# The raw MPI routes under each 8-byte row (floor_routes.py); the floor
# is the fastest of them.
from floor_routes import ROUTES  # noqa: E402


def floor(np_, topo, mpi, target, op):
    """(floor in the row's unit, its spread), or (None, None)."""
    if op not in ROUTES:
        return None, None
    kinds = ['floor_create'] + (['floor_allocate'] if target == 'heap' else [])
    # One launch per (np, topology, MPI) measures it (compare.sh): with
    # MPISHMEM_SHM=0 on one node, without the progress thread between nodes.
    ks = [k for kind in kinds for route in ROUTES[op]
          for k in [(np_, topo, 'floor', mpi, '-', kind, route)] if k in med]
    ns = [med[k] for k in ks]
    if not ns:
        return None, None
    k = min(ks, key=lambda k: med[k])
    best = med[k]
    return (1e3 / best if units[(target, op)] == 'M/s' else best), spread[k]


def cost(v, unit):
    return v if unit in ('ns', 's') else 1.0 / v


def ratio(a, b, unit):
    return cost(a, unit) / cost(b, unit) if a and b else None


# (impl, MPI, variant) and the column's name: every name that is not a
# plain implementation names the setting that differs from the defaults.
COLS = [('ours', 'mpich', 'default'), ('ours', 'openmpi', 'default'), ('oshmem', 'openmpi', 'default'),
        ('ours', 'mpich', 'shm0'), ('ours', 'openmpi', 'shm0'), ('ours', 'mpich', 'spin'),
        ('ours', 'mpich', 'nothread'), ('ours', 'mpich', 'multiple')]
NAMES = ['ours_mpich', 'ours_openmpi', 'oshmem', 'ours_mpich_shm0', 'ours_openmpi_shm0',
         'ours_mpich_spin', 'ours_mpich_nothread', 'ours_mpich_multiple']
RATIOS = ['mpich_vs_oshmem', 'openmpi_vs_oshmem', 'mpich_vs_floor', 'openmpi_vs_floor',
          'mpich_spin_vs_floor', 'mpich_multiple_vs_nothread']
VALUES = NAMES + ['floor_mpich', 'floor_openmpi']
hdr = ['np', 'topo', 'target', 'op', 'unit'] + [
    c for n in VALUES for c in (n, n + '_spread')] + RATIOS
rows = []
missing = []
figs = sorted({(k[0], k[1], k[5], k[6]) for k in med if k[2] != 'floor'},
              key=lambda f: (int(f[0]), f[1], order[(f[2], f[3])]))
for np_, topo, t, op in figs:
    unit = units[(t, op)]
    keys = [(np_, topo, i, m, s, t, op) for i, m, s in COLS]
    v = [med.get(k) for k in keys]
    sp = [spread.get(k) for k in keys]
    fm, fm_sp = floor(np_, topo, 'mpich', t, op)
    fo, fo_sp = floor(np_, topo, 'openmpi', t, op)
    for k, x, y in zip(keys, v, sp):
        if x is not None and y is None:
            missing.append('%s PEs %s %s %s %s/%s' % (np_, topo, t, op, k[2], k[4]))
    # Against the floor: the MPI path (shm0 on one node; between nodes the
    # default, whose off-node traffic is MPI).
    mpich_path = v[0] if topo != 'node' else v[3]
    vs = v + [fm, fo]
    sps = sp + [fm_sp, fo_sp]
    rows.append([np_, topo, t, op, unit] + [c for x, y in zip(vs, sps) for c in (x, y)] + [
        ratio(v[0], v[2], unit), ratio(v[1], v[2], unit),
        ratio(mpich_path, fm, unit), ratio(v[4], fo, unit), ratio(v[5], fm, unit),
        ratio(v[7], v[6], unit)])
if missing:
    sys.stderr.write('compare_summary.py: %d row(s) measured in fewer than 2 rounds, no '
                     'spread: %s\n' % (len(missing), '; '.join(missing[:8])))

def fmt(x, unit=''):
    if x is None:
        return ''
    if isinstance(x, str):
        return x
    if unit == '%':
        return '%.0f%%' % (100 * x)
    return '%.4g' % x if unit == 's' or abs(x) < 10 else '%.0f' % x


def cells(r):
    return [fmt(x, '%' if hdr[i].endswith('_spread') else r[4]) if i >= 5 else x
            for i, x in enumerate(r)]


with open(out + '/summary.csv', 'w') as f:
    w = csv.writer(f)
    w.writerow(hdr)
    for r in rows:
        w.writerow(cells(r))
pw = csv.writer(sys.stdout)
pw.writerow(hdr)
for r in rows:
    pw.writerow(cells(r))

# Markdown: one table per (np, topology), only the columns that have data;
# each median with its spread beside it.
with open(out + '/summary.md', 'w') as f:
    for np_, topo in sorted({(r[0], r[1]) for r in rows}, key=lambda g: (int(g[0]), g[1])):
        part = [r for r in rows if (r[0], r[1]) == (np_, topo)]
        keep = [i for i in range(5, len(hdr)) if not hdr[i].endswith('_spread') and
                any(r[i] is not None for r in part)]
        where = 'one node' if topo == 'node' else 'two pretend nodes (MPICH)'
        f.write('\n### %s PEs, %s\n\n' % (np_, where))
        f.write('| target | row | unit | ' + ' | '.join(hdr[i] for i in keep) + ' |\n')
        f.write('|' + ' --- |' * (3 + len(keep)) + '\n')
        for r in part:
            c = cells(r)
            f.write('| %s | %s | %s | ' % (r[2], r[3], r[4]) + ' | '.join(
                c[i] + (' (%s)' % c[i + 1] if i + 1 < len(hdr) and
                        hdr[i + 1].endswith('_spread') and c[i + 1] else '')
                for i in keep) + ' |\n')

try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    groups = sorted({(r[0], r[1]) for r in rows}, key=lambda g: (int(g[0]), g[1]))
    fig, axes = plt.subplots(len(groups), 1, figsize=(16, 4.5 * len(groups)), squeeze=False)
    series = [(name, hdr.index(name)) for name in RATIOS]
    for ax, (np_, topo) in zip(axes[:, 0], groups):
        part = [r for r in rows if (r[0], r[1]) == (np_, topo) and r[2] != 'init']
        width = 0.8 / len(series)
        for j, (name, col) in enumerate(series):
            ys = [r[col] or 0 for r in part]
            if any(ys):
                ax.bar([x + j * width for x in range(len(part))], ys, width, label=name)
        ax.axhline(1.0, color='k', lw=0.8)
        ax.set_yscale('log')
        ax.set_xticks([x + (len(series) - 1) / 2 * width for x in range(len(part))])
        ax.set_xticklabels([r[2] + ':' + r[3] for r in part], rotation=90, fontsize=6)
        ax.set_ylabel('cost ratio (<1: ours faster)')
        ax.set_title('%s PEs, %s' % (np_, 'one node' if topo == 'node' else 'two pretend nodes'))
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out + '/compare.png', dpi=100)
except ImportError:
    pass
