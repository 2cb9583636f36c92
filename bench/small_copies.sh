#!/bin/sh
# Small puts and gets against memcpy of the same bytes (bench/small_copies.c):
# mpishmem on MPICH and on Open MPI, one node, 2 PEs, shared memory on,
# interleaved launches.
#
#   sh bench/small_copies.sh [OUTDIR]
#
# Builds bench/small_copies in build-mpich and build-openmpi (made if
# missing), then ROUNDS times one launch of each in turn.  BASE_MPICH and
# BASE_OPENMPI, when set, name small_copies programs built against another
# revision: they run in the same rounds, labelled base_mpich and
# base_openmpi (a before/after on the same machine at the same load).
# Output in OUTDIR (default bench-results/small_copies): raw.csv (every
# row of every launch, the round first) and summary.csv: per label, op,
# size and page offset, the median over launches of the launch's ratio
# ours/memcpy, the lowest and highest launch ratio, and the median ns.
#
# Knobs: ROUNDS (5), BENCH_REPS (21, rounds inside a launch), BENCH_ITERS
# (2000 calls per sample), LAUNCH_TIMEOUT (seconds per launch, 120).
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:-$root/bench-results/small_copies}
ROUNDS=${ROUNDS:-5}
LAUNCH_TIMEOUT=${LAUNCH_TIMEOUT:-120}
export MPISHMEM_SHM=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bench=small_copies.sh
NO_INSTALL=1
. "$here/bench_common.sh"
bench_python
bench_outdir "$out"
impls="ours_mpich ours_openmpi"
[ -z "${BASE_MPICH:-}" ] || impls="$impls base_mpich"
[ -z "${BASE_OPENMPI:-}" ] || impls="$impls base_openmpi"

launch() {
    case $1 in
    ours_mpich) set -- mpich "$root/build-mpich/bench/small_copies" ;;
    ours_openmpi) set -- openmpi "$root/build-openmpi/bench/small_copies" ;;
    base_mpich) set -- mpich "$BASE_MPICH" ;;
    base_openmpi) set -- openmpi "$BASE_OPENMPI" ;;
    esac
    if [ "$1" = mpich ]; then
        timeout "$LAUNCH_TIMEOUT" mpiexec.mpich -n 2 "$2"
    else
        timeout "$LAUNCH_TIMEOUT" mpiexec.openmpi --oversubscribe -n 2 "$2"
    fi
}

one_round() {
    for impl in $impls; do
        if BENCH_LABEL=$impl launch "$impl" >"$out/last.out" 2>&1; then
            grep '^small_copies,' "$out/last.out" | sed "s/^/$1,/" >>"$raw"
        else
            bench_failed "$impl" "$impl failed in round $1"
        fi
    done
}

bench_build_ours bench/small_copies
bench_rounds one_round
bench_summarize <<'PY'
import collections, csv, statistics, sys
raw, out = sys.argv[1], sys.argv[2]
rows = collections.defaultdict(list)
for r in csv.reader(open(raw)):
    if len(r) == 11 and r[1] == 'small_copies':
        rows[(r[2], r[3], int(r[4]), int(r[5]))].append((float(r[6]), float(r[7]), float(r[8])))
with open(out + '/summary.csv', 'w') as f:
    w = csv.writer(f)
    w.writerow(['label', 'op', 'size', 'offset', 'ratio', 'ratio_lo', 'ratio_hi', 'ns',
                'memcpy_ns', 'launches'])
    for k in sorted(rows):
        v = rows[k]
        ratio = [x[2] for x in v]
        w.writerow(list(k) + ['%.2f' % statistics.median(ratio), '%.2f' % min(ratio),
                              '%.2f' % max(ratio), '%.1f' % statistics.median(x[0] for x in v),
                              '%.1f' % statistics.median(x[1] for x in v), len(v)])
print(open(out + '/summary.csv').read())
PY
bench_report
