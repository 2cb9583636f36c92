/*
 * oversub_waits: one launch's medians of shmem_barrier_all and of an
 * 8-byte shmem_long_sum_to_all followed by shmem_barrier_all, the waits
 * bench/oversub_waits.sh compares between MPIs when PEs outnumber cores.
 * Standard API only (1.4 active sets), so Open MPI's oshcc builds it too.
 *
 * Prints one JSON object (PE 0): each median in us.
 * Knobs: BENCH_ITERS (timed rounds per figure, default 2000), BENCH_WARMUP (50).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <shmem.h>
#include "bench_time.h"

static long src, dst;
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long psync[SHMEM_REDUCE_SYNC_SIZE];

static void round_trip(int with_sum)
{
    if (with_sum)
        shmem_long_sum_to_all(&dst, &src, 1, 0, 0, shmem_n_pes(), pwrk, psync);
    shmem_barrier_all();
}

/* The median of n timed rounds after warm untimed ones (us). */
static double median_us(int with_sum, int n, int warm, double *t)
{
    for (int i = 0; i < warm; i++)
        round_trip(with_sum);
    for (int i = 0; i < n; i++) {
        double t0 = bench_now_ns();
        round_trip(with_sum);
        t[i] = (bench_now_ns() - t0) / 1e3;
    }
    return bench_median(t, n);
}

int main(void)
{
    shmem_init();
    const char *v = getenv("BENCH_ITERS");
    int n = v && atoi(v) > 0 ? atoi(v) : 2000;
    v = getenv("BENCH_WARMUP");
    int warm = v && atoi(v) >= 0 ? atoi(v) : 50;
    double *t = malloc((size_t)n * sizeof *t);
    if (t == NULL)
        shmem_global_exit(1);
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    src = shmem_my_pe() + 1;
    shmem_barrier_all();
    double bar = median_us(0, n, warm, t);
    double sum = median_us(1, n, warm, t);
    long want = (long)shmem_n_pes() * (shmem_n_pes() + 1) / 2;
    if (dst != want) {
        fprintf(stderr, "oversub_waits: sum %ld, expected %ld\n", dst, want);
        shmem_global_exit(1);
    }
    if (shmem_my_pe() == 0)
        printf("{\"bench\":\"oversub_waits\",\"npes\":%d,\"rounds\":%d,\"barrier_us\":%.2f,"
               "\"sum_barrier_us\":%.2f}\n",
               shmem_n_pes(), n, bar, sum);
    free(t);
    shmem_finalize();
    return 0;
}
