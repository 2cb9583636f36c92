#!/bin/sh
# PEs that wait by fetching their own counters (bench/poll_own.c, bale's
# exstack2 pattern), MPI against MPI in one run: LAUNCHES launches per
# label of MPIS and per MPISHMEM_SHM value of SHMS, interleaved, one JSON
# line per launch; then per label and SHM the median of the launches'
# times (us per round) with its spread (min-max), and its ratio to REF's
# median at the same SHM, checked against MAX_RATIO for labels that start
# with "openmpi".
#   sh bench/poll_own.sh                          # 4 PEs, MPICH and Open MPI
#   NP=2 sh bench/poll_own.sh                     # a core per PE
#   MPIS="openmpi openmpi_base mpich oshmem" BUILD_openmpi_base=DIR sh bench/poll_own.sh
# A label starts with its MPI's name and runs BUILD_<label>/bench/poll_own
# (default build-<label>); "oshmem" is Open MPI's OSHMEM (oshcc, oshrun;
# SHM does not apply, it runs once per round).
# Knobs: MPIS ("mpich openmpi"), REF (mpich), NP (4), SHMS ("1 0"),
# LAUNCHES (5), MAX_RATIO (2), BENCH_ITERS (rounds per launch, 200).
# Exit 1 when an Open MPI label misses MAX_RATIO or a launch fails.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
MPIS=${MPIS:-mpich openmpi}
REF=${REF:-mpich}
NP=${NP:-4}
SHMS=${SHMS:-1 0}
LAUNCHES=${LAUNCHES:-5}
MAX_RATIO=${MAX_RATIO:-2}
export BENCH_ITERS=${BENCH_ITERS:-200}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=bench/launch_variants.sh
. "$top/bench/launch_variants.sh"
prog_of() { variant_prog poll_own "$1"; }
launch() { variant_launch "$1" "$2" 300; }

for mpi in $MPIS; do
    prog=$(prog_of "$mpi") && [ -x "$prog" ] ||
        { echo "poll_own.sh: no program for $mpi (build it first)" >&2; exit 2; }
done
for i in $(seq "$LAUNCHES"); do
    for shm in $SHMS; do
        for mpi in $MPIS; do
            case $mpi in oshmem*) [ "$shm" = "${SHMS%% *}" ] || continue ;; esac
            line=$(MPISHMEM_SHM=$shm launch "$mpi" "$(prog_of "$mpi")") || line='{"failed":true}'
            echo "{\"mpi\":\"$mpi\",\"shm\":$shm,\"launch\":$i,\"result\":$line}" | tee -a "$tmp/all"
        done
    done
done

# stats LABEL SHM: "median min max count" of us_per_round.
stats() {
    sed -n "s/.*\"mpi\":\"$1\",\"shm\":$2,.*\"us_per_round\":\([0-9.]*\).*/\1/p" "$tmp/all" |
        sort -n | awk '{v[NR] = $1} END { if (NR == 0) { print "null null null 0"; exit }
                       print v[int((NR + 1) / 2)], v[1], v[NR], NR }'
}

status=0
for shm in $SHMS; do
    set -- $(stats "$REF" "$shm")
    ref=$1
    for mpi in $MPIS; do
        case $mpi in oshmem*) [ "$shm" = "${SHMS%% *}" ] || continue ;; esac
        set -- $(stats "$mpi" "$shm")
        m=$1 lo=$2 hi=$3 n=$4
        ratio=$(awk -v a="$m" -v b="$ref" 'BEGIN { if (a == "null" || b == "null" || b == 0) print "null"; else printf "%.2f", a / b }')
        verdict=info
        case $mpi in
        openmpi*)
            verdict=ok
            if [ "$n" -lt "$LAUNCHES" ] || [ "$ratio" = null ] ||
               awk -v r="$ratio" -v m="$MAX_RATIO" 'BEGIN { exit !(r > m) }'; then
                verdict=MISSED
                status=1
            fi ;;
        esac
        printf '{"figure":"us_per_round","mpi":"%s","shm":%s,"np":%s,"launches":%s,"median":%s,"min":%s,"max":%s,"ref":"%s","ratio":%s,"max_ratio":%s,"verdict":"%s"}\n' \
            "$mpi" "$shm" "$NP" "$n" "$m" "$lo" "$hi" "$REF" "$ratio" "$MAX_RATIO" "$verdict"
    done
done
exit $status
