#!/bin/sh
# Large collectives (bench/coll_big.c: collect, fcollect, broadcast at 64
# KiB and 1 MiB per PE, reduce at 1 KiB, 64 KiB and 1 MiB; active-set and
# team forms, timed as the OSU OpenSHMEM benchmarks time them): mpishmem on
# MPICH and on Open MPI against Open MPI's OSHMEM, one node, interleaved
# launches.
#
#   sh bench/coll_big.sh [OUTDIR]
#
# Builds bench/coll_big in build-mpich and build-openmpi (made if missing)
# and with Debian's oshcc (OSHMEM 1.4: active-set rows only; run by oshrun
# with --mca opal_common_ucx_opal_mem_hooks 0), then ROUNDS times one
# launch of each variant in turn, for each NP in NPS.  Output in OUTDIR
# (default bench-results/coll_big): raw.csv (round, np, impl, form, op,
# bytes, ns) and summary.csv, printed too: per row the median ns of each
# variant over the rounds with its spread ((max - min) / median) and the
# ratio ours / OSHMEM.
#
# MPI_ROUTE=1 adds ours_mpich_mpi and ours_openmpi_mpi: the same programs
# with MPISHMEM_BARRIER=mpi, which sends every collective to MPI's (the
# route large ones took before they copied directly on one node).
#
# Knobs: ROUNDS (5), NPS ("2"), BENCH_REPS (5 batches in a launch, the
# median kept), LAUNCH_TIMEOUT (seconds per launch, 300), NO_BUILD=1.
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:-$root/bench-results/coll_big}
ROUNDS=${ROUNDS:-5}
NPS=${NPS:-2}
LAUNCH_TIMEOUT=${LAUNCH_TIMEOUT:-300}
export SHMEM_SYMMETRIC_SIZE=64M OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bench=coll_big.sh
NO_INSTALL=1
. "$here/bench_common.sh"
bench_python
bench_outdir "$out"
impls="ours_mpich ours_openmpi oshmem"
[ "${MPI_ROUTE:-}" != 1 ] || impls="$impls ours_mpich_mpi ours_openmpi_mpi"

launch() {
    np=$1
    case $2 in
    *_mpi) export MPISHMEM_BARRIER=mpi ;;
    *) unset MPISHMEM_BARRIER ;;
    esac
    case ${2%_mpi} in
    ours_mpich) timeout "$LAUNCH_TIMEOUT" mpiexec.mpich -n "$np" "$root/build-mpich/bench/coll_big" ;;
    ours_openmpi) timeout "$LAUNCH_TIMEOUT" mpiexec.openmpi --oversubscribe -n "$np" \
        "$root/build-openmpi/bench/coll_big" ;;
    oshmem) timeout "$LAUNCH_TIMEOUT" oshrun --allow-run-as-root --oversubscribe \
        --mca opal_common_ucx_opal_mem_hooks 0 -n "$np" "$out/coll_big_oshmem" ;;
    esac
}

one_round() {
    for np in $NPS; do
        for impl in $impls; do
            if launch "$np" "$impl" >"$out/last.out" 2>&1; then
                grep '^coll_big,' "$out/last.out" | sed "s/^coll_big,/$1,$np,$impl,/" >>"$raw"
            else
                bench_failed "$impl" "$impl failed at $np PEs in round $1"
            fi
        done
    done
}

[ -n "${NO_BUILD:-}" ] || bench_build_ours bench/coll_big
bench_compile "$out/oshcc.log" "coll_big with oshcc" \
    oshcc -O2 -o "$out/coll_big_oshmem" "$here/coll_big.c"
bench_rounds one_round
bench_summarize <<'PY'
import collections, csv, statistics, sys
from bench_summary import summary_writer, ratio
raw, out = sys.argv[1], sys.argv[2]
vals = collections.defaultdict(list)
rows = []
for r in csv.reader(open(raw)):
    key = (int(r[1]), r[3], r[4], int(r[5]))
    if key not in rows:
        rows.append(key)
    vals[key + (r[2],)].append(float(r[6]))
impls = [i for i in ['ours_mpich', 'ours_openmpi', 'oshmem', 'ours_mpich_mpi',
                     'ours_openmpi_mpi'] if any(k[-1] == i for k in vals)]
w = summary_writer(out)
w.writerow(['np', 'form', 'op', 'bytes'] + [i + x for i in impls for x in ('_ns', '_spread')]
           + ['mpich/oshmem', 'openmpi/oshmem'])
def med(k):
    v = vals.get(k)
    return statistics.median(v) if v else None
for key in sorted(rows, key=lambda k: (k[0], k[1], k[2], k[3])):
    cells, m = [], {}
    for i in impls:
        v = vals.get(key + (i,))
        m[i] = med(key + (i,))
        cells += ['%.0f' % m[i], '%.2f' % ((max(v) - min(v)) / m[i])] if v else ['', '']
    # OSHMEM has no team routines: its active-set figure is the peer of both forms.
    o = m['oshmem'] if m['oshmem'] is not None else med((key[0], 'set', key[2], key[3], 'oshmem'))
    w.writerow(list(key) + cells + [ratio(m['ours_mpich'], o), ratio(m['ours_openmpi'], o)])
PY
bench_report
