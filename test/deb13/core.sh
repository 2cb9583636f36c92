#!/bin/sh
# Inside the Debian 13 root (test/deb13/enter.sh): builds mpishmem against
# one MPI and runs the core set.   sh test/deb13/core.sh mpich|openmpi
# The core set: every area's main tests (RMA, AMO, sync, collectives, teams,
# contexts, spaces, globals, errors, the examples, Fortran), each in the
# shapes below, which together cover 1, 2 and 4 PEs, load/store and MPI
# RMA (MPISHMEM_SHM=0), and two pretend nodes: MPICH at 1 PE, 2 PEs through
# MPI RMA, 4 PEs with load/store and 2x2 PEs on pretend nodes; Open MPI at
# 1 PE and at 2 and 4 PEs through MPI RMA (its pretend nodes, where they
# work at all, cost minutes per AMO test).  The host's CI runs every test
# in every shape on Debian 12's MPIs (docs/checks.md).
set -u
mpi=$1
dir=build-deb13-$mpi
log=$dir.setup.log
# DEB13_TESTS: other names instead (a quick look at a few).
tests=${DEB13_TESTS:-"setup_query setup_memory
rma_typed rma_sized rma_globals rma_ordering rma_bounce rma_delayed
amo_hammer amo_types amo_signal amo_lock
sync_p2p sync_progress sync_deliver_blocked
coll_team coll_legacy coll_small coll_barrier
team_basic team_mpi_interop
ctx_api ctx_isolation ctx_threads
spaces_api spaces_partial spaces_free_after_rma
globals_shm globals_mpifirst globals_fortran
errors_interop_user_mpi errors_interop_shmem_mpi errors_mpi_rule
errors_interop_advice errors_wrong_mpi errors_launcher_env errors_exit
quirks_applied
fortran_init fortran_rma fortran_amo fortran_coll
examples"}
case $mpi in
mpich) shapes="np1-shm1 np2-shm0 np4-shm1 hybrid2x2" ;;
*) shapes="np1-shm1 np2-shm0 np4-shm0" ;;
esac

case $mpi in
mpich) version="MPICH $(mpichversion | sed -n 's/^MPICH Version: *//p')" ;;
*) version=$(ompi_info --version 2>/dev/null | head -1) ;;
esac
echo "=== Debian 13 $mpi: $version"
if [ ! -f "$dir/build.ninja" ]; then
    CC=mpicc.$mpi FC=mpif90.$mpi meson setup "$dir" -Dbenchmarks=false >"$log" 2>&1 ||
        { tail -30 "$log"; echo "=== Debian 13 $mpi: CONFIGURE FAILED"; exit 1; }
fi
# Only what the core set needs is built (test/deb13/select.py).
sel=$(python3 test/deb13/select.py "$dir" "$tests" "$shapes") ||
    { echo "=== Debian 13 $mpi: could not list the core set"; exit 1; }
targets=$(echo "$sel" | sed -n 1p)
list=$(echo "$sel" | sed -n 2p)
timeout 1800 ninja -C "$dir" $targets >>"$log" 2>&1 ||
    { tail -30 "$log"; echo "=== Debian 13 $mpi: BUILD FAILED"; exit 1; }
[ -n "$list" ] || { echo "=== Debian 13 $mpi: no tests listed"; exit 1; }
bad=0
meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes 1 $list >"$dir/test.out" 2>&1
sed -n 's/^\(Ok\|Expected Fail\|Fail\|Unexpected Pass\|Skipped\|Timeout\): *\([0-9]*\)/\1 \2/p' \
    "$dir/test.out" | tr '\n' ' ' | sed "s/^/=== Debian 13 $mpi: /; s/ *\$/\\n/"
for k in Fail Timeout "Unexpected Pass"; do
    n=$(sed -n "s/^$k: *\([0-9]*\).*/\1/p" "$dir/test.out")
    bad=$((bad + ${n:-0}))
done
grep -q '^Ok:' "$dir/test.out" || { tail -30 "$dir/test.out"; bad=$((bad + 1)); }
[ "$bad" -gt 0 ] && sed -n '/^Summary of Failures/,$p' "$dir/test.out"
[ "$bad" -eq 0 ]
