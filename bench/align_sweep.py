"""Summary of bench/align_sweep.sh: align_sweep.py RAW OUT.

RAW rows: round,align_sweep,LABEL,OP,SIZE,POFF,SOFF,MEDIAN,MIN,MAX,FLOOR.
Writes OUT/summary.csv (per label, op, size, offset pair: median over
launches of the launch medians, the floor likewise, their ratio),
OUT/summary.md (per op and size: the median ratio over the 36 offset
pairs and the worst, with its offsets, one column pair per label) and
OUT/align_sweep.png (heat map of the ratio to the floor), or
OUT/heatmap.txt when matplotlib is missing.

SPDX-License-Identifier: BSD-3-Clause
"""
import collections
import csv
import statistics
import sys

raw, out = sys.argv[1], sys.argv[2]
OPS = ['put', 'put_nbi', 'get', 'get_nbi']
vals = collections.defaultdict(list)
floors = collections.defaultdict(list)
for r in csv.reader(open(raw)):
    if len(r) != 11 or r[1] != 'align_sweep':
        continue
    key = (r[2], r[3], int(r[4]), int(r[5]), int(r[6]))
    vals[key].append(float(r[7]))
    floors[key].append(float(r[10]))
labels = sorted({k[0] for k in vals})
sizes = sorted({k[2] for k in vals})
offs = sorted({k[3] for k in vals})
ratio = {}
with open(out + '/summary.csv', 'w') as f:
    w = csv.writer(f)
    w.writerow(['label', 'op', 'size', 'poff', 'soff', 'median_ns', 'floor_ns', 'ratio',
                'launches'])
    for k in sorted(vals):
        m, fl = statistics.median(vals[k]), statistics.median(floors[k])
        if k[1] in OPS:
            ratio[k] = m / fl
        w.writerow(list(k) + ['%.1f' % m, '%.1f' % fl,
                              '%.2f' % (m / fl) if k[1] in OPS else '', len(vals[k])])


def worst(label, op, size):
    cells = [(ratio[(label, op, size, p, s)], p, s) for p in offs for s in offs
             if (label, op, size, p, s) in ratio]
    if not cells:
        return '', ''
    med = statistics.median(c[0] for c in cells)
    r, p, s = max(cells)
    return '%.2f' % med, '%.2f (p%d s%d)' % (r, p, s)


with open(out + '/summary.md', 'w') as f:
    f.write('| op | size | ' + ' | '.join('%s median | %s worst (offsets)' % (l, l)
                                          for l in labels) + ' |\n')
    f.write('|---|---:|' + '---:|---|' * len(labels) + '\n')
    for op in OPS:
        for z in sizes:
            cols = []
            for l in labels:
                cols += worst(l, op, z)
            f.write('| %s | %d | %s |\n' % (op, z, ' | '.join(cols)))
print(open(out + '/summary.md').read())

pairs = [(p, s) for p in offs for s in offs]
try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    from matplotlib.colors import LogNorm
except ImportError:
    with open(out + '/heatmap.txt', 'w') as f:
        marks = ' .:-=+*#%@'
        LIMITS = [1.1, 1.25, 1.5, 3, 6, 12, 24, 48, 96]
        for l in labels:
            for op in OPS:
                f.write('%s %s: rows p/s offsets, columns sizes %s; ' % (l, op, sizes) +
                        'ratio to memcpy: "%s" at limits %s\n' % (marks, LIMITS))
                for p, s in pairs:
                    row = ''
                    for z in sizes:
                        r = ratio.get((l, op, z, p, s))
                        i = 0 if r is None else sum(r >= lim for lim in LIMITS)
                        row += marks[i]
                    f.write('  p%-4d s%-4d |%s|\n' % (p, s, row))
    sys.exit(0)

fig, axes = plt.subplots(len(labels), len(OPS), figsize=(4 * len(OPS), 7 * len(labels)),
                         squeeze=False)
for i, l in enumerate(labels):
    for j, op in enumerate(OPS):
        ax = axes[i][j]
        m = [[ratio.get((l, op, z, p, s), float('nan')) for z in sizes] for p, s in pairs]
        im = ax.imshow(m, aspect='auto', cmap='viridis', norm=LogNorm(vmin=0.8, vmax=20))
        ax.set_title('%s %s' % (l, op), fontsize=9)
        ax.set_xticks(range(len(sizes)))
        ax.set_xticklabels([('%dK' % (z >> 10)) if z >= 1024 else str(z) for z in sizes],
                           rotation=90, fontsize=6)
        ax.set_yticks(range(len(pairs)))
        ax.set_yticklabels(['p%d s%d' % ps for ps in pairs], fontsize=5)
        for y, row in enumerate(m):
            for x, r in enumerate(row):
                if r == r and r >= 1.5:
                    ax.text(x, y, '%.0f' % r if r >= 10 else '%.1f' % r, ha='center',
                            va='center', fontsize=4, color='white')
fig.colorbar(im, ax=axes, shrink=0.5, label='ratio to memcpy between the same buffers')
fig.savefig(out + '/align_sweep.png', dpi=80)
