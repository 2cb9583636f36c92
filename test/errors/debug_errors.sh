#!/bin/sh
# Runs debug_errors once per misuse and checks that the job stops with a
# non-zero status and the library's message on stderr.
#   debug_errors.sh PATH/TO/debug_errors
# Environment from meson: LAUNCH (the test launcher).
. "${MESON_SOURCE_ROOT:?}/test/harness/expect_fail.sh"
expect_fail_init "$1"

# RMA misuses are checked on both data paths.
for shm in 1 0; do
    expect 1 "$shm" put_pe_range "mpishmem: shmem_long_put: PE 7 is out of range [0, 2) (PE 1)"
    expect 1 "$shm" get_pe_range "mpishmem: shmem_long_get: PE 7 is out of range [0, 2)"
    expect 1 "$shm" p_pe_range "mpishmem: shmem_long_p: PE 7 is out of range [0, 2)"
    expect 1 "$shm" p_pe_negative "mpishmem: shmem_long_p: PE -1 is out of range [0, 2)"
    expect 1 "$shm" g_pe_range "mpishmem: shmem_long_g: PE 7 is out of range [0, 2)"
    expect 1 "$shm" iput_pe_range "mpishmem: shmem_long_iput: PE 7 is out of range [0, 2)"
    expect 1 "$shm" pe_quiet_range "mpishmem: shmem_pe_quiet: PE 7 is out of range [0, 2)"
    expect 1 "$shm" put_stack "mpishmem: shmem_long_put: address " \
        "(8 bytes, target PE 0) is not symmetric"
    expect 1 "$shm" get_stack "mpishmem: shmem_long_get: address " \
        "(8 bytes, target PE 0) is not symmetric"
    expect 1 "$shm" put_malloc "mpishmem: shmem_long_put: address " "is not symmetric"
    expect 1 "$shm" put_past_heap "mpishmem: shmem_long_put: address " \
        "(2097152 bytes, target PE 0) is not symmetric" "runs past the end of its segment"
    expect 1 "$shm" get_past_heap "mpishmem: shmem_long_get: address " \
        "(2097152 bytes, target PE 0) is not symmetric"
    expect 1 "$shm" put_negative_count "mpishmem: shmem_long_put: nelems 18446744073709551615 is too large: 18446744073709551615 elements of 8 bytes"
    expect 1 "$shm" getmem_negative_count "mpishmem: shmem_getmem: nelems 18446744073709551615 is too large"
    expect 1 "$shm" iput_stride0 "mpishmem: shmem_long_iput: strides must be >= 1 (dest stride 0, source stride 1)"
    expect 1 "$shm" iget_stride0 "mpishmem: shmem_long_iget: strides must be >= 1 (dest stride 1, source stride 0)"

    # Strided spans that wrap the address space: the message names the
    # stride and count the user passed, with and without SHMEM_DEBUG.
    for debug in 0 1; do
        expect "$debug" "$shm" iput_span_wrap "mpishmem: shmem_long_iput: dst 6148914691236517206 with nelems 4 makes the dest array span more than PTRDIFF_MAX bytes (8-byte elements"
        expect "$debug" "$shm" iput_stride_2_61 "mpishmem: shmem_long_iput: dst 2305843009213693952 with nelems 9 makes the dest array span"
        expect "$debug" "$shm" iget_local_wrap "mpishmem: shmem_long_iget: dst 2305843009213693952 with nelems 9 makes the dest array span"
        expect "$debug" "$shm" ibget_bsize_wrap "mpishmem: shmem_long_ibget: dst 1 with bsize 4611686018427387903 and nblocks 2 makes the dest array span"
        expect "$debug" "$shm" iputmem_negative_count "mpishmem: shmem_iput8: dst 1 with nelems 18446744073709551615 makes the dest array span"
        expect "$debug" "$shm" put_signal_negative_count "mpishmem: shmem_long_put_signal: nelems 18446744073709551615 is too large"
    done
    expect 1 "$shm" test_all_huge "mpishmem: shmem_long_test_all: ivars " "(4611686018427387904 elements) is not symmetric"

    # Memory safety checks stay on without SHMEM_DEBUG.
    expect 0 "$shm" put_pe_range "mpishmem: shmem_long_put: PE 7 is out of range [0, 2)"
    expect 0 "$shm" get_pe_range "mpishmem: shmem_long_get: PE 7 is out of range [0, 2)"
    expect 0 "$shm" p_pe_range "mpishmem: shmem_long_p: PE 7 is out of range [0, 2)"
    expect 0 "$shm" g_pe_range "mpishmem: shmem_long_g: PE 7 is out of range [0, 2)"
    expect 0 "$shm" put_stack "mpishmem: shmem_long_put: address " "is not symmetric"
    expect 0 "$shm" get_stack "mpishmem: shmem_long_get: address " "is not symmetric"
    expect 0 "$shm" put_negative_count "mpishmem: shmem_long_put: nelems 18446744073709551615 is too large: 18446744073709551615 elements of 8 bytes"
