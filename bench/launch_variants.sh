# Shared by oversub_waits.sh and poll_own.sh; sourced, with $top (the
# source tree), $tmp (a scratch directory) and $NP set.
# variant_prog BENCH MPI: the program of variant MPI of benchmark BENCH:
#   oshmem*: BENCH.c built here with Open MPI's oshcc (the peer);
#   else $BUILD_<MPI>/bench/BENCH, by default build-<MPI> of the tree.
# variant_launch MPI PROG SECONDS: runs PROG on $NP PEs with MPI's launcher
#   (oversubscribed where it asks), bounded, keeping its JSON lines.
variant_prog() {
    case $2 in
    oshmem*)
        [ -x "$tmp/osh-$1" ] || oshcc -O2 -I"$top/bench" "$top/bench/$1.c" -o "$tmp/osh-$1" ||
            return 1
        echo "$tmp/osh-$1" ;;
    *)
        build=$(printenv "BUILD_$2") || build=$top/build-$2
        echo "$build/bench/$1" ;;
    esac
}

variant_launch() {
    prog=$2 limit=$3
    case $1 in
    oshmem*) set -- oshrun --oversubscribe --mca opal_common_ucx_opal_mem_hooks 0 -n "$NP" ;;
    openmpi*) set -- mpiexec.openmpi --oversubscribe -n "$NP" ;;
    *) set -- mpiexec.mpich -n "$NP" ;;
    esac
    timeout "$limit" "$@" "$prog" 2>/dev/null | grep '^{'
}
