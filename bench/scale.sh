#!/bin/sh
# Start-up, memory and quiet as the job grows (issue 19): mpishmem against
# Open MPI's OSHMEM, on this machine, oversubscribed.
#
#   sh bench/scale.sh [OUTDIR]
#
# Builds bench/scale.c with mpishmem on MPICH and on Open MPI (the
# BUILD_MPICH / BUILD_OPENMPI trees, made if missing) and with Debian's
# Open MPI oshcc (OSHMEM).  Then, for each NP in NPS, runs ROUNDS times one
# launch of each in turn, round by round, so that load from other processes
# hits every variant alike:
#   ours_mpich, ours_openmpi (MPISHMEM_SHM=1, the default), oshmem,
#   ours_mpich_shm0, ours_openmpi_shm0 (MPISHMEM_SHM=0: every put and quiet
#   on the MPI path, as between nodes)
# Every variant gets SHMEM_SYMMETRIC_SIZE=$HEAP (the benchmark needs a few
# kB; 128 PEs times our 256 MiB default is more than this node's memory,
# which mpishmem refuses at start-up).  Our PEs wait as they do by default
# (they yield the core when PEs outnumber cores); nobody's waiting is tuned.
# Every launch runs under `timeout` (which signals its own process group,
# the launcher and its PEs; KILL 10 s later); one that fails or times out is
# recorded as missing (figure "missing" in raw.csv, its stderr kept as
# failed-IMPL-npNP-roundR.err) and the run goes on; the figures it printed
# before it failed stay in raw.csv and count in the medians.
# The figures are bench/scale.c's (shmem_init time, memory per PE after
# init and at the end, quiet after puts), plus launch_wall, the whole
# launch in seconds as the shell sees it.
# Writes raw.csv, summary.csv (the median over rounds per impl/NP/figure,
# and the ratios ours/OSHMEM) and scale.png (init time and
# memory against NP) to OUTDIR, and prints the summary.
#
# Knobs: NPS ("2 8 32 64 128"), ROUNDS (3), TIMEOUT (seconds per launch,
# 300), HEAP (64M), SCALE_ITERS (20000 operations per sample, shm on),
# SHM0_ITERS (2000: with MPISHMEM_SHM=0, whose puts are MPI RMA, a sample
# is max(16, SHM0_ITERS / NP) operations), SCALE_REPS (11; 5 with
# MPISHMEM_SHM=0), IMPLS (the variants to run, names
# as above), BUILD_MPICH (build-mpich), BUILD_OPENMPI (build-openmpi),
# NO_INSTALL=1 (skip the apt-get step),
# SUMMARY_ONLY=1 (only summarize OUTDIR/raw.csv).
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:-$root/bench-results/scale}
NPS=${NPS:-2 8 32 64 128}
ROUNDS=${ROUNDS:-3}
TIMEOUT=${TIMEOUT:-300}
HEAP=${HEAP:-64M}
SCALE_ITERS=${SCALE_ITERS:-20000}
SHM0_ITERS=${SHM0_ITERS:-2000}
SCALE_REPS=${SCALE_REPS:-11}
IMPLS=${IMPLS:-ours_mpich ours_openmpi oshmem ours_mpich_shm0 ours_openmpi_shm0}
BUILD_MPICH=${BUILD_MPICH:-$root/build-mpich}
BUILD_OPENMPI=${BUILD_OPENMPI:-$root/build-openmpi}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"

bench=scale.sh
. "$here/bench_common.sh"
bench_python

raw=$out/raw.csv
if [ -z "${SUMMARY_ONLY:-}" ]; then
for impl in $IMPLS; do
    case $impl in
    ours_mpich*) bench_build "$BUILD_MPICH" mpicc.mpich bench/scale ;;
    ours_openmpi*) bench_build "$BUILD_OPENMPI" mpicc.openmpi bench/scale ;;
    oshmem) oshcc -O2 -o "$out/scale_oshmem" "$here/scale.c" ;;
    *) echo "scale.sh: unknown variant $impl" >&2; exit 1 ;;
    esac
done

mpich_run="mpiexec.mpich -n"
ompi_run="mpiexec.openmpi --allow-run-as-root --oversubscribe --mca btl_base_warn_component_unused 0 -n"
osh_run="oshrun --allow-run-as-root --oversubscribe --mca opal_common_ucx_opal_mem_hooks 0 -n"

