/*
 * Tutorial step 5 (docs/tutorial.md): a histogram with remote atomics.
 *
 * N numbers (from a fixed formula, so every run sees the same ones) fall
 * into BINS bins.  The bins are spread over the PEs: bin b lives on PE
 * b % n.  Each PE takes every n-th number and adds one to its bin with
 * shmem_long_atomic_inc, wherever that bin lives.  Many PEs may hit the
 * same bin at the same moment; an atomic increment never loses one.
 * (A get, an add and a put would: two PEs could read the same old value.)
 *
 *   oshcc 05_histogram.c -o histogram && oshrun -n 4 ./histogram
 */
#include <stdio.h>
#include <shmem.h>

#define N 20000
#define BINS 10

/* A number between 0 and 999 from i: the mean of three scrambled values,
 * so the histogram is bell-shaped. */
static int value(unsigned i)
{
    unsigned sum = 0;
    for (unsigned k = 1; k <= 3; k++) {
        unsigned x = i * 2654435761u + k * 40503u;
        x ^= x >> 15;
        x *= 2246822519u;
        x ^= x >> 13;
        sum += x % 1000;
    }
    return (int)(sum / 3);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int per_pe = (BINS + n - 1) / n;                 /* bins held by each PE, at most */
    long *bins = shmem_calloc((size_t)per_pe, sizeof(long));
    shmem_barrier_all();          /* every PE's bins are zero before anyone counts */

    for (int i = me; i < N; i += n) {
        int b = value((unsigned)i) * BINS / 1000;
        shmem_long_atomic_inc(&bins[b / n], b % n);  /* bin b: slot b / n on PE b % n */
    }
    shmem_barrier_all();          /* completes every increment */

    if (me == 0) {
        long total = 0;
        for (int b = 0; b < BINS; b++) {
            long count = shmem_long_g(&bins[b / n], b % n);
            total += count;
            char bar[64];
            int len = (int)(count / 100);
            for (int k = 0; k < len && k < 63; k++)
                bar[k] = '#';
            bar[len < 63 ? len : 63] = '\0';
            printf("%3d-%3d %5ld%s%s\n", b * 1000 / BINS, (b + 1) * 1000 / BINS - 1, count,
                   len > 0 ? " " : "", bar);
        }
        printf("%ld numbers counted by %d PEs\n", total, n);
    }
    shmem_free(bins);
    shmem_finalize();
    return 0;
}
