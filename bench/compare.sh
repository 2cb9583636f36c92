#!/bin/sh
# mpishmem against every peer and the raw MPI floor, on this machine, in
# one invocation.
#
#   sh bench/compare.sh [OUTDIR]
#
# Builds bench/oshbench.c four ways: with mpishmem on MPICH and on Open MPI
# (build-mpich / build-openmpi trees, made if missing; these builds also
# measure the raw MPI floor inside the same launch, after the OpenSHMEM
# rows), with Open MPI's oshcc (OSHMEM) and with OSHMPI's oshcc (built from
# ../shared/peers by bench/build_oshmpi.sh).  Then, ROUNDS times, one launch
# of each variant in turn, interleaved so that load from other processes
# hits every variant alike, for each NP in NPS:
#   one node:       ours-mpich shm=1, ours-mpich shm=0, ours-openmpi shm=1,
#                   ours-openmpi shm=0, oshmem, oshmpi
#   two nodes:      ours-mpich (default, and without the progress thread:
#                   its floor is the one used), oshmpi (MPICH's pretend nodes:
#                   -launcher fork -hosts a,b -ppn NP/2; PE 0 aims at PE
#                   NP/2, on the other node)
# and, on one node, shmem_init + shmem_finalize with 256 MiB, 2 GiB and
# 8 GiB of heap (ours on each MPI, oshmem, oshmpi).
# MPISHMEM_YIELD=0 while every PE has a core (a waiting PE spins: MPI RMA
# completes only while the target polls); with more PEs than cores, the
# library's default (it yields).  OSHMPI does not finish the put-with-signal round trip
# (it hangs, on one node and between nodes), so that row is skipped for it.
# Open MPI has no pretend nodes here.
#
# Output in OUTDIR (default bench-results): raw.csv (every figure of every
# launch), summary.csv (medians over rounds, ratios), summary.md (the same
# as Markdown tables, for docs/performance.md) and compare.png.
# The floor of a row is the fastest correct raw MPI route with the same MPI
# operation (mpi_route_ops.h), on a window like ours or, for the heap, an
# MPI_Win_allocate window, measured inside our own launches.
#
# Knobs: ROUNDS (3), NPS ("2 4"), BENCH_ITERS (2000), BENCH_REPS (5),
# TOPOS ("node nodes2"), NO_INSTALL=1 (skip apt-get), NO_INIT=1 (skip the
# heap-size start-up rows), SUMMARY_ONLY=1 (only summarize OUTDIR/raw.csv),
# OSHMPI_PREFIX (where OSHMPI is built; default OUTDIR/oshmpi), LAUNCH_TIMEOUT
# (seconds per launch, 600).
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:-$root/bench-results}
ROUNDS=${ROUNDS:-3}
NPS=${NPS:-2 4}
TOPOS=${TOPOS:-node nodes2}
export BENCH_ITERS=${BENCH_ITERS:-2000} BENCH_REPS=${BENCH_REPS:-5}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"
out=$(cd "$out" && pwd)

bench=compare.sh
. "$here/bench_common.sh"
bench_python

raw=$out/raw.csv
if [ -z "${SUMMARY_ONLY:-}" ]; then
bench_build "$root/build-mpich" mpicc.mpich bench/oshbench
bench_build "$root/build-openmpi" mpicc.openmpi bench/oshbench
oshcc -O2 -o "$out/oshbench_oshmem" "$here/oshbench.c"
oshmpi_cc=$(sh "$here/build_oshmpi.sh" "${OSHMPI_PREFIX:-$out/oshmpi}")
"$oshmpi_cc" -O2 -o "$out/oshbench_oshmpi" "$here/oshbench.c"

ours_mpich=$root/build-mpich/bench/oshbench
ours_ompi=$root/build-openmpi/bench/oshbench
ompi_flags="--oversubscribe --mca btl_base_warn_component_unused 0"
osh_flags="--allow-run-as-root --oversubscribe --mca opal_common_ucx_opal_mem_hooks 0"

