#!/bin/sh
# mpishmem against Open MPI's OSHMEM and the raw MPI floor, on this machine.
#
#   sh bench/compare.sh [OUTDIR]
#
# Builds bench/oshbench.c with mpishmem on MPICH and on Open MPI (the
# build-mpich / build-openmpi trees, made if missing) and with oshcc
# (OSHMEM), plus bench/mpi_routes (plain MPI, the floor) with both MPIs.
# Then runs, ROUNDS times, one launch of each in turn, interleaved so that
# load from other processes hits every variant alike:
#   ours-mpich shm=1, ours-openmpi shm=1, ours-mpich shm=0, ours-openmpi
#   shm=0, oshmem, then shmem_init + shmem_finalize with 256 MiB, 2 GiB and
#   8 GiB of heap (ours on each MPI, oshmem), floor-mpich, floor-openmpi
# 2 PEs each, MPISHMEM_YIELD=0 (a waiting PE spins: MPI RMA completes only
# while the target polls).  Prints per-figure medians over the rounds and
# ratios as CSV, writes raw.csv, summary.csv and compare.png to OUTDIR.
#
# Knobs: ROUNDS (5), BENCH_ITERS (2000), BENCH_REPS (5), NP (2), NO_INSTALL=1
# (skip the apt-get step), SUMMARY_ONLY=1 (only summarize OUTDIR/raw.csv).
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:-$root/bench-results}
ROUNDS=${ROUNDS:-5}
NP=${NP:-2}
export BENCH_ITERS=${BENCH_ITERS:-2000} BENCH_REPS=${BENCH_REPS:-5}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"

# Install step: the plot needs matplotlib (Debian python3-matplotlib).
# Debian's python (python3-matplotlib lives there), not a pyenv or venv one.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if [ -z "${NO_INSTALL:-}" ] && ! "$py" -c 'import matplotlib' 2>/dev/null; then
    apt-get install -y python3-matplotlib >/dev/null || echo "compare.sh: no matplotlib, no plot" >&2
fi

raw=$out/raw.csv
# SUMMARY_ONLY=1: summarize an existing OUTDIR/raw.csv again.
if [ -z "${SUMMARY_ONLY:-}" ]; then
build() { # build dir, compiler
    if [ ! -f "$root/$1/build.ninja" ]; then
        CC=$2 meson setup "$root/$1" "$root" >/dev/null
    fi
    nice -n 10 ninja -C "$root/$1" bench/oshbench bench/mpi_routes >/dev/null
}
build build-mpich mpicc.mpich
build build-openmpi mpicc.openmpi
oshcc -O2 -o "$out/oshbench_oshmem" "$here/oshbench.c"

mpich_run="timeout 600 mpiexec.mpich -n $NP"
ompi_run="timeout 600 mpiexec.openmpi --oversubscribe --mca btl_base_warn_component_unused 0 -n $NP"
osh_run="timeout 600 oshrun --allow-run-as-root --oversubscribe --mca opal_common_ucx_opal_mem_hooks 0 -n $NP"

echo "round,impl,mpi,shm,target,op,value,unit" >"$raw"
# run ROUND IMPL MPI SHM command...: keep the benchmark's CSV lines, tagged.
run() {
    r=$1 impl=$2 mpi=$3 shm=$4
    shift 4
    if ! "$@" >"$out/last.out" 2>"$out/last.err"; then
        echo "compare.sh: $impl/$mpi/shm=$shm failed (round $r):" >&2
        tail -5 "$out/last.err" >&2
    fi
    grep -E '^(oshbench|mpi_routes),' "$out/last.out" |
        sed "s/^oshbench,//; s/^mpi_routes,\([^,]*\),\([^,]*\),\([^,]*\),\([^,]*\)$/\1:\2,\3,\4,ns/" |
        sed "s/^/$r,$impl,$mpi,$shm,/" >>"$raw"
}
i=1
while [ "$i" -le "$ROUNDS" ]; do
    echo "compare.sh: round $i of $ROUNDS" >&2
    for shm in 1 0; do
        run "$i" ours mpich "$shm" env MPISHMEM_SHM=$shm MPISHMEM_YIELD=0 $mpich_run "$root/build-mpich/bench/oshbench"
        run "$i" ours openmpi "$shm" env MPISHMEM_SHM=$shm MPISHMEM_YIELD=0 $ompi_run "$root/build-openmpi/bench/oshbench"
    done
    run "$i" oshmem openmpi - $osh_run "$out/oshbench_oshmem"
    # shmem_init + shmem_finalize by heap size (PE 0's clock, no launcher).
    for heap in 256M 2G 8G; do
        init="env BENCH_INIT_ONLY=1 SHMEM_SYMMETRIC_SIZE=$heap"
        run "$i" ours mpich 1 $init $mpich_run "$root/build-mpich/bench/oshbench"
        run "$i" ours openmpi 1 $init $ompi_run "$root/build-openmpi/bench/oshbench"
        run "$i" oshmem openmpi - $init $osh_run "$out/oshbench_oshmem"
    done
    # The floor: raw MPI on windows like ours.  Open MPI: the osc components
    # our windows get (ucx,sm, see mpi_backend/quirks.c).
    routes="ROUTES_KIND=create ROUTES_HINTS=ours+disable_shm_acc ROUTES_ONLY=put+flush,get+flush,fop_noop+flush_local,fop_sum+flush,fop_band+flush,fop_replace+flush,cas+flush_local,acc_sum_post,acc_band_post,acc_replace_post,put_nbi_rate"
    run "$i" floor mpich - env $routes $mpich_run "$root/build-mpich/bench/mpi_routes"
    run "$i" floor openmpi - env $routes OMPI_MCA_osc=ucx,sm $ompi_run "$root/build-openmpi/bench/mpi_routes"
    i=$((i + 1))