done

# A wait or test on memory no other PE can update stops at once, with or
# without SHMEM_DEBUG, instead of waiting forever.
notsym="is not symmetric"
for debug in 0 1; do
    EXPECT_WITHIN=5 expect "$debug" 1 wait_stack "mpishmem: shmem_long_wait_until: ivar " "(1 element) $notsym"
    EXPECT_WITHIN=5 expect "$debug" 0 wait_generic_stack "mpishmem: shmem_long_wait_until: ivar " "$notsym"
    EXPECT_WITHIN=5 expect "$debug" 1 wait_deprecated_stack "mpishmem: shmem_wait: ivar " "$notsym"
    EXPECT_WITHIN=5 expect "$debug" 0 wait_all_stack "mpishmem: shmem_long_wait_until_all: ivars " "(4 elements) $notsym"
    EXPECT_WITHIN=5 expect "$debug" 1 wait_any_malloc "mpishmem: shmem_long_wait_until_any: ivars " "$notsym"
    EXPECT_WITHIN=5 expect "$debug" 0 wait_some_vector_stack "mpishmem: shmem_long_wait_until_some_vector: ivars " "$notsym"
    EXPECT_WITHIN=5 expect "$debug" 1 test_stack "mpishmem: shmem_long_test: ivar " "$notsym"
    EXPECT_WITHIN=5 expect "$debug" 0 test_any_vector_stack "mpishmem: shmem_long_test_any_vector: ivars " "$notsym"
    EXPECT_WITHIN=5 expect "$debug" 1 signal_wait_stack "mpishmem: shmem_signal_wait_until: sig_addr " "$notsym"
done
EXPECT_WITHIN=5 expect 0 1 test_all_huge "mpishmem: shmem_long_test_all: ivars " "(4611686018427387904 elements) $notsym"

# Library state, synchronization and memory management: one data path.
expect 1 1 p_before_init "mpishmem: shmem_long_p: called before shmem_init"
expect 0 1 p_before_init "mpishmem: shmem_long_p: called before shmem_init"
expect 1 1 malloc_before_init "mpishmem: shmem_malloc: called before shmem_init"
expect 1 1 after_finalize_p "mpishmem: shmem_long_p: called after shmem_finalize"
expect 1 1 after_finalize_malloc "mpishmem: shmem_malloc: called after shmem_finalize"
expect 1 1 after_finalize_barrier_all "mpishmem: shmem_barrier_all: called after shmem_finalize"
expect 1 1 wait_bad_cmp "mpishmem: shmem_long_wait_until: comparison operator 99 is not one of"
expect 0 1 wait_bad_cmp "mpishmem: shmem_long_wait_until: comparison operator 99 is not one of"
expect 0 1 test_bad_cmp "mpishmem: shmem_int_test: comparison operator -1 is not one of"
dead="was not allocated from the symmetric heap, or is already freed"
expect 1 1 free_stack "mpishmem: shmem_free: " "$dead"
expect 1 1 free_interior "mpishmem: shmem_free: " "$dead"
expect 1 1 double_free "mpishmem: shmem_free: " "$dead"

expect_fail_done