echo "round,impl,np,figure,value,unit" >"$raw"
# run ROUND IMPL NP: one launch, its CSV lines tagged; missing when it fails.
run() {
    r=$1 impl=$2 np=$3
    shm0_iters=$((SHM0_ITERS / np))
    [ "$shm0_iters" -ge 16 ] || shm0_iters=16
    case $impl in
    ours_mpich) cmd="env MPISHMEM_SHM=1 SCALE_ITERS=$SCALE_ITERS SCALE_REPS=$SCALE_REPS $mpich_run $np $BUILD_MPICH/bench/scale" ;;
    ours_openmpi) cmd="env MPISHMEM_SHM=1 SCALE_ITERS=$SCALE_ITERS SCALE_REPS=$SCALE_REPS $ompi_run $np $BUILD_OPENMPI/bench/scale" ;;
    ours_mpich_shm0) cmd="env MPISHMEM_SHM=0 SCALE_ITERS=$shm0_iters SCALE_REPS=5 $mpich_run $np $BUILD_MPICH/bench/scale" ;;
    ours_openmpi_shm0) cmd="env MPISHMEM_SHM=0 SCALE_ITERS=$shm0_iters SCALE_REPS=5 $ompi_run $np $BUILD_OPENMPI/bench/scale" ;;
    oshmem) cmd="env SCALE_ITERS=$SCALE_ITERS SCALE_REPS=$SCALE_REPS $osh_run $np $out/scale_oshmem" ;;
    esac
    # Open MPI 4.1's OSHMEM reads only the older SMA_ name.
    cmd="env SHMEM_SYMMETRIC_SIZE=$HEAP SMA_SYMMETRIC_SIZE=$HEAP ${cmd#env }"
    t0=$(date +%s.%N)
    rc=0
    timeout -k 10 "$TIMEOUT" $cmd >"$out/last.out" 2>"$out/last.err" </dev/null || rc=$?
    wall=$(echo "$(date +%s.%N) - $t0" | bc)
    if [ "$rc" -ne 0 ]; then
        echo "scale.sh: $impl np=$np failed, rc $rc (round $r):" >&2
        cp "$out/last.err" "$out/failed-$impl-np$np-round$r.err"
        grep -v -e '^-*$' -e 'avoid this message' "$out/last.err" | tail -3 >&2
        echo "$r,$impl,$np,missing,$rc,rc" >>"$raw"
    fi
    grep -E '^scale,' "$out/last.out" | sed "s/^scale,/$r,$impl,$np,/" >>"$raw" || true
    [ "$rc" -ne 0 ] || echo "$r,$impl,$np,launch_wall,$wall,s" >>"$raw"
    echo "scale.sh: round $r $impl np=$np rc=$rc ${wall}s" >&2
}
for np in $NPS; do
    i=1
    while [ "$i" -le "$ROUNDS" ]; do
        for impl in $IMPLS; do
            run "$i" "$impl" "$np"
        done
        i=$((i + 1))
    done
done
fi

"$py" - "$raw" "$out" <<'EOF'
import csv, statistics, sys, collections
raw, out = sys.argv[1], sys.argv[2]
vals = collections.defaultdict(list)
units, missing = {}, collections.Counter()
impls, nps, figs = [], set(), []
for r in csv.DictReader(open(raw)):
    if r['impl'] not in impls:
        impls.append(r['impl'])
    nps.add(int(r['np']))
    if r['figure'] == 'missing':
        missing[(r['impl'], int(r['np']))] += 1
        continue
    if r['figure'] == 'npes':
        continue
    if r['figure'] not in figs:
        figs.append(r['figure'])
    vals[(r['impl'], int(r['np']), r['figure'])].append(float(r['value']))
    units[r['figure']] = r['unit']
med = {k: statistics.median(v) for k, v in vals.items()}
ours = [i for i in impls if i.startswith('ours')]
peers = [p for p in ('oshmem',) if p in impls]
hdr = ['figure', 'unit', 'np'] + impls + ['ratio_%s_vs_%s' % (o, p) for o in ours for p in peers]
w = csv.writer(open(out + '/summary.csv', 'w'))
pw = csv.writer(sys.stdout)
fmt = lambda v: '' if v is None else '%.4g' % v
for wr in (w, pw):
    wr.writerow(hdr)
for f in figs:
    for np in sorted(nps):
        row = [f, units[f], np] + [fmt(med.get((i, np, f))) for i in impls]
        for o in ours:
            for p in peers:
                a, b = med.get((o, np, f)), med.get((p, np, f))
                row.append('%.2f' % (a / b) if a is not None and b else '')
        for wr in (w, pw):
            wr.writerow(row)
for (i, np), n in sorted(missing.items()):
    print('missing: %s at %d PEs, %d launch(es)' % (i, np, n))
try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    panels = [('init_max', 'shmem_init, max over PEs (ms)'),
              ('rss_end_median', 'VmRSS per PE at the end, median (kB)'),
              ('pss_end_median', 'PSS per PE at the end, median (kB)'),
              ('quiet_put1', 'put to 1 PE + quiet (ns)')]
    fig, axs = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4.5))
    for ax, (f, title) in zip(axs, panels):
        for i in impls:
            pts = [(np, med[(i, np, f)]) for np in sorted(nps) if (i, np, f) in med]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker='o', label=i)
        ax.set_xscale('log', base=2)
        ax.set_yscale('log')
        ax.set_xlabel('PEs (2 cores, oversubscribed)')
        ax.set_title(title, fontsize=9)
    if axs[0].get_legend_handles_labels()[0]:
        axs[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out + '/scale.png', dpi=100)
except ImportError:
    pass
EOF
echo "scale.sh: $out/raw.csv, $out/summary.csv, $out/scale.png" >&2