echo "round,np,topo,impl,mpi,shm,target,op,value,unit" >"$raw"
# run ROUND NP TOPO IMPL MPI SHM command...: keep the benchmark's CSV lines,
# tagged; rows of the floor become impl "floor".
run() {
    r=$1 np=$2 topo=$3 impl=$4 mpi=$5 shm=$6
    shift 6
    if ! timeout "${LAUNCH_TIMEOUT:-600}" "$@" >"$out/last.out" 2>"$out/last.err"; then
        echo "compare.sh: $impl/$mpi/shm=$shm np=$np $topo failed (round $r):" >&2
        tail -3 "$out/last.err" >&2
    fi
    grep -E '^oshbench,' "$out/last.out" | sed 's/^oshbench,//' |
        awk -F, -v pre="$r,$np,$topo,$impl,$mpi,$shm" \
            -v p2="$r,$np,$topo,floor,$mpi,$([ "$shm" = nothread ] && echo nothread || echo -)" \
            '{ if ($1 ~ /^floor_/) print p2 "," $0; else print pre "," $0 }' >>"$raw"
}
i=1
while [ "$i" -le "$ROUNDS" ]; do
    for np in $NPS; do
        echo "compare.sh: round $i of $ROUNDS, $np PEs" >&2
        for topo in $TOPOS; do
            # Spin only while every PE has a core (more PEs than cores:
            # the library's default, yielding, as a user would run).
            yield=MPISHMEM_YIELD=0
            [ "$np" -le "$(nproc)" ] || yield=BENCH_WAIT=library-default
            if [ "$topo" = node ]; then
                for shm in 1 0; do
                    run "$i" "$np" node ours mpich "$shm" env MPISHMEM_SHM=$shm $yield \
                        mpiexec.mpich -n "$np" "$ours_mpich"
                    run "$i" "$np" node ours openmpi "$shm" env MPISHMEM_SHM=$shm $yield \
                        mpiexec.openmpi $ompi_flags -n "$np" "$ours_ompi"
                done
                run "$i" "$np" node oshmem openmpi - oshrun $osh_flags -n "$np" "$out/oshbench_oshmem"
                run "$i" "$np" node oshmpi mpich - env BENCH_SKIP=put_signal_roundtrip \
                    mpiexec.mpich -n "$np" "$out/oshbench_oshmpi"
            else
                two="mpiexec.mpich -launcher fork -hosts a,b -ppn $((np / 2)) -n $np"
                # Pretend nodes share this machine's cores, which the library
                # cannot see (each node counts its own PEs' cores), so with
                # more PEs than cores it spins as on real nodes: the RMA rows
                # then model a polling target (put8+quiet 0.8 us), while each
                # collective costs a scheduler tick (5-30 ms).  Telling it
                # (MPISHMEM_YIELD=1) turns that around: barrier 0.29 ms, but
                # put8+quiet 103 us against a napping target (2026-11-27).
                # The first is the one real nodes resemble; launches get
                # LAUNCH_TIMEOUT for the slow collectives.
                run "$i" "$np" nodes2 ours mpich 1 env $yield $two "$ours_mpich"
                # The same without the progress thread, whose polling would
                # also slow the raw MPI calls of the floor in that launch:
                # the floor between nodes is taken from this launch.
                run "$i" "$np" nodes2 ours mpich nothread env $yield \
                    MPISHMEM_PROGRESS_THREAD=0 $two "$ours_mpich"
                run "$i" "$np" nodes2 oshmpi mpich - env BENCH_SKIP=put_signal_roundtrip \
                    $two "$out/oshbench_oshmpi"
            fi
        done
    done
    # shmem_init + shmem_finalize by heap size (PE 0's clock, no launcher).
    if [ -z "${NO_INIT:-}" ]; then
        for heap in 256M 2G 8G; do
            # Open MPI 4.1's OSHMEM reads only the older SMA_ name.
            init="env BENCH_INIT_ONLY=1 SHMEM_SYMMETRIC_SIZE=$heap SMA_SYMMETRIC_SIZE=$heap"
            run "$i" 2 node ours mpich 1 $init mpiexec.mpich -n 2 "$ours_mpich"
            run "$i" 2 node ours openmpi 1 $init mpiexec.openmpi $ompi_flags -n 2 "$ours_ompi"
            run "$i" 2 node oshmem openmpi - $init oshrun $osh_flags -n 2 "$out/oshbench_oshmem"
            run "$i" 2 node oshmpi mpich - $init mpiexec.mpich -n 2 "$out/oshbench_oshmpi"
        done
    fi
    i=$((i + 1))
done
fi

"$py" "$here/compare_summary.py" "$raw" "$out"
echo "compare.sh: $out/raw.csv, summary.csv, summary.md, compare.png" >&2
