#!/bin/sh
# A symmetric heap larger than the node can back stops shmem_init within
# seconds (MPICH used to hang in MPI_Win_allocate_shared) with a message
# naming the variable, the size and what the node has; the library's MPI
# failures are quoted as MPI_Error_string text, never a bare number.
#   heap_size_errors.sh PATH/TO/env_probe
# Environment from meson: LAUNCH, MPIEXEC, MPIEXEC_FLAGS, MPI_FLAVOR.
. "${MESON_SOURCE_ROOT:?}/test/harness/env_check.sh"
env_check_init "${1:?usage: heap_size_errors.sh PROGRAM}"
unset SHMEM_SYMMETRIC_SIZE SMA_SYMMETRIC_SIZE SHMEM_DEBUG SMA_DEBUG MPISHMEM_SHM
# A hang is the defect: 20 s is far beyond the seconds a refusal takes.
export MPISHMEM_TEST_TIMEOUT=20

for v in 1T 200G; do
    want_status=fail
    want_err="mpishmem: shmem_init: SHMEM_SYMMETRIC_SIZE=$v asks for|but the node has|lower SHMEM_SYMMETRIC_SIZE"
    run_start=$(date +%s)
    env_run "SHMEM_SYMMETRIC_SIZE=$v"
    if grep -q "MPI error [0-9]" "$tmp/err"; then
        failures=$((failures + 1))
        echo "FAIL: SHMEM_SYMMETRIC_SIZE=$v: a bare MPI error number in the message"
    fi
    echo "      ($(($(date +%s) - run_start)) s)"
done
want_status=fail want_err="mpishmem: shmem_init: SMA_SYMMETRIC_SIZE=1T asks for"
env_run "SMA_SYMMETRIC_SIZE=1T"
# A size the node can back still starts.
want_status=ok want_out="env_probe: 2 MiB allocation succeeded"
env_run "SHMEM_SYMMETRIC_SIZE=64M"

env_check_done