done
fi

"$py" - "$raw" "$out" <<'EOF'
import csv, statistics, sys, collections
raw, out = sys.argv[1], sys.argv[2]
vals = collections.defaultdict(list)
units = {}
for r in csv.DictReader(open(raw)):
    key = (r['impl'], r['mpi'], r['shm'], r['target'], r['op'])
    vals[key].append(float(r['value']))
    units[(r['target'], r['op'])] = r['unit']
med = {k: statistics.median(v) for k, v in vals.items()}
def cost(v, unit):  # larger = slower, whatever the unit
    return v if unit in ('ns', 's') else (1.0 / v if v > 0 else float('inf'))
# The raw MPI floor of each 8-byte operation (mpi_routes route names),
# on the window kind of the target: globals and heap are MPI_Win_create.
floor_of = {'put8+quiet': 'put+flush', 'p8': 'put+flush_local', 'get8': 'get+flush',
            'g8': 'get+flush', 'atomic_fetch': 'fop_noop+flush_local',
            'atomic_compare_swap': 'cas+flush_local', 'put8_rate': 'put_nbi_rate'}
# Each AMO against the raw call with its own MPI operation (an MPI may run
# sums, bitwise operations and replace on different paths).
for op in ['atomic_fetch_add', 'atomic_fetch_inc']:
    floor_of[op] = 'fop_sum+flush'
for op in ['atomic_fetch_and', 'atomic_fetch_or', 'atomic_fetch_xor']:
    floor_of[op] = 'fop_band+flush'
floor_of['atomic_swap'] = 'fop_replace+flush'
for op in ['atomic_add', 'atomic_inc']:
    floor_of[op] = 'acc_sum_post'
for op in ['atomic_and', 'atomic_or', 'atomic_xor']:
    floor_of[op] = 'acc_band_post'
floor_of['atomic_set'] = 'acc_replace_post'
rows = []
figs = sorted({(k[3], k[4]) for k in med if k[0] != 'floor'})
cols = [('mpich', '1'), ('mpich', '0'), ('openmpi', '1'), ('openmpi', '0')]
hdr = ['target', 'op', 'unit', 'oshmem'] + ['ours_%s_shm%s' % c for c in cols] + \
      ['ratio_%s_shm%s_vs_oshmem' % c for c in cols] + \
      ['floor_mpich', 'floor_openmpi', 'ratio_mpich_shm0_vs_floor', 'ratio_openmpi_shm0_vs_floor']
w = csv.writer(open(out + '/summary.csv', 'w'))
w.writerow(hdr)
pw = csv.writer(sys.stdout)
pw.writerow(hdr)
plot = []
for t, op in figs:
    unit = units[(t, op)]
    o = med.get(('oshmem', 'openmpi', '-', t, op))
    fmt = '%.4g' if unit == 's' else '%.2f'   # start-up times are small
    row = [t, op, unit, fmt % o if o is not None else '']
    ours = [med.get(('ours', m, s, t, op)) for m, s in cols]
    row += [fmt % v if v is not None else '' for v in ours]
    ratios = []
    for v in ours:
        rr = cost(v, unit) / cost(o, unit) if v and o else None
        ratios.append(rr)
        row.append('%.2f' % rr if rr else '')
    fl = []
    for m in ('mpich', 'openmpi'):
        f = med.get(('floor', m, '-', 'create:ours+disable_shm_acc', floor_of[op])) if op in floor_of and t != 'coll' else None
        fl.append(f)
        row.append('%.2f' % f if f else '')
    for (m, s), f in zip([('mpich', '0'), ('openmpi', '0')], fl):
        v = med.get(('ours', m, s, t, op))
        if v and f:  # the floor is in ns per operation
            row.append('%.2f' % (v / f if unit == 'ns' else 1e3 / (v * f)))
        else:
            row.append('')
    w.writerow(row)
    pw.writerow(row)
    plot.append((t + ':' + op, ratios))
try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(max(12, len(plot) * 0.35), 6))
    width = 0.2
    for i, (m, s) in enumerate(cols):
        ys = [p[1][i] or 0 for p in plot]
        ax.bar([x + i * width for x in range(len(plot))], ys, width, label='mpishmem %s shm=%s' % (m, s))
    ax.axhline(1.0, color='k', lw=0.8)
    ax.set_yscale('log')
    ax.set_xticks([x + 1.5 * width for x in range(len(plot))])
    ax.set_xticklabels([p[0] for p in plot], rotation=90, fontsize=7)
    ax.set_ylabel('cost relative to Open MPI OSHMEM (<1: faster)')
    ax.set_title('mpishmem vs OSHMEM, 2 PEs, medians of interleaved runs')
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out + '/compare.png', dpi=110)
except ImportError:
    pass
EOF
echo "compare.sh: $out/raw.csv, $out/summary.csv, $out/compare.png" >&2
