/*
 * coll_misuse: makes one collective mistake, named by argv[1], so that
 * coll_misuse.sh can check the library stops the job with its message.
 * Runs on 2 PEs; where only one PE errs, the other one waits in the
 * collective until the job is stopped.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>

static long g_psync[SHMEM_SYNC_SIZE];

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    if (strcmp(c, "before_init") == 0) {
        shmem_team_sync(SHMEM_TEAM_WORLD);
        return 0;
    }
    shmem_init();
    int me = shmem_my_pe();
    long *buf = shmem_calloc(64, sizeof(long));
    long *out = shmem_calloc(64, sizeof(long));
    long stack[64] = {0}, pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
    long *private_mem = calloc(64, sizeof(long));
    long psync_stack[SHMEM_SYNC_SIZE];
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
        g_psync[i] = psync_stack[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();

    /* SHMEM_DEBUG checks */
    if (strcmp(c, "team_destroyed") == 0) {
        shmem_team_t t;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &t);
        shmem_team_destroy(t);
        shmem_long_sum_reduce(t, out, buf, 4);
    } else if (strcmp(c, "space_mixed") == 0) {
        /* dest in a dynamic CPU space, source in the default one. */
        shmem_space_config_t cfg = {.device_type = SHMEM_DEVICE_CPU, .size = 1 << 20,
                                    .flags = SHMEM_SPACE_FLAG_DEFAULT};
        shmem_space_t sp;
        shmem_team_t st;
        shmem_space_create(&cfg, &sp, &st);
        long *in_space = sp != SHMEM_SPACE_INVALID ? shmem_space_malloc(sp, 4 * sizeof(long))
                                                   : NULL;
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, in_space, buf, 4);
    } else if (strcmp(c, "fcollect_count_mismatch") == 0)
        shmem_long_fcollect(SHMEM_TEAM_WORLD, out, buf, (size_t)me + 1);
    else if (strcmp(c, "broadcast_root_mismatch") == 0)
        shmem_long_broadcast(SHMEM_TEAM_WORLD, out, buf, 4, me);
    else if (strcmp(c, "broadcast_dest_mismatch") == 0)
        shmem_long_broadcast(SHMEM_TEAM_WORLD, out + me, buf, 4, 0);
    else if (strcmp(c, "reduce_count_mismatch") == 0)
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, out, buf, (size_t)me + 3);
    else if (strcmp(c, "exscan_count_mismatch") == 0)
        shmem_long_sum_exscan(SHMEM_TEAM_WORLD, out, buf, (size_t)me + 3);
    else if (strcmp(c, "alltoalls_stride_mismatch") == 0)
        shmem_long_alltoalls(SHMEM_TEAM_WORLD, out, buf, 1 + me, 1, 2);
    else if (strcmp(c, "to_all_count_mismatch") == 0)
        shmem_long_max_to_all(out, buf, 2 + me, 0, 0, shmem_n_pes(), (long *)buf + 32, g_psync);
    else if (strcmp(c, "reduce_overlap") == 0)
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, buf + 1, buf, 4);
    else if (strcmp(c, "fcollect_overlap") == 0)
        shmem_long_fcollect(SHMEM_TEAM_WORLD, buf + 1, buf, 2);
    else if (strcmp(c, "broadcast_overlap") == 0)
        shmem_long_broadcast(SHMEM_TEAM_WORLD, buf + 1, buf, 4, 0);
    else if (strcmp(c, "alltoall_overlap") == 0)
        shmem_long_alltoall(SHMEM_TEAM_WORLD, buf + 1, buf, 2);
    else if (strcmp(c, "reduce_source_stack") == 0)
        shmem_long_max_reduce(SHMEM_TEAM_WORLD, out, stack, 5);
    else if (strcmp(c, "collect_dest_private") == 0)
        shmem_long_collect(SHMEM_TEAM_WORLD, private_mem, buf, 2);
    else if (strcmp(c, "psync_not_sync_value") == 0) {
        g_psync[3] = 0;
        shmem_barrier(0, 0, shmem_n_pes(), g_psync);
    } else if (strcmp(c, "psync_stack") == 0)
        shmem_broadcast64(out, buf, 2, 0, 0, 0, shmem_n_pes(), psync_stack);
    else if (strcmp(c, "pwrk_stack") == 0)
        shmem_long_sum_to_all(out, buf, 4, 0, 0, shmem_n_pes(), pwrk, g_psync);
    /* checks that are always on */
    else if (strcmp(c, "broadcast_root_range") == 0)
        shmem_long_broadcast(SHMEM_TEAM_WORLD, out, buf, 4, 5);
    else if (strcmp(c, "broadcast64_root_range") == 0)
        shmem_broadcast64(out, buf, 4, 2, 0, 0, 2, g_psync);
    else if (strcmp(c, "alltoalls_stride0") == 0)
        shmem_alltoallsmem(SHMEM_TEAM_WORLD, out, buf, 0, 1, 4);
    else if (strcmp(c, "alltoalls_span_wrap") == 0) /* (2^32 - 2) * (2^31 - 1) * 8 bytes */
        shmem_long_alltoalls(SHMEM_TEAM_WORLD, out, buf, INT32_MAX, 1, INT32_MAX);
    else if (strcmp(c, "fcollect_negative_count") == 0)
        shmem_long_fcollect(SHMEM_TEAM_WORLD, out, buf, (size_t)-1);
    else if (strcmp(c, "broadcast_count_over_int") == 0)
        shmem_broadcastmem(SHMEM_TEAM_WORLD, out, buf, 3000000000u, 0);
    else if (strcmp(c, "to_all_negative_count") == 0)
        shmem_int_sum_to_all((int *)out, (int *)buf, -1, 0, 0, 2, (int *)buf + 64, g_psync);
    else if (strcmp(c, "aset_past_last_pe") == 0)
        shmem_barrier(1, 0, 2, g_psync);
    else if (strcmp(c, "aset_not_member") == 0)
        shmem_barrier(0, 0, 1, g_psync);
    else if (strcmp(c, "aset_negative_stride") == 0)
        shmem_sync(0, -1, 2, g_psync);
    else if (strcmp(c, "aset_empty") == 0)
        shmem_fcollect32(out, buf, 1, 0, 0, 0, g_psync);
    else {
        fprintf(stderr, "coll_misuse: unknown case '%s'\n", c);
        shmem_finalize();
        return 2;
    }
    shmem_barrier_all();
    free(private_mem);
    shmem_finalize();
    return 0; /* the mistake went unnoticed */
}
