#!/bin/sh
# What the progress thread's MPI_THREAD_MULTIPLE costs between nodes, and
# whether any MPICH setting takes it back (issue 19): bench/oshbench on
# MPICH's pretend nodes (2 PEs, -launcher fork -hosts a,b -ppn 1), ROUNDS
# interleaved launches of each variant, medians per row.
#
#   sh bench/thread_cost.sh [OUTDIR]
#
# Variants (one launch each per round, in this order):
#   default      the library's defaults (thread on, AMO requests)
#   no_thread    MPISHMEM_PROGRESS_THREAD=0 (MPI at the program's level,
#                MPI atomics)
#   no_thread_am MPISHMEM_PROGRESS_THREAD=0 MPISHMEM_AMO_AM=1
#   lockless     default + MPIR_CVAR_CH4_MT_MODEL=lockless
#   no_global    default + MPIR_CVAR_CH4_GLOBAL_PROGRESS=0
#   mpich_async  MPICH's own progress thread instead of ours:
#                MPISHMEM_PROGRESS_THREAD=0 MPIR_CVAR_ASYNC_PROGRESS=1
#                (MPICH raises itself to MPI_THREAD_MULTIPLE; MPI atomics)
#   mpi_single, mpi_multiple  plain MPI, no OpenSHMEM: bench/mpi_routes'
#                put+flush, put+flush_local, get+flush_local and msg_fetch
#                (a 32-byte request answered with 8 bytes) on an
#                MPI_Win_allocate window, MPI started at MPI_THREAD_SINGLE
#                and at MPI_THREAD_MULTIPLE: the price of the thread level
#                with no library in the way (rows "mpi", ratio over
#                mpi_single)
#   mpi_funnelled  the same at MPI_THREAD_SERIALIZED, every call through
#                one lock beside a thread that probes under it every 1 ms
#                (bench/mpi_funnel.c): a thread funnelling MPI calls
#                instead of MPI_THREAD_MULTIPLE
# Rows: the 8-byte RMA rows, fetch and fetch_add, barrier (BENCH_ROWS to
# change; every other oshbench row is skipped).  Output in OUTDIR (default
# bench-results/thread_cost): raw.csv (round,variant,target,op,value,unit)
# and summary.csv (medians, and each variant over the row's base, default
# or mpi_single: the median of the per-round ratios).  Every launch runs the
# library's defaults but for the settings its variant names.
# Knobs: ROUNDS (10), LAUNCH_TIMEOUT (120).
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:-$root/bench-results/thread_cost}
ROUNDS=${ROUNDS:-10}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# shellcheck disable=SC2034 # read by bench_common.sh
bench=thread_cost.sh
# shellcheck source=bench/bench_common.sh
. "$here/bench_common.sh"
py=/usr/bin/python3 # no plot here, so no matplotlib
[ -x "$py" ] || py=python3

bench_build "$root/build-mpich" mpicc.mpich bench/oshbench bench/mpi_routes
ours=$root/build-mpich/bench/oshbench

rows=${BENCH_ROWS:-put8+quiet,get8,p8,g8,atomic_fetch,atomic_fetch_add,barrier_all}
all="put8+quiet get8 p8 g8 put_bw_4096B get_bw_4096B put_bw_1048576B get_bw_1048576B
put8_rate atomic_fetch atomic_set atomic_swap atomic_compare_swap atomic_fetch_add
atomic_add atomic_fetch_inc atomic_inc atomic_fetch_and atomic_and atomic_fetch_or
atomic_or atomic_fetch_xor atomic_xor put_signal_roundtrip barrier_all
broadcast64_8B+barrier sum_to_all_8B+barrier fcollect64_8B+barrier"
skip=
for r in $all; do
    case ",$rows," in *",$r,"*) ;; *) skip="$skip${skip:+,}$r" ;; esac
done

