#!/bin/sh
# Issue 14 misuses: each run of conformance_errors makes one and the job
# must stop with a non-zero status and the library's message.
#   conformance_errors.sh PATH/TO/conformance_errors
# Environment from meson: LAUNCH (the test launcher), MESON_SOURCE_ROOT.
. "${MESON_SOURCE_ROOT:?}/test/harness/expect_fail.sh"
expect_fail_init "$1"

for shm in 1 0; do
    # SHMEM_DEBUG: a transfer stays inside the allocation it starts in, on
    # both data paths, in the default heap and in a memory space.
    expect 1 "$shm" put_past_block "mpishmem: shmem_long_put: 128 bytes at " \
        "run 64 bytes past the end of their allocation" "in the symmetric heap"
    expect 1 "$shm" get_past_block "mpishmem: shmem_long_get: 128 bytes at " \
        "run 80 bytes past the end of their allocation"
    expect 1 "$shm" iput_past_block "mpishmem: shmem_long_iput: " "past the end of their allocation"
    expect 1 "$shm" put_freed "mpishmem: shmem_long_p: address " \
        "is not inside a live allocation of the symmetric heap"
    expect 1 "$shm" space_put_past_block "mpishmem: shmem_long_put: 128 bytes at " \
        "past the end of their allocation"

    # A PE that leaves main without shmem_finalize stops the job, by name.
    expect 0 "$shm" no_finalize "mpishmem: PE 1 exited without calling shmem_finalize"
    EXPECT_NP=3 expect 0 "$shm" no_finalize "mpishmem: PE 2 exited without calling shmem_finalize"

    # Team handles are checked without SHMEM_DEBUG (and with it).
    for debug in 0 1; do
        expect "$debug" "$shm" team_garbage "mpishmem: shmem_long_broadcast: team handle 0x10 is not a live team"
        expect "$debug" "$shm" team_garbage_heap "mpishmem: shmem_team_sync: team handle " "is not a live team"
        expect "$debug" "$shm" team_destroyed "mpishmem: shmem_long_sum_reduce: team handle " \
            "is not a live team (destroyed, or never created)"
    done
    expect 0 "$shm" team_garbage_n_pes "mpishmem: shmem_team_n_pes: team handle 0xdead0000 is not a live team"
    expect 0 "$shm" team_garbage_ptr "mpishmem: shmem_team_ptr: team handle 0x40 is not a live team"
    expect 0 "$shm" team_garbage_split "mpishmem: shmem_team_split_strided: team handle 0x1234 is not a live team"
done

# shmem_align: an alignment that is no power of two is refused, debug or not.
expect 0 1 align_not_pow2 "mpishmem: shmem_align: alignment 3145728 is not a power of two"
expect 1 0 align_not_pow2 "mpishmem: shmem_align: alignment 3145728 is not a power of two"

expect_fail_done
