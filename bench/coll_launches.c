/*
 * One launch's median of an 8-byte shmem_long_sum_reduce followed by
 * shmem_barrier_all on SHMEM_TEAM_WORLD, the pattern of a time-stepping
 * code.  bench/coll_launches.sh starts it several times and compares the
 * launches: a slow mode that some launches fall into (a PE descheduled
 * for a scheduler tick in every round, say) shows as one launch several
 * times slower than the others, which a single launch cannot show.
 *
 * Prints one JSON object (PE 0): median, 10th and 90th percentile in us.
 * Knobs: BENCH_ITERS (timed rounds, default 2000), BENCH_WARMUP (50).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <shmem.h>
#include "bench_time.h"

static long src, dst;

static void round_trip(void)
{
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &dst, &src, 1);
    shmem_barrier_all();
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
    src = shmem_my_pe() + 1;
    for (int i = 0; i < warm; i++)
        round_trip();
    for (int i = 0; i < n; i++) {
        double t0 = bench_now_ns();
        round_trip();
        t[i] = (bench_now_ns() - t0) / 1e3;
    }
    long want = (long)shmem_n_pes() * (shmem_n_pes() + 1) / 2;
    if (dst != want) {
        fprintf(stderr, "coll_launches: sum %ld, expected %ld\n", dst, want);
        shmem_global_exit(1);
    }
    double median = bench_median(t, n); /* sorts t */
    if (shmem_my_pe() == 0)
        printf("{\"bench\":\"coll_launches\",\"npes\":%d,\"rounds\":%d,\"median_us\":%.2f,"
               "\"p10_us\":%.2f,\"p90_us\":%.2f}\n",
               shmem_n_pes(), n, median, t[n / 10], t[9 * n / 10]);
    free(t);
    shmem_finalize();
    return 0;
}
