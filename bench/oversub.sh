#!/bin/sh
# Oversubscribed runs (issue 14), against the targets for a 2-core machine:
#   8 PEs   shmem_init + shmem_finalize           < 1.5 s  (median of RUNS)
#   4 PEs   200 space create/destroy cycles       < 60 s
#   4 PEs   4 x 20,000 mixed AMOs on one global   < 60 s
#   32 PEs  start, global-variable test, finish   < 170 s (whole launch)
#   2 PEs   init + finalize, 8 GiB heap per PE    < 0.5 s  (issue 10)
# Usage: bench/oversub.sh BUILD_DIR [mpich|openmpi] [RUNS]
# A performance check, so not a timed test: it prints times and targets.
set -u
build=${1:?usage: oversub.sh BUILD_DIR [mpich|openmpi] [RUNS]}
flavor=${2:-mpich}
runs=${3:-3}
prog=$build/bench/oversub
if [ "$flavor" = openmpi ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    launch() { np=$1; shift; timeout 400 mpiexec.openmpi --oversubscribe -n "$np" "$@"; }
else
    launch() { np=$1; shift; timeout 400 mpiexec.mpich -n "$np" "$@"; }
fi

median() { sort -n | awk '{v[NR]=$1} END {if (NR == 0) print "fail"; else print v[int((NR+1)/2)]}'; }

# check LABEL TARGET NP ARGS...: median launch time (wall clock, seconds).
check()
{
    label=$1 target=$2 np=$3
    shift 3
    times=
    for _ in $(seq "$runs"); do
        start=$(date +%s.%N)
        if launch "$np" "$prog" "$@" >/dev/null; then
            times="$times $(echo "$(date +%s.%N) - $start" | bc)"
        fi
    done
    m=$(printf '%s\n' $times | median)
    verdict=$(awk -v m="$m" -v t="$target" 'BEGIN {print (m != "fail" && m < t) ? "ok" : "MISSED"}')
    printf '%-44s %8s s  (target %s s)  %s\n' "$label" "$m" "$target" "$verdict"
}

echo "oversub ($flavor, $(nproc) cores, $runs runs each, median of whole launches)"
check "8 PEs: init+finalize, default heap" 1.5 8 init
SHMEM_SYMMETRIC_SIZE=8G check "2 PEs: init+finalize, 8 GiB heap per PE" 0.5 2 init
runs=1
check "4 PEs: 200 space create/destroy cycles" 60 4 spaces 200
check "4 PEs: 4 x 20000 mixed AMOs, one global" 60 4 amo 20000
check "32 PEs: start, globals test, finish" 170 32 globals
