#!/bin/sh
# A program that starts MPI itself on an MPI set-up that cannot make RMA
# windows must stop with a message that names the fix, not a bare MPI
# error.  Only Debian's Open MPI 4 is such a set-up here (1 process, default
# osc/rdma); on other MPIs the same run must simply pass.
# MPICH before 4.1 on UCX gives the program's own windows inside memory
# the library registered a wrong base: a program that started MPI itself
# without UCX_RCACHE_ENABLE=n must be warned on stderr (and its window check
# then fails); an MPICH without the defect must run it cleanly.
#   LAUNCH=.../launch.sh MPI_FLAVOR=openmpi interop_advice.sh PROGRAM
set -u
prog=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
unset OMPI_MCA_osc UCX_RCACHE_ENABLE
timeout 120 "$LAUNCH" 1 "$prog" >"$out" 2>&1
status=$?
if [ "$MPI_FLAVOR" != openmpi ]; then
    if grep -q 'mpishmem: warning: this MPICH (before 4.1, on UCX).*UCX_RCACHE_ENABLE=n' "$out"; then
        echo "ok: MPICH with the window-base defect, and the warning names UCX_RCACHE_ENABLE=n"
        exit 0
    fi
    [ $status -eq 0 ] && { echo "ok: runs on $MPI_FLAVOR (no window-base defect here)"; exit 0; }
    cat "$out"; echo "FAIL: status $status on $MPI_FLAVOR, without the warning"; exit 1
fi
if [ $status -eq 0 ]; then
    echo "ok: this Open MPI makes windows for a 1-process job (nothing to advise)"
    exit 0
fi
if grep -q 'mpishmem: shmem_init: .*OMPI_MCA_osc=ucx,sm' "$out"; then
    echo "ok: status $status, the message names OMPI_MCA_osc=ucx,sm"
    exit 0
fi
cat "$out"
echo "FAIL: status $status without the OMPI_MCA_osc advice"
exit 1
