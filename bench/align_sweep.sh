#!/bin/sh
# Put and get by size and page offset (bench/align_sweep.c), mpishmem on
# MPICH and on Open MPI and Open MPI's OSHMEM, one node, 2 PEs, shared
# memory on, interleaved launches.
#
#   sh bench/align_sweep.sh [OUTDIR]
#
# Builds bench/align_sweep in build-mpich and build-openmpi (made if
# missing) and with oshcc; then ROUNDS times one launch of each in turn.
# Output in OUTDIR (default bench-results/align): raw.csv (every cell of
# every launch), summary.csv (per library, op, size and offset pair: the
# median over launches and its ratio to the same launch's memcpy between
# the same two buffers), summary.md (per op and size, the worst ratio over
# the 36 offset pairs and where: the table in docs/performance.md) and
# align_sweep.png (the heat map: ratio to the floor; without matplotlib, a
# text heat map in heatmap.txt).
#
# Knobs: ROUNDS (3), BENCH_REPS (7, rounds inside a launch), IMPLS
# ("ours_mpich ours_openmpi oshmem"), NO_INSTALL=1 (skip apt-get),
# SUMMARY_ONLY=1, LAUNCH_TIMEOUT (seconds per launch, 300).
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:-$root/bench-results/align}
ROUNDS=${ROUNDS:-3}
IMPLS=${IMPLS:-ours_mpich ours_openmpi oshmem}
LAUNCH_TIMEOUT=${LAUNCH_TIMEOUT:-300}
export BENCH_REPS=${BENCH_REPS:-7} MPISHMEM_SHM=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"
out=$(cd "$out" && pwd)
bench=align_sweep.sh
. "$here/bench_common.sh"
bench_python
raw=$out/raw.csv

build() {
    case $1 in
    ours_mpich) bench_build "$root/build-mpich" mpicc.mpich bench/align_sweep ;;
    ours_openmpi) bench_build "$root/build-openmpi" mpicc.openmpi bench/align_sweep ;;
    oshmem) bench_compile "$out/oshcc.log" "align_sweep with oshcc" \
        oshcc -O2 -o "$out/align_sweep_oshmem" "$here/align_sweep.c" ;;
    esac
}

launch() {
    case $1 in
    ours_mpich) timeout "$LAUNCH_TIMEOUT" mpiexec.mpich -n 2 "$root/build-mpich/bench/align_sweep" ;;
    ours_openmpi) timeout "$LAUNCH_TIMEOUT" mpiexec.openmpi --oversubscribe -n 2 \
        "$root/build-openmpi/bench/align_sweep" ;;
    oshmem) timeout "$LAUNCH_TIMEOUT" oshrun --allow-run-as-root --oversubscribe \
        --mca opal_common_ucx_opal_mem_hooks 0 -n 2 "$out/align_sweep_oshmem" ;;
    esac
}

one_round() {
    for impl in $IMPLS; do
        if BENCH_LABEL=$impl launch "$impl" >"$out/last.out" 2>&1; then
            grep '^align_sweep,' "$out/last.out" | sed "s/^/$1,/" >>"$raw"
        else
            bench_failed "$impl" "$impl failed in round $1"
        fi
    done
}

if [ -z "${SUMMARY_ONLY:-}" ]; then
    for impl in $IMPLS; do build "$impl"; done
    : >"$raw"
    bench_rounds one_round
fi
"$py" "$here/align_sweep.py" "$raw" "$out"
bench_report
