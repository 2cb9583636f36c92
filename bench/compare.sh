#!/bin/sh
# mpishmem against Open MPI's OSHMEM and the raw MPI floor, on this
# machine, in one invocation.
#
#   sh bench/compare.sh [OUTDIR]
#
# Builds bench/oshbench.c three ways: with mpishmem on MPICH and on Open MPI
# (build-mpich / build-openmpi trees, made if missing; these builds also
# measure the raw MPI floor inside the same launch, after the OpenSHMEM
# rows) and with Debian's Open MPI oshcc (OSHMEM, run by oshrun with
# --mca opal_common_ucx_opal_mem_hooks 0).  Then, ROUNDS times, one launch
# of each variant in turn, interleaved so that load from other processes
# hits every variant alike, for each NP in NPS:
#   one node:   ours_mpich, ours_openmpi (defaults), ours_mpich_shm0,
#               ours_openmpi_shm0 (MPISHMEM_SHM=0: every access through MPI
#               RMA; the floor of each MPI is taken from this launch), oshmem
#   two nodes:  ours_mpich (defaults), ours_mpich_spin (MPISHMEM_YIELD=0,
#               only where PEs outnumber this machine's cores, where the
#               default yields: RMA and AMO rows, no collectives; see
#               below), ours_mpich_nothread (MPISHMEM_PROGRESS_THREAD=0, whose
#               launch gives the floor: the thread's polling would slow the
#               raw MPI calls too), ours_mpich_multiple
#               (BENCH_MULTIPLE=1 MPISHMEM_PROGRESS_THREAD=0: MPI at
#               MPI_THREAD_MULTIPLE and no thread, the price of that level
#               alone), on MPICH's pretend nodes (-launcher fork
#               -hosts a,b -ppn NP/2; PE 0 aims at PE NP/2, on the other
#               node).  Open MPI has no usable pretend nodes here and OSHMEM
#               none at all: between nodes the peer is the MPI floor.
# and, on one node, shmem_init + shmem_finalize with 256 MiB, 2 GiB and
# 8 GiB of heap (ours on each MPI, oshmem).
# Every row runs the library's defaults unless its name says otherwise.
#
# Output in OUTDIR (default bench-results): raw.csv (every figure of every
# launch), summary.csv (medians over rounds, each with its spread over the
# rounds, (max - min) / median; ratios), summary.md (the same as Markdown
# tables, "median (spread)") and compare.png.
# The floor of a row is the fastest correct raw MPI route with the same MPI
# operation (mpi_route_ops.h), on a window like ours or, for the heap, an
# MPI_Win_allocate window, measured inside our own launches.
#
# Knobs: ROUNDS (5; at least 3, so that every row has a spread), NPS
# ("2 4"), BENCH_ITERS (2000), BENCH_REPS (5), TOPOS ("node nodes2"),
# NO_INSTALL=1 (skip apt-get), NO_INIT=1 (skip the heap-size start-up
# rows), OSHMEM_SKIP (rows OSHMEM leaves out, BENCH_SKIP's form; in the
# Debian 13 root put_signal_roundtrip), SUMMARY_ONLY=1 (only summarize OUTDIR/raw.csv), LAUNCH_TIMEOUT
# (seconds per launch, 600), DEB13=1 (the same inside the Debian 13 root of
# test/deb13/make-root.sh, made if missing: ours on its MPICH 4.2 and Open
# MPI 5, Open MPI 5's OSHMEM as the peer; build trees build-deb13-bench-*,
# OUTDIR default bench-results-deb13, which must lie inside this tree).
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
if [ "${DEB13:-}" = 1 ] && [ -z "${MPISHMEM_IN_DEB13:-}" ]; then
    o=${1:-bench-results-deb13}
    mkdir -p "$o"
    o=$(cd "$o" && pwd)
    case $o in "$root"/*) o=${o#"$root"/} ;;
    *) echo "compare.sh: DEB13=1: OUTDIR must lie inside $root" >&2; exit 2 ;; esac
    sh "$root/test/deb13/make-root.sh"
    # The root's environment is clean (enter.sh): the knobs go along.
    exec sh "$root/test/deb13/enter.sh" env MPISHMEM_IN_DEB13=1 NO_INSTALL=1 \
        BUILD_PREFIX=build-deb13-bench ROUNDS="${ROUNDS:-5}" NPS="${NPS:-2 4}" \
        TOPOS="${TOPOS:-node nodes2}" BENCH_ITERS="${BENCH_ITERS:-2000}" \
        BENCH_REPS="${BENCH_REPS:-5}" NO_INIT="${NO_INIT:-}" ${OSHMEM_SKIP+OSHMEM_SKIP="$OSHMEM_SKIP"} \
        SUMMARY_ONLY="${SUMMARY_ONLY:-}" LAUNCH_TIMEOUT="${LAUNCH_TIMEOUT:-600}" \
        sh bench/compare.sh "$o"
fi
build=$root/${BUILD_PREFIX:-build}
out=${1:-$root/bench-results}
ROUNDS=${ROUNDS:-5}
if [ "$ROUNDS" -lt 3 ]; then
    echo "compare.sh: ROUNDS=$ROUNDS: at least 3 rounds, so that every row has a spread" >&2
    exit 2
fi
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
bench_build "$build-mpich" mpicc.mpich bench/oshbench
bench_build "$build-openmpi" mpicc.openmpi bench/oshbench
oshcc -O2 -o "$out/oshbench_oshmem" "$here/oshbench.c"
ours_mpich=$build-mpich/bench/oshbench
ours_ompi=$build-openmpi/bench/oshbench
ompi_flags="--oversubscribe --mca btl_base_warn_component_unused 0"
osh_flags="--allow-run-as-root --oversubscribe --mca opal_common_ucx_opal_mem_hooks 0"
# Open MPI 5.0.7's OSHMEM, where UCX finds no network device, fails
# shmem_putmem_signal ("Internal error ... rc = -7") and then hangs.
osh_skip=${OSHMEM_SKIP-}
[ -n "${MPISHMEM_IN_DEB13:-}" ] && osh_skip=${OSHMEM_SKIP-put_signal_roundtrip}

echo "round,np,topo,impl,mpi,variant,target,op,value,unit" >"$raw"
# run ROUND NP TOPO IMPL MPI VARIANT command...: keep the benchmark's CSV
# lines, tagged; rows of the floor (only launches without BENCH_FLOOR=0
# print them) become impl "floor".
run() {
    r=$1 np=$2 topo=$3 impl=$4 mpi=$5 variant=$6
    shift 6
    if ! timeout "${LAUNCH_TIMEOUT:-600}" "$@" >"$out/last.out" 2>"$out/last.err"; then
        echo "compare.sh: $impl/$mpi/$variant np=$np $topo failed (round $r):" >&2
        tail -3 "$out/last.err" >&2
    fi
    grep -E '^oshbench,' "$out/last.out" | sed 's/^oshbench,//' |
        awk -F, -v pre="$r,$np,$topo,$impl,$mpi,$variant" \
            -v p2="$r,$np,$topo,floor,$mpi,-" \
            '{ if ($1 ~ /^floor_/) print p2 "," $0; else print pre "," $0 }' >>"$raw"
}
nofloor=BENCH_FLOOR=0
colls=barrier_all,broadcast64_8B+barrier,sum_to_all_8B+barrier,fcollect64_8B+barrier
i=1
while [ "$i" -le "$ROUNDS" ]; do
    for np in $NPS; do
        echo "compare.sh: round $i of $ROUNDS, $np PEs" >&2
        # Where every PE has a core the default spins: no separate row.
        spin=
        [ "$np" -le "$(nproc)" ] || spin=1
        for topo in $TOPOS; do
            if [ "$topo" = node ]; then
                run "$i" "$np" node ours mpich default env $nofloor \
                    mpiexec.mpich -n "$np" "$ours_mpich"
                run "$i" "$np" node ours openmpi default env $nofloor \
                    mpiexec.openmpi $ompi_flags -n "$np" "$ours_ompi"
                run "$i" "$np" node oshmem openmpi default env BENCH_SKIP="$osh_skip" \
                    oshrun $osh_flags -n "$np" "$out/oshbench_oshmem"
                run "$i" "$np" node ours mpich shm0 env MPISHMEM_SHM=0 \
                    mpiexec.mpich -n "$np" "$ours_mpich"
                run "$i" "$np" node ours openmpi shm0 env MPISHMEM_SHM=0 \
                    mpiexec.openmpi $ompi_flags -n "$np" "$ours_ompi"
            else
                two="mpiexec.mpich -launcher fork -hosts a,b -ppn $((np / 2)) -n $np"
                # Pretend nodes share this machine's cores.  With more PEs
                # than cores the default yields while it waits (it counts
                # the machine's PEs), as a user's job would there; real
                # nodes with a core per PE spin, which ours_mpich_spin
                # models for the RMA and AMO rows (a polling target).  Its
                # collectives would cost a scheduler tick each, so they
                # are left out of that row.
                run "$i" "$np" nodes2 ours mpich default env $nofloor $two "$ours_mpich"
                [ -z "$spin" ] || run "$i" "$np" nodes2 ours mpich spin env $nofloor \
                    MPISHMEM_YIELD=0 BENCH_SKIP=$colls $two "$ours_mpich"
                run "$i" "$np" nodes2 ours mpich nothread env MPISHMEM_PROGRESS_THREAD=0 \
                    $two "$ours_mpich"
                run "$i" "$np" nodes2 ours mpich multiple env $nofloor BENCH_MULTIPLE=1 \
                    MPISHMEM_PROGRESS_THREAD=0 BENCH_SKIP=$colls $two "$ours_mpich"
            fi
        done
    done
    # shmem_init + shmem_finalize by heap size (PE 0's clock, no launcher).
    if [ -z "${NO_INIT:-}" ]; then
        for heap in 256M 2G 8G; do
            # Open MPI 4.1's OSHMEM reads only the older SMA_ name.
            init="env BENCH_INIT_ONLY=1 SHMEM_SYMMETRIC_SIZE=$heap SMA_SYMMETRIC_SIZE=$heap"
            run "$i" 2 node ours mpich default $init mpiexec.mpich -n 2 "$ours_mpich"
            run "$i" 2 node ours openmpi default $init mpiexec.openmpi $ompi_flags -n 2 "$ours_ompi"
            run "$i" 2 node oshmem openmpi default $init oshrun $osh_flags -n 2 "$out/oshbench_oshmem"
        done
    fi
    i=$((i + 1))
done
fi

"$py" "$here/compare_summary.py" "$raw" "$out"
echo "compare.sh: $out/raw.csv, summary.csv, summary.md, compare.png" >&2
