#!/bin/sh
# Runs amo_misuse once per mistake and checks that the job stops with a
# non-zero status and the library's message on stderr.
#   amo_misuse.sh PATH/TO/amo_misuse
# Environment from meson: LAUNCH (the test launcher).
. "${MESON_SOURCE_ROOT:?}/test/harness/expect_fail.sh"
expect_fail_init "$1"

for shm in 1 0; do
    # An invalid sig_op is rejected whether or not SHMEM_DEBUG is on.
    for debug in 0 1; do
        expect "$debug" "$shm" sig_op_put "mpishmem: shmem_long_put_signal: " "sig_op 99"
        expect "$debug" "$shm" sig_op_putmem_nbi "mpishmem: shmem_putmem_signal_nbi: " "sig_op -1"
        expect "$debug" "$shm" sig_op_empty "mpishmem: shmem_put64_signal: " "sig_op 2"
    done
    expect 1 "$shm" amo_misaligned "mpishmem: shmem_int_atomic_add: " "is not aligned"
    expect 1 "$shm" amo_misaligned_global "mpishmem: shmem_long_atomic_fetch_inc: " "is not aligned"
    expect 1 "$shm" lock_private "mpishmem: shmem_set_lock: " "is not a symmetric variable"
done

expect_fail_done
