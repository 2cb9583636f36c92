#!/bin/sh
# Team misuse: each run must stop with the library's message.
#   team_misuse.sh PATH/TO/team_misuse
. "${MESON_SOURCE_ROOT:?}/test/harness/expect_fail.sh"
expect_fail_init "$1"

for debug in 0 1; do
    expect "$debug" 1 destroy_world "mpishmem: shmem_team_destroy: SHMEM_TEAM_WORLD is a predefined team"
    expect "$debug" 1 destroy_shared "mpishmem: shmem_team_destroy: SHMEM_TEAM_SHARED is a predefined team"
    expect "$debug" 1 destroy_twice "mpishmem: shmem_team_destroy: team handle" "is not a live team"
done
expect 1 1 use_destroyed "mpishmem: shmem_team_n_pes: team handle" "is not a live team"
expect 1 1 bad_triplet_debug "mpishmem: shmem_team_split_strided: invalid PE triplet (start 0, stride 1, size 3) for a parent team of 2 PEs"
expect 1 1 mismatched_triplet "mpishmem: shmem_team_split_strided: PEs of the parent team passed different arguments"
expect 1 1 bad_config_mask "mpishmem: shmem_team_split_strided: config_mask 0x20 has unknown bits"
expect 1 0 xrange_zero "mpishmem: shmem_team_split_2d: xrange must be positive (got 0)"
expect_fail_done
