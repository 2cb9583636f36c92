/*
 * A program for test/sanitize/sanitize.sh, built there with
 * -fsanitize=address,undefined against the library: globals and the heap
 * through puts, gets, AMOs, barriers and collectives, so ASan and UBSan
 * watch the program's side of every kind of transfer.
 *
 *   sanitize_prog            the traffic; exit 0 when every value is right
 *   sanitize_prog overflow   after shmem_init, reads one element past the
 *                            end of a global array: ASan must stop it
 *                            (global-buffer-overflow), which shows that
 *                            ASan still checks globals after the library
 *                            moved them onto shared memory.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>
#include <shmem.h>

#define N 16

/* .data and .bss, each with ASan redzones around it. */
static long g_counter;
static long g_ring[N];
static int g_init[N] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static long g_src[N], g_dst[N];
static char g_tail[3];

static int failures;
#define CHECK(c)                                                                           \
    do {                                                                                   \
        if (!(c)) {                                                                        \
            fprintf(stderr, "PE %d: %s:%d: %s\n", shmem_my_pe(), __FILE__, __LINE__, #c); \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

int main(int argc, char **argv)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;

    if (argc > 1 && strcmp(argv[1], "overflow") == 0) {
        shmem_barrier_all();
        /* argc keeps the index out of the compiler's sight: 16, not a
         * constant it could warn about or fold away. */
        volatile int *p = g_init;
        fprintf(stderr, "PE %d: initialised; reading past the end of g_init\n", me);
        int v = p[N + argc - 2];
        printf("PE %d: read %d past the end of g_init: ASan missed it\n", me, v);
        shmem_finalize();
        return 0;
    }

    long *h_ring = shmem_calloc(N, sizeof(long));
    long *h_counter = shmem_calloc(1, sizeof(long));
    long *h_all = shmem_malloc((size_t)n * N * sizeof(long));
    long *h_a2a_src = shmem_malloc((size_t)n * sizeof(long));
    long *h_a2a_dst = shmem_malloc((size_t)n * sizeof(long));
    CHECK(h_ring && h_counter && h_all && h_a2a_src && h_a2a_dst);
    for (int i = 0; i < N; i++)
        g_src[i] = 1000L * me + i;
    for (int i = 0; i < n; i++)
        h_a2a_src[i] = 100L * me + i;
    g_tail[2] = 'x';

    /* Puts and gets, globals and heap, blocking and nbi, and scalars. */
    shmem_long_put(g_ring, g_src, N, right);
    shmem_long_put_nbi(h_ring, g_src, N, right);
    shmem_putmem(&g_tail[0], "ab", 2, right);
    shmem_barrier_all();
    CHECK(g_ring[N - 1] == 1000L * left + N - 1 && h_ring[0] == 1000L * left);
    CHECK(memcmp(g_tail, "abx", 3) == 0);
    long got[N];
    shmem_long_get(got, g_ring, N, right);
    CHECK(got[3] == 1000L * me + 3);
    shmem_long_get_nbi(got, h_ring, N, left);
    shmem_quiet();
    CHECK(got[5] == 1000L * ((left + n - 1) % n) + 5);
    CHECK(shmem_int_g(&g_init[N - 1], right) == N);
    shmem_long_p(&g_dst[N - 1], me, right);
    shmem_barrier_all();
    CHECK(g_dst[N - 1] == left);

    /* AMOs on a global and a heap counter from every PE. */
    shmem_long_atomic_add(&g_counter, 1, 0);
    long old = shmem_long_atomic_fetch_add(h_counter, 2, 0);
    CHECK(old >= 0 && old <= 2L * (n - 1));
    long prev = shmem_long_atomic_compare_swap(&g_dst[0], 0, 7, right);
    CHECK(prev == 0);
    shmem_barrier_all();
    if (me == 0)
        CHECK(g_counter == n && *h_counter == 2L * n);
    CHECK(shmem_long_atomic_fetch(&g_dst[0], me) == 7);
    shmem_barrier_all(); /* PE 0 has read g_counter before it changes */
    shmem_long_atomic_set(&g_counter, 42, right);
    shmem_sync_all();
    shmem_long_wait_until(&g_counter, SHMEM_CMP_EQ, 42);

    /* Collectives, between globals and heap. */
    shmem_barrier_all();
    CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, g_dst, g_src, N) == 0);
    CHECK(g_dst[1] == 1000L * n * (n - 1) / 2 + (long)n);
    CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, h_ring, g_src, N, 0) == 0);
    CHECK(h_ring[N - 1] == N - 1);
    CHECK(shmem_long_fcollect(SHMEM_TEAM_WORLD, h_all, g_src, N) == 0);
    CHECK(h_all[(size_t)(n - 1) * N + 2] == 1000L * (n - 1) + 2);
    CHECK(shmem_long_alltoall(SHMEM_TEAM_WORLD, h_a2a_dst, h_a2a_src, 1) == 0);
    CHECK(h_a2a_dst[left] == 100L * left + me);
    shmem_team_sync(SHMEM_TEAM_WORLD);

    /* A direct pointer to a peer's global, where the node shares it. */
    long *peer = shmem_ptr(&g_ring[0], right);
    if (peer != NULL)
        CHECK(*peer == 1000L * me);
    shmem_barrier_all();

    shmem_free(h_a2a_dst);
    shmem_free(h_a2a_src);
    shmem_free(h_all);
    shmem_free(h_counter);
    shmem_free(h_ring);
    shmem_finalize();
    if (failures == 0 && me == 0)
        printf("sanitize_prog: %d PEs: ok\n", n);
    return failures != 0;
}
