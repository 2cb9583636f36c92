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
 *   align_*, shmemalign_63, *realloc_*, *free_*, calloc_overflow,
 *   hints_unknown: bad arguments to allocation routines, which warn and
 *       go on (SHMEM_DEBUG=1: stop); they print "continued"
 *   *_sizes, *_blocks: the last PE passes a different size or block to an
 *       allocation routine than the others: the job stops at that call
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

/* Stops the job when a misused allocation routine did not answer as
 * docs/checks.md says (the script then sees a non-zero status). */
static void must(int ok, const char *c, const char *what)
{
    if (!ok) {
        fprintf(stderr, "case %s: %s\n", c, what);
        shmem_global_exit(3);
    }
}

/* Bad alignments and pointers that are no live block: NULL or no operation
 * on every PE, one warning, and the heap stays usable (SHMEM_DEBUG: stop).
 * Returns -1 for a case that is not one of these. */
static int run_alloc_case(const char *c, int me, int last)
{
    long here = 0;
    void *p = NULL, *live = shmem_malloc(64);
    if (!strcmp(c, "align_zero"))
        must(shmem_align(0, 64) == NULL, c, "shmem_align(0, 64) is not NULL");
    else if (!strcmp(c, "align_three"))
        must(shmem_align(3, 64) == NULL, c, "shmem_align(3, 64) is not NULL");
    else if (!strcmp(c, "shmemalign_63"))
        must(shmemalign(63, 64) == NULL, c, "shmemalign(63, 64) is not NULL");
    else if (!strcmp(c, "align_one_pe_bad")) /* the others must not wait forever */
        must(shmem_align(me == last ? 3 : 64, 64) == NULL, c, "not NULL on every PE");
    else if (!strcmp(c, "realloc_freed") || !strcmp(c, "shrealloc_freed")) {
        p = shmem_malloc(128);
        shmem_free(p);
        void *q = c[0] == 's' ? shrealloc(p, 256) : shmem_realloc(p, 256);
        must(q == NULL, c, "realloc of a freed block is not NULL");
    } else if (!strcmp(c, "realloc_one_pe_bad")) {
        /* One PE passes an interior pointer: no PE moves its block. */
        char *q = shmem_realloc(me == last ? (char *)live + 8 : live, 4096);
        must(q == NULL, c, "realloc with one bad pointer is not NULL");
    } else if (!strcmp(c, "free_freed")) {
        p = shmem_malloc(128);
        shmem_free(p);
        shmem_free(p);
    } else if (!strcmp(c, "shfree_stack"))
        shfree(launder(&here));
    else if (!strcmp(c, "free_one_pe_bad")) {
        /* Nothing is freed anywhere, so the allocators stay in step. */
        shmem_free(me == last ? launder(&here) : live);
    } else if (!strcmp(c, "calloc_overflow"))
        must(shmem_calloc(SIZE_MAX / 2, 4) == NULL, c, "an overflowing calloc is not NULL");
    else if (!strcmp(c, "hints_unknown")) {
        p = shmem_malloc_with_hints(64, 1L << 20);
        void *q = shmem_malloc_with_hints(64, 1L << 21); /* warned once only */
        must(p != NULL && q != NULL, c, "allocations with unknown hints failed");
        shmem_free(q);
        shmem_free(p);
    } else {
        shmem_free(live);
        return -1;
    }
    /* The heap is still in step on every PE: the agreement of the next
     * allocation (the size of `live`, so a PE that freed it reuses its
     * place) stops the job if the PEs' allocators diverged. */
    long *after = shmem_malloc(64);
    must(after != NULL, c, "allocation after the misuse failed");
    shmem_long_p(after, me, (me + 1) % (last + 1));
    shmem_barrier_all();
    must(*after == (me + last) % (last + 1), c, "the next allocation does not work");
    shmem_free(after);
    shmem_free(live);
    printf("case %s: continued\n", c);
    return 0;
}

/* The last PE disagrees with the others about a collective allocation.
 * Returns -1 for a case that is not one of these. */
static int run_disagree_case(const char *c, int me, int last, long *a, long *b)
{
    int odd = me == last;
    void *p = NULL;
    if (!strcmp(c, "malloc_sizes"))
        p = shmem_malloc(odd ? 128 : 64);
    else if (!strcmp(c, "calloc_sizes"))
        p = shmem_calloc(odd ? 8 : 4, 8);
    else if (!strcmp(c, "align_sizes"))
        p = shmem_align(64, odd ? 256 : 128);
    else if (!strcmp(c, "realloc_sizes"))
        p = shmem_realloc(shmem_malloc(64), odd ? 4096 : 1024);
    else if (!strcmp(c, "space_malloc_sizes")) {
        shmem_space_t sp;
        shmem_team_t st;
        shmem_space_config_t cfg = {SHMEM_DEVICE_CPU, (size_t)1 << 20, SHMEM_SPACE_FLAG_DEFAULT};
        if (shmem_space_create(&cfg, &sp, &st) != 0)
            return -2;
        p = shmem_space_malloc(sp, odd ? 96 : 48);
    } else if (!strcmp(c, "free_blocks"))
        shmem_free(odd ? b : a);
    else if (!strcmp(c, "realloc_blocks"))
        p = shmem_realloc(odd ? b : a, 4096);
    else
        return -1;
    printf("case %s: went on (%p)\n", c, p);
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
    } else if (run_alloc_case(c, me, last) == 0) {
        rc = 0;
    } else if ((rc = run_disagree_case(c, me, last, a, b)) != -1) {
        /* rc: 0, or -2 when the case could not be set up */
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