two="mpiexec.mpich -launcher fork -hosts a,b -ppn 1 -n 2"
raw=$out/raw.csv
echo "round,variant,target,op,value,unit" >"$raw"
# launch ROUND VARIANT ENV... : one launch, its rows tagged.
launch() {
    r=$1 v=$2
    shift 2
    # shellcheck disable=SC2086 # $two is the launcher with its options
    if ! timeout "${LAUNCH_TIMEOUT:-120}" env BENCH_FLOOR=0 \
        BENCH_SKIP="$skip" "$@" $two "$ours" >"$out/last.out" 2>"$out/last.err" </dev/null; then
        echo "thread_cost.sh: $v failed in round $r:" >&2
        tail -3 "$out/last.err" >&2
    fi
    grep '^oshbench,' "$out/last.out" | sed "s/^oshbench,/$r,$v,/" >>"$raw"
}
# mpi_routes ROUND LEVEL: the raw MPI routes at MPI_THREAD_<LEVEL>.
mpi_routes() {
    # shellcheck disable=SC2086 # $two is the launcher with its options
    if ! timeout "${LAUNCH_TIMEOUT:-120}" env ROUTES_THREAD="$2" ROUTES_KIND=allocate \
        ROUTES_HINTS=ours ROUTES_ONLY=put+flush_local,get+flush_local,msg_fetch \
        $two "$root/build-mpich/bench/mpi_routes" >"$out/last.out" 2>"$out/last.err" </dev/null; then
        echo "thread_cost.sh: mpi_routes at $2 failed in round $1:" >&2
        tail -3 "$out/last.err" >&2
    fi
    awk -F, -v pre="$1,mpi_$2,mpi" '$1 == "mpi_routes" { print pre "," $4 "," $5 ",ns" }' \
        "$out/last.out" >>"$raw"
}
round() {
    echo "thread_cost.sh: round $1 of $ROUNDS" >&2
    launch "$1" default
    launch "$1" no_thread MPISHMEM_PROGRESS_THREAD=0
    launch "$1" no_thread_am MPISHMEM_PROGRESS_THREAD=0 MPISHMEM_AMO_AM=1
    launch "$1" lockless MPIR_CVAR_CH4_MT_MODEL=lockless
    launch "$1" no_global MPIR_CVAR_CH4_GLOBAL_PROGRESS=0
    launch "$1" mpich_async MPISHMEM_PROGRESS_THREAD=0 MPIR_CVAR_ASYNC_PROGRESS=1
    mpi_routes "$1" single
    mpi_routes "$1" multiple
    mpi_routes "$1" funnelled
}
bench_rounds round

"$py" - "$raw" "$out/summary.csv" <<'EOF'
# Medians over rounds, and each variant over the defaults as the median of its
# per-round ratios: this VM has slow spells that last several launches,
# and a ratio within one round cancels most of them.
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
variants, keys, val = [], [], {}
for r in rows:
    k = (r["target"], r["op"], r["unit"])
    if r["variant"] not in variants:
        variants.append(r["variant"])
    if k not in keys:
        keys.append(k)
    val[(k, r["variant"], r["round"])] = float(r["value"])
rounds = sorted({r["round"] for r in rows}, key=int)
# Ratios over the defaults for the OpenSHMEM rows, over mpi_single for raw MPI.
with open(sys.argv[2], "w") as f:
    f.write("target,op,unit," + ",".join(variants) + ",base," +
            ",".join(v + "_vs_base" for v in variants) + "\n")
    for k in keys:
        base = "mpi_single" if k[0] == "mpi" else "default"
        meds, ratios = [], []
        for v in variants:
            xs = [val[(k, v, r)] for r in rounds if (k, v, r) in val]
            meds.append("%.4g" % statistics.median(xs) if xs else "")
            rs = [val[(k, v, r)] / val[(k, base, r)] for r in rounds
                  if (k, v, r) in val and (k, base, r) in val]
            ratios.append("%.3f" % statistics.median(rs) if rs and v != base else "")
        f.write(",".join(k) + "," + ",".join(meds) + "," + base + "," + ",".join(ratios) +
                "\n")
print(open(sys.argv[2]).read(), end="")
EOF
bench_report
