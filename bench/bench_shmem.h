/*
 * mpishmem benchmarks: the timing loop of the standard-API benchmarks
 * (oshbench, scale, progress_cost), which also build with other
 * OpenSHMEMs' oshcc, so only OpenSHMEM 1.4 calls here.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_BENCH_SHMEM_H
#define MPISHMEM_BENCH_SHMEM_H

#include <shmem.h>
#include "bench_time.h"

/* Median ns per call of fn(n) over `reps` samples (s has room for reps;
 * sorted).  all: every PE runs fn, and they start each timed sample
 * together (collectives, round trips); otherwise PE 0 alone while the
 * others wait in shmem_barrier_all, polling as a waiting PE does.  Each
 * sample is preceded by a warm-up of n / 10 + 1 calls. */
static inline double bench_shmem_measure(void (*fn)(int), int n, int reps, int all, double *s)
{
    int me = shmem_my_pe();
    for (int r = 0; r < reps; r++) {
        shmem_barrier_all();
        if (all || me == 0) {
            fn(n / 10 + 1);
            if (all)
                shmem_barrier_all();
            double t0 = bench_now_ns();
            fn(n);
            s[r] = (bench_now_ns() - t0) / n;
        }
    }
    shmem_barrier_all();
    return bench_median(s, reps);
}

#endif
