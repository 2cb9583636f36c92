#!/usr/bin/env python3
"""Summarize bench/compare.sh's raw.csv: medians over rounds, the raw MPI
floor of each row, ratios; writes summary.csv, summary.md, compare.png.

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
    key = (r['np'], r['topo'], r['impl'], r['mpi'], r['shm'], r['target'], r['op'])
    vals[key].append(float(r['value']))
    if r['impl'] != 'floor':
        units[(r['target'], r['op'])] = r['unit']
        order.setdefault((r['target'], r['op']), len(order))
med = {k: statistics.median(v) for k, v in vals.items()}

# The correct raw MPI routes with the same MPI operation as each 8-byte row
# (mpi_route_ops.h); the floor is the fastest of them.
ROUTES = {
    'put8+quiet': ['put+flush'],
    'get8': ['get+flush', 'get+flush_local', 'rget+wait'],
    'g8': ['get+flush', 'get+flush_local', 'rget+wait'],
    'p8': ['put_nbi_rate'], 'put8_rate': ['put_nbi_rate'],
    'atomic_fetch': ['fop_noop+flush', 'fop_noop+flush_local'],
    'atomic_set': ['acc_replace_post'],
    'atomic_swap': ['fop_replace+flush', 'fop_replace+flush_local'],
    'atomic_compare_swap': ['cas+flush', 'cas+flush_local'],
}
for op in ['atomic_fetch_add', 'atomic_fetch_inc']:
    ROUTES[op] = ['fop_sum+flush', 'fop_sum+flush_local']
for op in ['atomic_add', 'atomic_inc']:
    ROUTES[op] = ['acc_sum_post']
for op in ['atomic_fetch_and', 'atomic_fetch_or', 'atomic_fetch_xor']:
    ROUTES[op] = ['fop_band+flush', 'fop_band+flush_local']
for op in ['atomic_and', 'atomic_or', 'atomic_xor']:
    ROUTES[op] = ['acc_band_post']


def floor(np_, topo, mpi, target, op):
    """Floor in the row's unit, or None."""
    if op not in ROUTES:
        return None
    kinds = ['floor_create'] + (['floor_allocate'] if target == 'heap' else [])
    # Between nodes, the floor of the launch without our progress thread
    # (the thread's polling would slow the raw calls too).
    tag = 'nothread' if any(k[:5] == (np_, topo, 'floor', mpi, 'nothread') for k in med) else '-'
    ns = [med[k] for kind in kinds for route in ROUTES[op]
          for k in [(np_, topo, 'floor', mpi, tag, kind, route)] if k in med]
    if not ns:
        return None
    best = min(ns)
    return 1e3 / best if units[(target, op)] == 'M/s' else best


def cost(v, unit):
    return v if unit in ('ns', 's') else 1.0 / v


def ratio(a, b, unit):
    return cost(a, unit) / cost(b, unit) if a and b else None


COLS = [('ours', 'mpich', '1'), ('ours', 'mpich', '0'), ('ours', 'openmpi', '1'),
        ('ours', 'openmpi', '0'), ('oshmpi', 'mpich', '-'), ('oshmem', 'openmpi', '-'),
        ('ours', 'mpich', 'nothread')]
NAMES = ['ours_mpich_shm1', 'ours_mpich_shm0', 'ours_openmpi_shm1', 'ours_openmpi_shm0',
         'oshmpi', 'oshmem', 'ours_mpich_nothread']
hdr = ['np', 'topo', 'target', 'op', 'unit'] + NAMES + [
    'floor_mpich', 'floor_openmpi', 'mpich_vs_oshmpi', 'openmpi_vs_oshmem',
    'mpich_vs_floor', 'openmpi_vs_floor']
rows = []
figs = sorted({(k[0], k[1], k[5], k[6]) for k in med if k[2] != 'floor'},
              key=lambda f: (int(f[0]), f[1], order[(f[2], f[3])]))
for np_, topo, t, op in figs:
    unit = units[(t, op)]
    v = [med.get((np_, topo, i, m, s, t, op)) for i, m, s in COLS]
    fm, fo = floor(np_, topo, 'mpich', t, op), floor(np_, topo, 'openmpi', t, op)
    # Against the floor: the MPI path (shm=0 on one node; between nodes the
    # default, whose off-node traffic is MPI).
    mpich_path = v[0] if topo != 'node' else v[1]
    rows.append([np_, topo, t, op, unit] + v + [fm, fo, ratio(v[0], v[4], unit),
                ratio(v[2], v[5], unit), ratio(mpich_path, fm, unit), ratio(v[3], fo, unit)])


def fmt(x, unit=''):
    if x is None:
        return ''
    if isinstance(x, str):
        return x
    return '%.4g' % x if unit == 's' or abs(x) < 10 else '%.0f' % x


with open(out + '/summary.csv', 'w') as f:
    w = csv.writer(f)
    w.writerow(hdr)
    for r in rows:
        w.writerow([fmt(x, r[4]) if i >= 5 else x for i, x in enumerate(r)])
pw = csv.writer(sys.stdout)
pw.writerow(hdr)
for r in rows:
    pw.writerow([fmt(x, r[4]) if i >= 5 else x for i, x in enumerate(r)])

# Markdown: one table per (np, topology), only the columns that have data.
with open(out + '/summary.md', 'w') as f:
    for np_, topo in sorted({(r[0], r[1]) for r in rows}, key=lambda g: (int(g[0]), g[1])):
        part = [r for r in rows if (r[0], r[1]) == (np_, topo)]
        keep = [i for i in range(5, len(hdr)) if any(r[i] is not None for r in part)]
        where = 'one node' if topo == 'node' else 'two pretend nodes (MPICH)'
        f.write('\n### %s PEs, %s\n\n' % (np_, where))
        f.write('| target | row | unit | ' + ' | '.join(hdr[i] for i in keep) + ' |\n')
        f.write('|' + ' --- |' * (3 + len(keep)) + '\n')
        for r in part:
            f.write('| %s | %s | %s | ' % (r[2], r[3], r[4]) +
                    ' | '.join(fmt(r[i], r[4]) for i in keep) + ' |\n')

try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    groups = sorted({(r[0], r[1]) for r in rows}, key=lambda g: (int(g[0]), g[1]))
    fig, axes = plt.subplots(len(groups), 1, figsize=(16, 4.5 * len(groups)), squeeze=False)
    series = [('mpich_vs_oshmpi', -4), ('openmpi_vs_oshmem', -3), ('mpich_vs_floor', -2),
              ('openmpi_vs_floor', -1)]
    for ax, (np_, topo) in zip(axes[:, 0], groups):
        part = [r for r in rows if (r[0], r[1]) == (np_, topo) and r[2] != 'init']
        width = 0.2
        for j, (name, col) in enumerate(series):
            ys = [r[col] or 0 for r in part]
            if any(ys):
                ax.bar([x + j * width for x in range(len(part))], ys, width, label=name)
        ax.axhline(1.0, color='k', lw=0.8)
        ax.set_yscale('log')
        ax.set_xticks([x + 1.5 * width for x in range(len(part))])
        ax.set_xticklabels([r[2] + ':' + r[3] for r in part], rotation=90, fontsize=6)
        ax.set_ylabel('cost ratio (<1: ours faster)')
        ax.set_title('%s PEs, %s' % (np_, 'one node' if topo == 'node' else 'two pretend nodes'))
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out + '/compare.png', dpi=100)
except ImportError:
    pass
