#!/bin/sh
# Launch-to-launch spread of a small collective: LAUNCHES launches of
# bench/coll_launches (8-byte sum_reduce + barrier_all on SHMEM_TEAM_WORLD)
# at NP PEs with the defaults, interleaved over the MPIs, one JSON line
# per launch, then per MPI the slowest launch's median over the fastest's.
# Fails (exit 1) when that ratio exceeds MAX_RATIO: a slow mode that
# some launches fall into.
#   sh bench/coll_launches.sh                 # MPICH and Open MPI builds
#   BUSY=2 sh bench/coll_launches.sh          # quiet and beside 2 busy processes
# With BUSY, every launch round runs each MPI twice, with the busy
# processes stopped (quiet) and running (busy); the spread is checked for
# each, and the median of the busy launches' medians over that of the
# quiet ones is printed and checked against MAX_BUSY_RATIO.
# MPIS may name other builds to interleave with them, as labels that start
# with the MPI's name: MPIS="mpich mpich_base" BUILD_mpich_base=DIR.
# Knobs: MPIS ("mpich openmpi"), BUILD_<mpi> (build-<mpi>), NP (4), BUSY_SESSION,
# LAUNCHES (6), MAX_RATIO (4), MAX_BUSY_RATIO (60), BENCH_ITERS (2000
# rounds per launch), BUSY (0: processes that spin on the CPU beside the
# job, as on a shared machine; they never yield, so a waiting PE must hand
# its core over well).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
MPIS=${MPIS:-mpich openmpi}
NP=${NP:-4}
LAUNCHES=${LAUNCHES:-6}
MAX_RATIO=${MAX_RATIO:-4}
MAX_BUSY_RATIO=${MAX_BUSY_RATIO:-60}
BUSY=${BUSY:-0}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp)
busy=
trap 'rm -f "$out" "$out.m"; [ -z "$busy" ] || kill -CONT $busy 2>/dev/null; [ -z "$busy" ] || kill $busy 2>/dev/null' EXIT
# The busy processes run in a session of their own, as other users' jobs
# do (BUSY_SESSION=same: in this script's session).  With the kernel's
# autogroups a session is one scheduling group: MPICH's launcher starts
# each PE in its own session, Open MPI's in the launcher's, which would
# put Open MPI's PEs in one group with the busy processes.
for _ in $(seq "$BUSY"); do
    if [ "${BUSY_SESSION:-own}" = same ]; then
        sh -c 'while :; do :; done' &
    else
        setsid sh -c 'while :; do :; done' &
    fi
    busy="$busy $!"
done
modes=quiet
[ "$BUSY" -gt 0 ] && modes="quiet busy"

launch() {
    case $1 in
    openmpi*) set -- "$2" mpiexec.openmpi --oversubscribe -n "$NP" ;;
    *) set -- "$2" mpiexec.mpich -n "$NP" ;;
    esac
    prog=$1
    shift
    timeout 120 "$@" "$prog"
}

for i in $(seq "$LAUNCHES"); do
    for mode in $modes; do
        if [ -n "$busy" ]; then
            if [ "$mode" = busy ]; then kill -CONT $busy; else kill -STOP $busy; fi
        fi
        for mpi in $MPIS; do
            build=$(printenv "BUILD_$mpi") || build=$top/build-$mpi
            prog=$build/bench/coll_launches
            [ -x "$prog" ] || { echo "coll_launches.sh: no $prog (build with CC=mpicc.$mpi)" >&2; exit 2; }
            line=$(launch "$mpi" "$prog") || line='{"failed":true}'
            echo "{\"mpi\":\"$mpi\",\"mode\":\"$mode\",\"launch\":$i,\"result\":$line}" | tee -a "$out"
        done
    done
done
[ -z "$busy" ] || kill -CONT $busy

status=0
mid() { awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}' "$out.m"; }
for mpi in $MPIS; do
    quiet_mid=
    for mode in $modes; do
        sed -n "s/.*\"mpi\":\"$mpi\",\"mode\":\"$mode\".*\"median_us\":\([0-9.]*\).*/\1/p" "$out" |
            sort -n >"$out.m"
        n=$(wc -l <"$out.m")
        if [ "$n" -lt "$LAUNCHES" ]; then
            echo "{\"mpi\":\"$mpi\",\"mode\":\"$mode\",\"verdict\":\"FAILED\",\"why\":\"$((LAUNCHES - n)) launches failed\"}"
            status=1
            continue
        fi
        lo=$(head -1 "$out.m") hi=$(tail -1 "$out.m") m=$(mid)
        ratio=$(awk -v a="$hi" -v b="$lo" 'BEGIN { printf "%.2f", a / b }')
        verdict=ok
        awk -v r="$ratio" -v m="$MAX_RATIO" 'BEGIN { exit !(r > m) }' && { verdict=FAILED; status=1; }
        echo "{\"mpi\":\"$mpi\",\"mode\":\"$mode\",\"np\":$NP,\"busy\":$BUSY,\"launches\":$n," \
             "\"fastest_median_us\":$lo,\"slowest_median_us\":$hi,\"median_of_medians_us\":$m," \
             "\"ratio\":$ratio,\"max_ratio\":$MAX_RATIO,\"verdict\":\"$verdict\"}"
        if [ "$mode" = quiet ]; then
            quiet_mid=$m
        elif [ -n "$quiet_mid" ]; then
            r=$(awk -v a="$m" -v b="$quiet_mid" 'BEGIN { printf "%.1f", a / b }')
            verdict=ok
            awk -v r="$r" -v m="$MAX_BUSY_RATIO" 'BEGIN { exit !(r > m) }' && { verdict=FAILED; status=1; }
            echo "{\"mpi\":\"$mpi\",\"busy_over_quiet\":$r,\"busy_median_us\":$m,\"quiet_median_us\":$quiet_mid," \
                 "\"max_busy_ratio\":$MAX_BUSY_RATIO,\"verdict\":\"$verdict\"}"
        fi
    done
done
exit $status
