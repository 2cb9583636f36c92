#!/bin/sh
# Context misuse: each run must stop with the library's message.
#   ctx_misuse.sh PATH/TO/ctx_misuse
. "${MESON_SOURCE_ROOT:?}/test/harness/expect_fail.sh"
expect_fail_init "$1"

for shm in 1 0; do
    expect 0 "$shm" destroy_default "mpishmem: shmem_ctx_destroy: SHMEM_CTX_DEFAULT cannot be destroyed"
    expect 0 "$shm" team_pe_range "mpishmem: shmem_ctx_long_p: PE 1 is out of range [0, 1) of the context's team"
    expect 1 "$shm" private_other_thread "mpishmem: shmem_ctx_long_p: context" \
        "was created SHMEM_CTX_PRIVATE by another thread"
    expect 1 "$shm" bad_options "mpishmem: shmem_ctx_create: options 0x200 has unknown bits"
done

# Context handles are checked without SHMEM_DEBUG too, as team handles are:
# a destroyed or garbage handle stops the job by name within seconds,
# never a crash or glibc's "double free".
destroyed="was destroyed"
garbage="is not a live context (never created, or garbage)"
for debug in 0 1; do
    for shm in 1 0; do
        EXPECT_WITHIN=5 expect "$debug" "$shm" destroy_twice "mpishmem: shmem_ctx_destroy: context" "$destroyed"
        EXPECT_WITHIN=5 expect "$debug" "$shm" use_destroyed "mpishmem: shmem_ctx_long_p: context" "$destroyed"
    done
    EXPECT_WITHIN=5 expect "$debug" 1 quiet_destroyed "mpishmem: shmem_ctx_quiet: context" "$destroyed"
    EXPECT_WITHIN=5 expect "$debug" 0 fence_destroyed "mpishmem: shmem_ctx_fence: context" "$destroyed"
    EXPECT_WITHIN=5 expect "$debug" 1 get_team_destroyed "mpishmem: shmem_ctx_get_team: context" "$destroyed"
    EXPECT_WITHIN=5 expect "$debug" 1 session_destroyed "mpishmem: shmem_ctx_session_start: context" "$destroyed"
    EXPECT_WITHIN=5 expect "$debug" 0 fetch_add_destroyed "mpishmem: shmem_ctx_long_atomic_fetch_add: context" "$destroyed"
    EXPECT_WITHIN=5 expect "$debug" 1 team_ctx_destroyed "mpishmem: shmem_ctx_long_atomic_add: context" "$destroyed"
    EXPECT_WITHIN=5 expect "$debug" 1 garbage_destroy "mpishmem: shmem_ctx_destroy: context handle 0x10 $garbage"
    EXPECT_WITHIN=5 expect "$debug" 0 garbage_heap_quiet "mpishmem: shmem_ctx_quiet: context handle 0x" "$garbage"
    EXPECT_WITHIN=5 expect "$debug" 1 garbage_get_team "mpishmem: shmem_ctx_get_team: context handle 0xdead0000 $garbage"
done
expect_fail_done
