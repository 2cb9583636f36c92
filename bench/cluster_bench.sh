#!/bin/sh
# Between real nodes: mpishmem against the raw MPI floor on a cluster of
# namespace nodes that share only a network (test/cluster/cluster.sh;
# docs/checks.md, "Real nodes"), on each MPI.
#
#   sh bench/cluster_bench.sh [OUTDIR]
#
# bench/oshbench runs across the nodes with PE 0 on the first node and its
# target, PE NP/2, on the second: put/get/p/g and every AMO at 8 bytes,
# put/get bandwidth at 4 KiB and 1 MiB, the put-signal round trip, barrier
# and 8-byte collectives, each with the raw MPI floor (the same MPI
# operations, window and flush, mpi_route_ops.h; MPI's own collectives)
# measured at the end of the same launch.  The target waits as BENCH_WAIT
# says (bench/bench_wait.h): in a barrier, polling with shmem_test, or
# computing with one shmem_test every BENCH_COMPUTE_US (the floor's target
# computes as long between its MPI_Test calls).  ROUNDS times, one launch
# of each MPI x waiting mode x shape in turn (interleaved), plus one that
# measures the floor alone with the progress thread off
# (MPISHMEM_PROGRESS_THREAD=0 BENCH_ONLY=floor): a thread polling MPI, or
# MPI_THREAD_MULTIPLE, could slow the raw calls too, and the floor is the
# faster of the two.
#
# Output in OUTDIR (default bench-results-cluster): raw.csv, summary.csv,
# summary.md (cluster_summary.py: medians over the rounds, spreads, ratio
# to the floor; the 8-byte rows above MAX_RATIO, 1.2, listed last), one
# log per launch that failed.
# Knobs: MPIS ("mpich openmpi"), BUILD_<mpi> (build-<mpi>, made if
# missing), ROUNDS (5), WAITS ("barrier poll compute"), SHAPES ("2x1";
# KxP: K nodes of P PEs), BENCH_ITERS (400), BENCH_REPS (5),
# BENCH_COMPUTE_US (100), LAUNCH_TIMEOUT (300 s), MAX_RATIO.
# CLUSTER_ROOT=/var/cache/mpishmem/trixie-root: the Debian 13 MPIs, built
# and run inside that root (test/deb13/enter.sh) in build-deb13-bench-<mpi>,
# its nodes chrooted there (test/cluster/cluster.sh).
# Runs in the cluster MPISHMEM_CLUSTER names, else in one made for the
# run (root needed; exit 77 without namespaces).
#
# SPDX-License-Identifier: BSD-3-Clause
set -u
bench=cluster_bench.sh
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
MPIS=${MPIS:-mpich openmpi}
ROUNDS=${ROUNDS:-5}
WAITS=${WAITS:-barrier poll compute}
SHAPES=${SHAPES:-2x1}
export BENCH_ITERS=${BENCH_ITERS:-400} BENCH_REPS=${BENCH_REPS:-5}
export BENCH_COMPUTE_US=${BENCH_COMPUTE_US:-100}
LAUNCH_TIMEOUT=${LAUNCH_TIMEOUT:-300}
. "$here/bench_common.sh"

# The build of an MPI, and how to run a command where it runs.
build_of() {
    printenv "BUILD_$1" && return
    if [ -n "${CLUSTER_ROOT:-}" ]; then echo "build-deb13-bench-$1"; else echo "$root/build-$1"; fi
}
in_root() {
    if [ -n "${CLUSTER_ROOT:-}" ]; then
        MPISHMEM_DEB13_ROOT=$CLUSTER_ROOT sh "$root/test/deb13/enter.sh" "$@"
    else
        "$@"
    fi
}

nodes_needed=$(for s in $SHAPES; do echo "${s%x*}"; done | sort -n | tail -1)
if [ -z "${MPISHMEM_CLUSTER:-}" ]; then
    for mpi in $MPIS; do
        b=$(build_of "$mpi")
        echo "$bench: building $b" >&2
        if [ -n "${CLUSTER_ROOT:-}" ]; then
            in_root sh -c '[ -f "$1/build.ninja" ] || CC=mpicc.$2 FC=mpif90.$2 meson setup "$1" >/dev/null &&
                nice -n 10 ninja -C "$1" bench/oshbench >/dev/null' sh "$b" "$mpi" || exit 1
        else
            bench_build "$b" "mpicc.$mpi" bench/oshbench || exit 1
        fi
    done
    exec sh "$root/test/cluster/cluster.sh" run "$nodes_needed" sh "$0" "$@"
fi

out=${1:-bench-results-cluster}
bench_outdir "$out" "round,mpi,shape,wait,launch,target,op,value,unit"

# launch ROUND MPI SHAPE WAIT LAUNCH [ENV...]: one launch; its figures go to
# raw.csv (a launch that fails keeps those it printed, and its log).
launch() {
    r=$1 mpi=$2 shape=$3 wait=$4 kind=$5
    shift 5
    b=$(build_of "$mpi")
    k=${shape%x*} p=${shape#*x}
    in_root env MPISHMEM_CLUSTER="$MPISHMEM_CLUSTER" "$@" BENCH_WAIT="$wait" \
        BENCH_ITERS="$BENCH_ITERS" BENCH_REPS="$BENCH_REPS" BENCH_COMPUTE_US="$BENCH_COMPUTE_US" \
        MPISHMEM_TEST_NET=1 MPISHMEM_TEST_NODES="$k" \
        MPISHMEM_TEST_TIMEOUT="$LAUNCH_TIMEOUT" \
        sh "$b/test/launch.sh" $((k * p)) "$b/bench/oshbench" >"$out/last.out" 2>&1
    rc=$?
    sed -n "s/^oshbench,/$r,$mpi,$shape,$wait,$kind,/p" "$out/last.out" >>"$raw"
    [ $rc -eq 0 ] || bench_failed "$mpi-$shape-$wait-$kind-$r" "$mpi $shape $wait $kind: rc $rc"
}

one_round() {
    for shape in $SHAPES; do
        for mpi in $MPIS; do
            for wait in $WAITS; do
                launch "$1" "$mpi" "$shape" "$wait" ours
                launch "$1" "$mpi" "$shape" "$wait" floor MPISHMEM_PROGRESS_THREAD=0 BENCH_ONLY=floor
            done
        done
        echo "$bench: round $1 of $ROUNDS, $shape done ($(date +%T))" >&2
    done
}
bench_rounds one_round
PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" python3 "$here/cluster_summary.py" "$raw" "$out"
bench_report
