#!/bin/sh
# A program that starts MPI itself on an MPI set-up that cannot make RMA
# windows must stop with a message that names the fix, not a bare MPI
# error.  Only Debian's Open MPI 4 is such a set-up here (1 process, default
# osc/rdma); on other MPIs the same run must simply pass.
#   LAUNCH=.../launch.sh MPI_FLAVOR=openmpi interop_advice.sh PROGRAM
set -u
prog=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
unset OMPI_MCA_osc
timeout 120 "$LAUNCH" 1 "$prog" >"$out" 2>&1
status=$?
if [ "$MPI_FLAVOR" != openmpi ]; then
    [ $status -eq 0 ] && { echo "ok: runs on $MPI_FLAVOR"; exit 0; }
    cat "$out"; echo "FAIL: status $status on $MPI_FLAVOR"; exit 1
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
