/*
 * Misuses found by issue 14, one per run: `conformance_errors CASE`.
 * The driving script (conformance_errors.sh) expects the job to stop with
 * a non-zero status and the library's message; a run that finishes
 * normally prints "no error was reported" and exits 0, a failure.
 *
 *   put_past_block, get_past_block, iput_past_block, put_freed:
 *       SHMEM_DEBUG transfers that leave the shmem_malloc block they start
 *       in (into the next block), or hit a freed block
 *   space_put_past_block: the same in a memory space's allocation
 *   no_finalize: the last PE returns from main without shmem_finalize
 *   team_garbage, team_destroyed, team_garbage_n_pes, team_garbage_split:
 *       a team handle that was never created or was destroyed
 *   align_not_pow2: shmem_align with an alignment that is no power of two
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>
#include "misuse_case.h"
#include <shmemx.h>

/* Keeps the compiler from reasoning about a handle's origin. */
static void *launder(void *p)
{
    __asm__ volatile("" : "+r"(p));
    return p;
}

/* Transfers that run out of their own block: `a` is 4 longs (one 64-byte
 * block), `b` is allocated right after it.  Made by the last PE. */
static int misuse_block(const char *c, long *a, long *b, long *local)
{
    int target = 0;
    (void)b;
    if (!strcmp(c, "put_past_block"))
        shmem_long_put(a, local, 16, target);
    else if (!strcmp(c, "get_past_block"))
        shmem_long_get(local, a + 2, 16, target);
    else if (!strcmp(c, "iput_past_block"))
        shmem_long_iput(a, local, 8, 1, 4, target);
    else
        return -1;
    return 0;
}

static int run_team_case(const char *c, int me)
{
    long pSync[SHMEM_BCAST_SYNC_SIZE];
    (void)pSync;
    static long src[4], dst[4];
    if (!strcmp(c, "team_garbage")) {
        /* A pointer into nowhere: reading through it would crash. */
        shmem_team_t t = launder((void *)(uintptr_t)0x10);
        shmem_long_broadcast(t, dst, src, 1, 0);
    } else if (!strcmp(c, "team_garbage_heap")) {
        /* Mapped memory that is no team. */
        shmem_team_t t = launder(malloc(4096));
        memset(t, 0x5a, 4096);
        shmem_team_sync(t);
    } else if (!strcmp(c, "team_garbage_n_pes")) {
        shmem_team_t t = launder((void *)(uintptr_t)0xdead0000);
        printf("n_pes %d\n", shmem_team_n_pes(t));
    } else if (!strcmp(c, "team_garbage_ptr")) {
        shmem_team_t t = launder((void *)(uintptr_t)0x40);
        printf("ptr %p\n", shmem_team_ptr(t, src, 0));
    } else if (!strcmp(c, "team_garbage_split")) {
        shmem_team_t t = launder((void *)(uintptr_t)0x1234), out;
        shmem_team_split_strided(t, 0, 1, 1, NULL, 0, &out);
    } else if (!strcmp(c, "team_destroyed")) {
        shmem_team_t t;
        if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &t) != 0)
            return -2;
        shmem_team_destroy(t);
        shmem_long_sum_reduce(t, dst, src, 1);
    } else {
        return -1;
    }
    (void)me;
    return 0;
}

int main(int argc, char **argv)
{
    const char *c = misuse_case(argc, argv);
    shmem_init();
    int me = shmem_my_pe(), last = shmem_n_pes() - 1;
    long *a = shmem_malloc(4 * sizeof(long));
    long *b = shmem_malloc(64 * sizeof(long));
    long local[64] = {0};
    shmem_barrier_all();

    int rc = -1;
    if (!strcmp(c, "no_finalize")) {
        if (me == last)
            return 0; /* leaves without shmem_finalize */
        rc = 0;
    } else if (!strcmp(c, "align_not_pow2")) {
        (void)shmem_align(3 << 20, 1000);
        rc = 0;
    } else if (!strncmp(c, "team_", 5)) {
        rc = run_team_case(c, me);
    } else if (!strcmp(c, "put_freed")) {
        long *f = shmem_malloc(8 * sizeof(long));
        shmem_free(f);
        if (me == last)
            shmem_long_p(f, 1, 0);
        rc = 0;
    } else if (!strcmp(c, "space_put_past_block")) {
        shmem_space_t sp;
        shmem_team_t st;
        shmem_space_config_t cfg = {SHMEM_DEVICE_CPU, (size_t)1 << 20, SHMEM_SPACE_FLAG_DEFAULT};
        if (shmem_space_create(&cfg, &sp, &st) != 0) {
            fprintf(stderr, "cannot create a space\n");
            shmem_global_exit(2);
        }
        long *x = shmem_space_malloc(sp, 4 * sizeof(long));
        long *y = shmem_space_malloc(sp, 64 * sizeof(long));
        (void)y;
        if (me == last)
            shmem_long_put(x, local, 16, 0);
        rc = 0;
    } else if (me == last) {
        rc = misuse_block(c, a, b, local);
    } else {
        rc = 0; /* the other PEs wait */
    }
    if (rc < 0) {
        fprintf(stderr, "unknown case %s (%d)\n", c, rc);
        shmem_global_exit(2);
    }
    shmem_barrier_all();
    shmem_free(b);
    shmem_free(a);
    shmem_finalize();
    printf("case %s: no error was reported (%ld)\n", c, local[0]);
    return 0;
}
