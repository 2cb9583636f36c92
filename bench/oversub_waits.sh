#!/bin/sh
# Oversubscribed waits, MPI against MPI in one run: LAUNCHES launches of
# bench/oversub_waits (shmem_barrier_all; 8-byte sum_to_all + barrier_all)
# at NP PEs, interleaved over the labels of MPIS, one JSON line per launch;
# then per label the median of the launches' medians with its spread
# (min-max), and each label's median over REF's (the ratio), checked
# against MAX_RATIO for the labels that start with "mpich".
#   sh bench/oversub_waits.sh                  # MPICH and Open MPI builds
#   MPIS="mpich mpich_base openmpi oshmem" BUILD_mpich_base=DIR sh bench/oversub_waits.sh
# A label starts with its MPI's name (mpich..., openmpi...) and runs
# BUILD_<label>/bench/oversub_waits (default build-<label>); "oshmem" is
# Open MPI's OSHMEM: the same source built with oshcc, run with oshrun.
# Knobs: MPIS ("mpich openmpi"), REF (openmpi), NP (4), LAUNCHES (5),
# MAX_RATIO (1.5), BENCH_ITERS (rounds per figure per launch, 2000).
# Exit 1 when an MPICH label misses MAX_RATIO or a launch fails.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
MPIS=${MPIS:-mpich openmpi}
REF=${REF:-openmpi}
NP=${NP:-4}
LAUNCHES=${LAUNCHES:-5}
MAX_RATIO=${MAX_RATIO:-1.5}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=bench/launch_variants.sh
. "$top/bench/launch_variants.sh"
prog_of() { variant_prog oversub_waits "$1"; }
launch() { variant_launch "$1" "$2" 120; }

for mpi in $MPIS; do
    prog=$(prog_of "$mpi") && [ -x "$prog" ] ||
        { echo "oversub_waits.sh: no program for $mpi (build it first)" >&2; exit 2; }
done
for i in $(seq "$LAUNCHES"); do
    for mpi in $MPIS; do
        line=$(launch "$mpi" "$(prog_of "$mpi")") || line='{"failed":true}'
        echo "{\"mpi\":\"$mpi\",\"launch\":$i,\"result\":$line}" | tee -a "$tmp/all"
    done
done

# stats LABEL FIELD: "median min max" of FIELD over LABEL's launches.
stats() {
    sed -n "s/.*\"mpi\":\"$1\",.*\"$2\":\([0-9.]*\).*/\1/p" "$tmp/all" | sort -n |
        awk '{v[NR] = $1} END { if (NR == 0) { print "null null null 0"; exit }
             print v[int((NR + 1) / 2)], v[1], v[NR], NR }'
}

status=0
for field in barrier_us sum_barrier_us; do
    set -- $(stats "$REF" "$field")
    ref=$1
    for mpi in $MPIS; do
        set -- $(stats "$mpi" "$field")
        m=$1 lo=$2 hi=$3 n=$4
        ratio=$(awk -v a="$m" -v b="$ref" 'BEGIN { if (a == "null" || b == "null" || b == 0) print "null"; else printf "%.2f", a / b }')
        verdict=info
        case $mpi in
        mpich*)
            verdict=ok
            if [ "$n" -lt "$LAUNCHES" ] || [ "$ratio" = null ] ||
               awk -v r="$ratio" -v m="$MAX_RATIO" 'BEGIN { exit !(r > m) }'; then
                verdict=MISSED
                status=1
            fi ;;
        esac
        echo "{\"figure\":\"$field\",\"mpi\":\"$mpi\",\"np\":$NP,\"launches\":$n,\"median_us\":$m," \
             "\"min_us\":$lo,\"max_us\":$hi,\"ref\":\"$REF\",\"ratio\":$ratio,\"max_ratio\":$MAX_RATIO," \
             "\"verdict\":\"$verdict\"}" | sed 's/: /:/g; s/, /,/g'
    done
done
exit $status
