#!/bin/sh
# A program compiled with the other MPI's wrapper against this build's
# library (the archive, as the card's -L$P/lib -lmpishmem finds it; the shared
# library): shmem_init stops naming both MPIs, non-zero, no signal, < 5 s.
# Skipped (77) when the other MPI's wrapper is absent.
# Environment from meson: MESON_SOURCE_ROOT, MESON_BUILD_ROOT, MPI_FLAVOR.
: "${MESON_SOURCE_ROOT:?}" "${MESON_BUILD_ROOT:?}" "${MPI_FLAVOR:?}"
case $MPI_FLAVOR in
mpich) other=openmpi built="MPICH" runs="Open MPI" ;;
openmpi) other=mpich built="Open MPI" runs="MPICH" ;;
*) echo "SKIP: MPI flavour '$MPI_FLAVOR'"; exit 77 ;;
esac
occ=$(command -v "mpicc.$other") || { echo "SKIP: no mpicc.$other"; exit 77; }
orun=$(command -v "mpiexec.$other") || { echo "SKIP: no mpiexec.$other"; exit 77; }
flags=
[ "$other" = openmpi ] && flags="--allow-run-as-root --oversubscribe"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
src=$MESON_SOURCE_ROOT/test/errors/wrong_mpi.c
lib=$MESON_BUILD_ROOT
shared=$(find "$lib" -maxdepth 2 -name 'libmpishmem.so' | head -n 1)
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run LABEL EXE NP: the job must stop as described above.
run()
{
    start=$(date +%s)
    timeout 20 "$orun" $flags -n "$3" "$2" >"$tmp/out" 2>"$tmp/err"
    status=$? took=$(($(date +%s) - start))
    problem=
    [ "$status" -eq 0 ] && problem="exit status 0"
    [ "$status" -ge 124 ] && problem="status $status (timeout or signal)"
    [ "$took" -gt 5 ] && problem="${problem:+$problem; }took ${took} s"
    grep -q "built with $built.*runs on $runs" "$tmp/err" ||
        problem="${problem:+$problem; }no message naming $built and $runs"
    grep -q "started" "$tmp/out" && problem="${problem:+$problem; }the program ran on"
    if [ -n "$problem" ]; then
        fail "$1 at $3 PEs: $problem"
        sed 's/^/  | /' "$tmp/err" | head -n 15
    else
        echo "ok: $1 at $3 PEs (status $status, ${took} s)"
    fi
}

# The archive: an Open MPI build refers to Open MPI's own symbols
# (ompi_mpi_comm_world), so MPICH's wrapper stops at link time; that is
# the loud failure, and the shared route below is the one that runs.
if "$occ" -I"$MESON_SOURCE_ROOT/include" "$src" "$lib/libmpishmem.a" -lhwloc -lm -lpthread \
    -o "$tmp/static" 2>"$tmp/link"; then
    run "mpicc.$other with libmpishmem.a" "$tmp/static" 1
    run "mpicc.$other with libmpishmem.a" "$tmp/static" 2
elif [ "$MPI_FLAVOR" = openmpi ] && grep -q "ompi_" "$tmp/link"; then
    echo "ok: mpicc.$other with libmpishmem.a fails at link time (undefined ompi_ symbols)"
else
    fail "mpicc.$other with libmpishmem.a: link failed"; cat "$tmp/link"
fi
if [ -n "$shared" ]; then
    dir=$(dirname "$shared")
    if "$occ" -I"$MESON_SOURCE_ROOT/include" "$src" -L"$dir" -lmpishmem -Wl,-rpath,"$dir" \
        -o "$tmp/shared" 2>"$tmp/link"; then
        run "mpicc.$other with libmpishmem.so" "$tmp/shared" 1
        run "mpicc.$other with libmpishmem.so" "$tmp/shared" 2
    else
        fail "mpicc.$other with libmpishmem.so: link failed"; cat "$tmp/link"
    fi
fi
[ "$failures" -eq 0 ] && echo "wrong_mpi: all passed" && exit 0
echo "wrong_mpi: $failures failed"
exit 1
