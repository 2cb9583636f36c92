#!/bin/sh
# The MPI path oversubscribed: bench/random_ops at 2 PEs and at 4 PEs on
# one node, MPISHMEM_SHM=0 (all traffic through MPI RMA), in interleaved
# rounds; prints the median and spread (min-max) of each and the ratio of
# the 4-PE median to the 2-PE one against the target of 1/4 (on a 2-core
# machine 4 PEs share the cores, so every operation that needs its target
# inside MPI waits for that PE to be scheduled).  With several build
# directories, their rounds interleave too, so builds compare in one run.
#   bench/oversub_ratio.sh [-r ROUNDS] [-s SECONDS] mpich|openmpi BUILD_DIR...
# Prints, per build:  oversub_ratio,BUILD,NP,MEDIAN_OPS_PER_S,MIN,MAX
# and then          oversub_ratio,BUILD,ratio,R,target,0.25,ok|MISSED
# Extra settings pass through the environment (MPISHMEM_WIN_ALLOCATE=0 ...).
set -u
rounds=3 seconds=2
while getopts r:s: o; do
    case $o in
    r) rounds=$OPTARG ;;
    s) seconds=$OPTARG ;;
    *) echo "usage: $0 [-r ROUNDS] [-s SECONDS] mpich|openmpi BUILD_DIR..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
flavor=${1:?usage: $0 [-r ROUNDS] [-s SECONDS] mpich|openmpi BUILD_DIR...}
shift
[ $# -ge 1 ] || { echo "$0: name at least one build directory" >&2; exit 2; }
if [ "$flavor" = openmpi ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    launch() { timeout 120 mpiexec.openmpi --oversubscribe -n "$@"; }
else
    launch() { timeout 120 mpiexec.mpich -n "$@"; }
fi
export MPISHMEM_SHM=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# stats FILE: "median,min,max" of the numbers in FILE (one a line).
stats()
{
    sort -n "$1" | awk '{v[NR] = $1} END {
        if (NR == 0) { print "fail,fail,fail"; exit }
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%.0f,%.0f,%.0f\n", m, v[1], v[NR] }'
}

echo "oversub_ratio: $flavor, $(nproc) cores, $rounds rounds of ${seconds}s, MPISHMEM_SHM=0"
for r in $(seq "$rounds"); do
    for np in 2 4; do
        i=0
        for build in "$@"; do
            i=$((i + 1))
            line=$(launch "$np" "$build/bench/random_ops" "$seconds" 2>/dev/null |
                   grep '^random_ops,')
            rate=$(echo "$line" | cut -d, -f3)
            [ -n "$rate" ] && echo "$rate" >>"$tmp/$i.$np"
            echo "round $r: $build: $np PEs: ${rate:-failed}" >&2
        done
    done
done
i=0
for build in "$@"; do
    i=$((i + 1))
    two=$(stats "$tmp/$i.2") four=$(stats "$tmp/$i.4")
    echo "oversub_ratio,$build,2,$two"
    echo "oversub_ratio,$build,4,$four"
    echo "$two $four" | awk -F'[, ]' -v b="$build" '{
        if ($1 == "fail" || $4 == "fail" || $1 == 0) { print "oversub_ratio," b ",ratio,fail,target,0.25,MISSED"; exit }
        r = $4 / $1
        printf "oversub_ratio,%s,ratio,%.3f,target,0.25,%s\n", b, r, (r >= 0.25 ? "ok" : "MISSED") }'
done
