#!/bin/sh
# Context misuse: each run must stop with the library's message.
#   ctx_misuse.sh PATH/TO/ctx_misuse
. "${MESON_SOURCE_ROOT:?}/test/harness/expect_fail.sh"
expect_fail_init "$1"

for shm in 1 0; do
    expect 0 "$shm" destroy_default "mpishmem: shmem_ctx_destroy: SHMEM_CTX_DEFAULT cannot be destroyed"
    expect 0 "$shm" team_pe_range "mpishmem: shmem_ctx_long_p: PE 1 is out of range [0, 1) of the context's team"
    expect 1 "$shm" use_destroyed "mpishmem: shmem_ctx_long_p: context" "was destroyed"
    expect 1 "$shm" quiet_destroyed "mpishmem: shmem_ctx_quiet: context" "was destroyed"
    expect 1 "$shm" private_other_thread "mpishmem: shmem_ctx_long_p: context" \
        "was created SHMEM_CTX_PRIVATE by another thread"
    expect 1 "$shm" bad_options "mpishmem: shmem_ctx_create: options 0x200 has unknown bits"
done
expect_fail_done
