/*
 * The profiling interface: this program is the "tool".  It defines shmem_*
 * routines that count their calls and forward to the pshmem_* names of
 * <pshmem.h>; the library's shmem_* names are weak, so these win, in the
 * static and in the shared library.  Checks:
 *  - every user call reaches the wrapper once (typed, ctx, C11 generic forms);
 *  - the data still moves (the wrappers forward);
 *  - the library's own internal calls do not reach the wrappers (barrier_all
 *    quiets, malloc synchronizes: the tool sees only the user's quiet);
 *  - shmem_pcontrol is interposable too and the deprecated cache routines
 *    link and return.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <pshmem.h>

static int failures;
#define EXPECT(cond)                                                                     \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "PE %d: %s:%d: check failed: %s\n", pshmem_my_pe(),         \
                    __FILE__, __LINE__, #cond);                                          \
            failures++;                                                                  \
        }                                                                                \
    } while (0)

static long n_put, n_ctx_put, n_quiet, n_barrier_all, n_fadd, n_malloc, n_pcontrol;
static size_t put_bytes;
static int last_level;

void shmem_long_put(long *dest, const long *src, size_t n, int pe)
{
    n_put++;
    put_bytes += n * sizeof(long);
    pshmem_long_put(dest, src, n, pe);
}

void shmem_ctx_long_put(shmem_ctx_t ctx, long *dest, const long *src, size_t n, int pe)
{
    n_ctx_put++;
    pshmem_ctx_long_put(ctx, dest, src, n, pe);
}

void shmem_quiet(void)
{
    n_quiet++;
    pshmem_quiet();
}

void shmem_barrier_all(void)
{
    n_barrier_all++;
    pshmem_barrier_all();
}

long shmem_long_atomic_fetch_add(long *dest, long value, int pe)
{
    n_fadd++;
    return pshmem_long_atomic_fetch_add(dest, value, pe);
}

void *shmem_malloc(size_t size)
{
    n_malloc++;
    return pshmem_malloc(size);
}

void shmem_pcontrol(int level, ...)
{
    n_pcontrol++;
    last_level = level;
    pshmem_pcontrol(level);
}

#define N 8
#define ROUNDS 5

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes;

    long *dst = shmem_malloc(N * sizeof(long));
    long *ctr = shmem_malloc(sizeof(long));
    long src[N];
    *ctr = 0;
    shmem_barrier_all();

    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < N; i++)
            src[i] = 1000L * me + 10 * r + i;
        shmem_long_put(dst, src, N, right);          /* typed */
        shmem_ctx_long_put(SHMEM_CTX_DEFAULT, dst, src, N, right); /* ctx */
        shmem_put(dst, src, N, right);               /* C11 generic -> typed */
        shmem_barrier_all();
        int left = (me + npes - 1) % npes;
        for (int i = 0; i < N; i++)
            EXPECT(dst[i] == 1000L * left + 10 * r + i);
        shmem_barrier_all();
    }
    shmem_long_atomic_fetch_add(ctr, 1, 0);
    shmem_quiet();
    shmem_barrier_all();
    if (me == 0)
        EXPECT(*ctr == npes);

    shmem_pcontrol(0);
    shmem_pcontrol(1);
    shmem_clear_cache_inv();
    shmem_set_cache_inv();
    shmem_clear_cache_line_inv(dst);
    shmem_set_cache_line_inv(dst);
    shmem_udcflush();
    shmem_udcflush_line(dst);

    EXPECT(n_put == 2 * ROUNDS);
    EXPECT(put_bytes == 2 * ROUNDS * N * sizeof(long));
    EXPECT(n_ctx_put == ROUNDS);
    EXPECT(n_fadd == 1);
    EXPECT(n_malloc == 2);
    EXPECT(n_barrier_all == 2 * ROUNDS + 2);
    EXPECT(n_quiet == 1); /* barrier_all's internal quiet is not seen */
    EXPECT(n_pcontrol == 2 && last_level == 1);

    shmem_free(ctr);
    shmem_free(dst);
    shmem_finalize();
    if (failures)
        fprintf(stderr, "profiling_count: %d failures\n", failures);
    else if (me == 0)
        printf("profiling_count: %d PEs OK\n", npes);
    return failures ? 1 : 0;
}
