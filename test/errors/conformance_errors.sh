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

# Bad arguments to allocation routines: NULL (or nothing done) on every PE
# with one warning, and the program goes on; SHMEM_DEBUG=1 stops it.
pow2="is not a power of two; returning NULL on every PE"
dead="was not allocated from the symmetric heap, or is already freed"
for shm in 1 0; do
    expect_warn 0 "$shm" align_not_pow2 "mpishmem: shmem_align: warning: alignment 3145728 $pow2"
    expect_warn 0 "$shm" align_zero "mpishmem: shmem_align: warning: alignment 0 $pow2"
    expect_warn 0 "$shm" align_three "mpishmem: shmem_align: warning: alignment 3 $pow2"
    expect_warn 0 "$shm" shmemalign_63 "mpishmem: shmemalign: warning: alignment 63 $pow2"
    expect_warn 0 "$shm" realloc_freed "mpishmem: shmem_realloc: warning: " "$dead; returning NULL on every PE"
    expect_warn 0 "$shm" shrealloc_freed "mpishmem: shrealloc: warning: " "$dead"
    expect_warn 0 "$shm" free_freed "mpishmem: shmem_free: warning: " "$dead; nothing is freed on any PE"
    expect_warn 0 "$shm" shfree_stack "mpishmem: shfree: warning: " "$dead"
    expect_warn 0 "$shm" calloc_overflow "mpishmem: shmem_calloc: warning: count 9223372036854775807 times size 4 overflows"
    expect_warn 0 "$shm" hints_unknown "mpishmem: shmem_malloc_with_hints: warning: unknown hint bits 0x100000 are ignored"
done
EXPECT_NP=3 expect_warn 0 1 align_one_pe_bad "mpishmem: shmem_align: warning: alignment 3 $pow2 (PE 2"
EXPECT_NP=3 expect_warn 0 0 realloc_one_pe_bad "mpishmem: shmem_realloc: warning: " "$dead" "(PE 2"
EXPECT_NP=3 expect_warn 0 1 free_one_pe_bad "mpishmem: shmem_free: warning: " "$dead" "(PE 2"
expect 1 1 align_not_pow2 "mpishmem: shmem_align: alignment 3145728 is not a power of two"
expect 1 0 align_zero "mpishmem: shmem_align: alignment 0 is not a power of two"
expect 1 1 shmemalign_63 "mpishmem: shmemalign: alignment 63 is not a power of two"
expect 1 1 realloc_freed "mpishmem: shmem_realloc: " "$dead"
expect 1 0 free_freed "mpishmem: shmem_free: " "$dead"
expect 1 1 calloc_overflow "mpishmem: shmem_calloc: count 9223372036854775807 times size 4 overflows"
expect 1 1 hints_unknown "mpishmem: shmem_malloc_with_hints: unknown hint bits 0x100000"
EXPECT_NP=3 expect 1 1 free_one_pe_bad "mpishmem: shmem_free: " "$dead" "(PE 2)"

# PEs that pass different sizes or blocks to an allocation routine stop
# there, named by the lowest PE, with or without SHMEM_DEBUG: the
# agreement every allocation already runs compares them.
differ="PEs disagree on the size: PE 0 asked for"
block="PEs disagree on the block: PE 0 passed the one at offset "
for debug in 0 1; do
    for shm in 1 0; do
        EXPECT_WITHIN=5 expect "$debug" "$shm" malloc_sizes "mpishmem: shmem_malloc: $differ 64 bytes, PE 1 for 128"
        EXPECT_WITHIN=5 expect "$debug" "$shm" free_blocks "mpishmem: shmem_free: $block" "of the symmetric heap, PE 1 the one at offset "
    done
    EXPECT_WITHIN=5 expect "$debug" 1 calloc_sizes "mpishmem: shmem_calloc: $differ 32 bytes, PE 1 for 64"
    EXPECT_WITHIN=5 expect "$debug" 0 align_sizes "mpishmem: shmem_align: $differ 128 bytes, PE 1 for 256"
    EXPECT_WITHIN=5 expect "$debug" 1 realloc_sizes "mpishmem: shmem_realloc: $differ 1024 bytes, PE 1 for 4096"
    EXPECT_WITHIN=5 expect "$debug" 0 realloc_blocks "mpishmem: shmem_realloc: $block"
    EXPECT_WITHIN=5 expect "$debug" 1 space_malloc_sizes "mpishmem: shmem_space_malloc: $differ 48 bytes, PE 1 for 96"
done
EXPECT_NP=3 EXPECT_WITHIN=5 expect 0 1 malloc_sizes "mpishmem: shmem_malloc: $differ 64 bytes, PE 2 for 128"
EXPECT_NP=3 EXPECT_WITHIN=5 expect 0 0 free_blocks "mpishmem: shmem_free: $block" ", PE 2 the one at offset "

expect_fail_done
