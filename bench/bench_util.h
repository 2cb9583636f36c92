/*
 * mpishmem benchmarks: timing helpers.
 *
 * The machines are noisy: every figure is the median of several repetitions
 * of many operations, and each is printed next to the floor measured in the
 * same run, as a ratio.  Output is one JSON object per line.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_BENCH_UTIL_H
#define MPISHMEM_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <shmem.h>
#include "bench_time.h"

/* Environment knobs shared by every benchmark. */
static inline int bench_env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

#define BENCH_MAX_REPS 101

/* Sample sizes from BENCH_ITERS / BENCH_REPS. */
typedef struct bench_config {
    int iters, reps;
} bench_config_t;

/* Starts the library and reads the knobs; stops unless there are 2+ PEs. */
static inline bench_config_t bench_start(const char *name)
{
    shmem_init();
    bench_config_t c = {bench_env_int("BENCH_ITERS", 20000), bench_env_int("BENCH_REPS", 11)};
    if (c.reps > BENCH_MAX_REPS)
        c.reps = BENCH_MAX_REPS;
    if (c.reps < 1)
        c.reps = 1;
    if (c.iters < 1)
        c.iters = 1;
    if (shmem_n_pes() < 2) {
        if (shmem_my_pe() == 0)
            fprintf(stderr, "%s: needs at least 2 PEs\n", name);
        shmem_finalize();
        exit(1);
    }
    return c;
}

/* Median nanoseconds per operation of fn(iters) on PE 0, after a warm-up;
 * the other PEs wait in a barrier meanwhile (the target stays idle). */
static inline double bench_measure(bench_config_t c, void (*fn)(int))
{
    double samples[BENCH_MAX_REPS];
    int me = shmem_my_pe();
    for (int r = 0; r < c.reps; r++) {
        shmem_barrier_all();
        if (me == 0) {
            fn(c.iters / 10 + 1);
            double t0 = bench_now_ns();
            fn(c.iters);
            samples[r] = (bench_now_ns() - t0) / c.iters;
        }
    }
    shmem_barrier_all();
    return me == 0 ? bench_median(samples, c.reps) : 0.0;
}

/* One result line: the figure, its floor and their ratio. */
static inline void bench_report(const char *name, double ns, const char *floor, double floor_ns)
{
    if (shmem_my_pe() == 0)
        printf("{\"bench\":\"%s\",\"median_ns\":%.1f,\"floor\":\"%s\",\"floor_ns\":%.1f,"
               "\"ratio\":%.2f}\n", name, ns, floor, floor_ns,
               floor_ns > 0 ? ns / floor_ns : 0.0);
}

#endif
