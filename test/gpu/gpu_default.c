/*
 * Issue 18, defect 3: with SHMEM_DEFAULT_SPACE=GPU, shmem_malloc memory is
 * device memory, and the waits, the test family, signal waits and the
 * world collectives on it (seed 001 requires them) must not touch it with
 * the CPU: wait_until, test, test_any, wait_until_all, signal_wait_until;
 * broadcast (the root's own copy), collect in place (its move), exscan
 * (PE 0's zeros), alltoall with overlapping buffers (the private copy of
 * the source).  Before the fix the stand-in stopped the first wait.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu_common.h"

static int me, npes, right, left;

static void test_waits(void)
{
    long *v = shmem_calloc(8, sizeof(long));
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    EXPECT(gpu_device_of(v) >= 0, "shmem_malloc memory is not device memory");
    shmem_long_p(&v[0], 5, right);
    shmem_long_wait_until(&v[0], SHMEM_CMP_EQ, 5);
    while (!shmem_long_test(&v[0], SHMEM_CMP_GE, 5))
        ;
    shmem_long_p(&v[3], 9, right);
    size_t i;
    while ((i = shmem_long_test_any(v + 1, 7, NULL, SHMEM_CMP_EQ, 9)) == SIZE_MAX)
        ;
    EXPECT(i == 2, "test_any found %zu", i);
    for (int k = 4; k < 8; k++)
        shmem_long_p(&v[k], 1, right);
    shmem_long_wait_until_all(v + 4, 4, NULL, SHMEM_CMP_EQ, 1);
    shmem_signal_add(sig, 3, right);
    EXPECT(shmem_signal_wait_until(sig, SHMEM_CMP_GT, 2) == 3, "signal value");
    shmem_barrier_all();
    shmem_free(sig);
    shmem_free(v);
}

static void test_collectives(void)
{
    int n = npes;
    long *a = shmem_malloc((size_t)(4 * n) * sizeof(long));
    long *b = shmem_malloc((size_t)(4 * n) * sizeof(long));
    long *h = malloc((size_t)(4 * n) * sizeof(long));
    for (int k = 0; k < 4 * n; k++)
        h[k] = me * 100 + k;
    to_dev(a, h, (size_t)(4 * n) * sizeof(long));
    shmem_barrier_all();
    shmem_long_broadcast(SHMEM_TEAM_WORLD, b, a, 4, 0); /* the root copies too */
    from_dev(h, b, 4 * sizeof(long));
    EXPECT(h[0] == 0 && h[3] == 3, "broadcast: %ld %ld", h[0], h[3]);
    /* collect with the source overlapping dest but not its own block */
    shmem_long_fcollect(SHMEM_TEAM_WORLD, b, a, 4);
    shmem_long_collect(SHMEM_TEAM_WORLD, a, a + 4 * me + (me ? -1 : 1), 1);
    from_dev(h, a, (size_t)n * sizeof(long));
    for (int p = 0; p < n; p++)
        EXPECT(h[p] == p * 100 + 4 * p + (p ? -1 : 1), "collect element %d: %ld", p, h[p]);
    for (int k = 0; k < 4; k++)
        h[k] = 1;
    to_dev(a, h, 4 * sizeof(long));
    shmem_barrier_all();
    shmem_long_sum_exscan(SHMEM_TEAM_WORLD, b, a, 4);
    from_dev(h, b, 4 * sizeof(long));
    EXPECT(h[0] == me && h[3] == me, "exscan: %ld", h[0]);
    /* alltoall from a source that overlaps dest: a private copy first */
    for (int j = 0; j < 2 * n; j++)
        h[j] = me * 1000 + j;
    to_dev(b, h, (size_t)(2 * n) * sizeof(long));
    shmem_barrier_all();
    shmem_long_alltoall(SHMEM_TEAM_WORLD, b + n, b, 1);
    from_dev(h, b + n, (size_t)n * sizeof(long));
    for (int j = 0; j < n; j++)
        EXPECT(h[j] == j * 1000 + me, "alltoall from %d: %ld", j, h[j]);
    shmem_barrier_all();
    free(h);
    shmem_free(b);
    shmem_free(a);
}

int main(void)
{
    gpu_start(&me, &npes, &right, &left);
    (void)left;
    EXPECT(SHMEM_SPACE_DEFAULT == SHMEM_SPACE_GPU, "the default space is not the GPU space");
    test_waits();
    test_collectives();
    return gpu_finish("gpu_default");
}
