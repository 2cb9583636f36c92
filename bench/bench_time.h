/*
 * mpishmem benchmarks: the clock and the median, with no library behind
 * them, so the raw-MPI floor (mpi_routes.c) and the standard-API benchmark
 * that also builds with other OpenSHMEMs' oshcc (oshbench.c) share them.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_BENCH_TIME_H
#define MPISHMEM_BENCH_TIME_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v. */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Work the compiler cannot drop, for about ns nanoseconds: a PE that
 * computes (BENCH_WAIT=compute, bench_wait.h; the floor's target,
 * mpi_route_ops.h). */
static inline void bench_compute(double ns)
{
    static volatile double sink;
    double t0 = bench_now_ns(), x = sink;
    while (bench_now_ns() - t0 < ns)
        for (int i = 0; i < 64; i++)
            x = x * 0.999999 + 1.0;
    sink = x;
}

/* Sample sizes from BENCH_ITERS and BENCH_REPS (when set), kept within
 * [min_iters, ...) and [1, max_reps]. */
static inline void bench_sample_sizes(int *iters, int *reps, int min_iters, int max_reps)
{
    const char *v;
    if ((v = getenv("BENCH_ITERS")) && *v)
        *iters = atoi(v);
    if ((v = getenv("BENCH_REPS")) && *v)
        *reps = atoi(v);
    if (*reps < 1)
        *reps = 1;
    if (*reps > max_reps)
        *reps = max_reps;
    if (*iters < min_iters)
        *iters = min_iters;
}

#endif
