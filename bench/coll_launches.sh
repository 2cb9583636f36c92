#!/bin/sh
# Launch-to-launch spread of a small collective: LAUNCHES launches of
# bench/coll_launches (8-byte sum_reduce + barrier_all on SHMEM_TEAM_WORLD)
# at NP PEs with the defaults, interleaved over the MPIs, one JSON line
# per launch, then per MPI the slowest launch's median over the fastest's.
# Fails (exit 1) when that ratio exceeds MAX_RATIO: a slow mode that
# some launches fall into.
#   sh bench/coll_launches.sh                 # MPICH and Open MPI builds
#   BUSY=2 sh bench/coll_launches.sh          # beside 2 busy-looping processes
# Knobs: MPIS ("mpich openmpi"), BUILD_<mpi> (build-<mpi>), NP (4),
# LAUNCHES (6), MAX_RATIO (4), BENCH_ITERS (2000 rounds per launch),
# BUSY (0: processes that spin on the CPU beside the job, as on a shared
# machine; they never yield, so a waiting PE must hand its core over well).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
MPIS=${MPIS:-mpich openmpi}
NP=${NP:-4}
LAUNCHES=${LAUNCHES:-6}
MAX_RATIO=${MAX_RATIO:-4}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp)
busy=
trap 'rm -f "$out"; [ -z "$busy" ] || kill $busy 2>/dev/null' EXIT
for _ in $(seq "${BUSY:-0}"); do
    sh -c 'while :; do :; done' &
    busy="$busy $!"
done

launch() {
    case $1 in
    openmpi) set -- "$2" mpiexec.openmpi --oversubscribe -n "$NP" ;;
    *) set -- "$2" mpiexec.mpich -n "$NP" ;;
    esac
    prog=$1
    shift
    timeout 120 "$@" "$prog"
}

for i in $(seq "$LAUNCHES"); do
    for mpi in $MPIS; do
        build=$(printenv "BUILD_$mpi") || build=$top/build-$mpi
        prog=$build/bench/coll_launches
        [ -x "$prog" ] || { echo "coll_launches.sh: no $prog (build with CC=mpicc.$mpi)" >&2; exit 2; }
        line=$(launch "$mpi" "$prog") || line='{"failed":true}'
        echo "{\"mpi\":\"$mpi\",\"launch\":$i,\"result\":$line}" | tee -a "$out"
    done
done

status=0
for mpi in $MPIS; do
    sed -n "s/.*\"mpi\":\"$mpi\".*\"median_us\":\([0-9.]*\).*/\1/p" "$out" | sort -n >"$out.m"
    n=$(wc -l <"$out.m")
    if [ "$n" -lt "$LAUNCHES" ]; then
        echo "{\"mpi\":\"$mpi\",\"verdict\":\"FAILED\",\"why\":\"$((LAUNCHES - n)) launches failed\"}"
        status=1
        continue
    fi
    lo=$(head -1 "$out.m") hi=$(tail -1 "$out.m")
    ratio=$(awk -v a="$hi" -v b="$lo" 'BEGIN { printf "%.2f", a / b }')
    verdict=ok
    awk -v r="$ratio" -v m="$MAX_RATIO" 'BEGIN { exit !(r > m) }' && { verdict=FAILED; status=1; }
    echo "{\"mpi\":\"$mpi\",\"np\":$NP,\"busy\":${BUSY:-0},\"launches\":$n,\"fastest_median_us\":$lo," \
         "\"slowest_median_us\":$hi,\"ratio\":$ratio,\"max_ratio\":$MAX_RATIO,\"verdict\":\"$verdict\"}"
done
rm -f "$out.m"
exit $status
