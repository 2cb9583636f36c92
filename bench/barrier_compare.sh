#!/bin/sh
# Barrier latency: mpishmem on MPICH and Open MPI with each barrier route
# (MPISHMEM_BARRIER=mpi, shm), and Open MPI's OSHMEM, launches interleaved
# round by round so load from other processes hits every variant alike.
#
#   sh bench/barrier_compare.sh            (from the source tree)
#
# Uses build-mpich/bench/barrier_latency and build-openmpi/bench/barrier_latency
# (build them first), and builds bench/barrier_latency.c with oshcc into
# build-osh/ when oshcc exists.  Prints the raw lines, then per variant and
# routine the median over rounds (ns per call) as CSV:
#   median,<variant>,<routine>,<npes>,<ns>
# and the load average seen at each round.
# Knobs: NP (2), ROUNDS (5), BENCH_ITERS (20000), BENCH_REPS (11).
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
NP=${NP:-2}
ROUNDS=${ROUNDS:-5}
export BENCH_ITERS=${BENCH_ITERS:-20000} BENCH_REPS=${BENCH_REPS:-11}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
osh=
if command -v oshcc >/dev/null 2>&1; then
    mkdir -p build-osh
    oshcc -O2 -o build-osh/barrier_latency bench/barrier_latency.c && osh=build-osh/barrier_latency
fi
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
for r in $(seq "$ROUNDS"); do
    echo "load,$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$raw"
    for m in mpi shm; do
        MPISHMEM_BARRIER=$m timeout 300 mpiexec.mpich -n "$NP" build-mpich/bench/barrier_latency |
            sed "s/^barrier,/mpich-$m,/" | tee -a "$raw"
        MPISHMEM_BARRIER=$m timeout 300 mpiexec.openmpi --oversubscribe -n "$NP" \
            build-openmpi/bench/barrier_latency | sed "s/^barrier,/openmpi-$m,/" | tee -a "$raw"
    done
    if [ -n "$osh" ]; then
        timeout 300 oshrun --allow-run-as-root --oversubscribe \
            --mca opal_common_ucx_opal_mem_hooks 0 -n "$NP" "$osh" 2>/dev/null |
            sed "s/^barrier,/oshmem,/" | tee -a "$raw"
    fi
done
# Medians over rounds, per variant and routine.
grep -v '^load,' "$raw" | sort -t, -k1,2 -k4,4g | awk -F, '
    function flush() { if (n) { m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2;
                               printf "median,%s,%s,%s,%.1f\n", key1, key2, np, m } n = 0 }
    { if ($1 != key1 || $2 != key2) { flush(); key1 = $1; key2 = $2; np = $3 } v[++n] = $4 }
    END { flush() }'
