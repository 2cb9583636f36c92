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
# Sizes past any heap: the message quotes the value as given and never
# prints a byte count that wrapped around 2^64.
for v in 18446744073709551615 99999999999999999999 9223372036854775808 16777216t; do
    want_status=fail want_err="mpishmem: shmem_init: SHMEM_SYMMETRIC_SIZE='$v' is too large: a size is at most 9223372036854775807 bytes"
    env_run "SHMEM_SYMMETRIC_SIZE=$v"
done
for v in 20E 1e30; do
    want_status=fail want_err="mpishmem: shmem_init: SHMEM_SYMMETRIC_SIZE='$v' is not a valid size"
    env_run "SHMEM_SYMMETRIC_SIZE=$v"
done
want_status=fail want_err="mpishmem: shmem_init: SHMEM_CPU_SYMMETRIC_SIZE='18446744073709551615' is too large"
env_run "SHMEM_CPU_SYMMETRIC_SIZE=18446744073709551615"
# The largest size, on 3 PEs of one node: their total does not fit in 64
# bits, and the message says so instead of printing it wrapped.
want_status=fail want_err="SHMEM_SYMMETRIC_SIZE=9223372036854775807 asks for 9223372036854775807 bytes of symmetric heap per PE, 3 PEs on this node need more than 18446744073709551615 bytes"
SHMEM_SYMMETRIC_SIZE=9223372036854775807 "$LAUNCH" 3 "$env_prog" >"$tmp/out" 2>"$tmp/err"
env_check "SHMEM_SYMMETRIC_SIZE=9223372036854775807 on 3 PEs" $?
# A size the node can back still starts.
want_status=ok want_out="env_probe: 2 MiB allocation succeeded"
env_run "SHMEM_SYMMETRIC_SIZE=64M"

env_check_done
