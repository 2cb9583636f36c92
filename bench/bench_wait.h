/*
 * mpishmem benchmarks: what the PEs other than PE 0 do while PE 0 times
 * its operations, chosen by BENCH_WAIT (standard OpenSHMEM 1.4 calls only,
 * so oshbench still builds with other OpenSHMEMs' oshcc):
 *   barrier  (default) wait in shmem_barrier_all, as bench_shmem_measure;
 *   poll     loop on shmem_long_test(&stop, SHMEM_CMP_LT, k): a test that
 *            holds while nothing has arrived, the sense in which a library
 *            that polls MPI only on a failed test never does;
 *   compute  compute in slices of BENCH_COMPUTE_US microseconds (100) with
 *            no library call inside, one shmem_long_test between slices.
 * PE 0 ends each sample by setting every other PE's stop word.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_BENCH_WAIT_H
#define MPISHMEM_BENCH_WAIT_H

#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_shmem.h"
#include "bench_time.h"

enum bench_wait { BENCH_WAIT_BARRIER, BENCH_WAIT_POLL, BENCH_WAIT_COMPUTE };

static const char *const bench_wait_names[] = {"barrier", "poll", "compute"};
static long bench_stop;       /* symmetric: the sample PE 0 has finished */
static long bench_stop_round; /* the sample being timed, on every PE */
static double bench_compute_ns = 100e3;

/* The mode BENCH_WAIT names; exits with a message on anything else. */
static inline enum bench_wait bench_wait_mode(void)
{
    const char *w = getenv("BENCH_WAIT"), *c = getenv("BENCH_COMPUTE_US");
    if (c && *c)
        bench_compute_ns = atof(c) * 1e3;
    if (!w || !*w)
        return BENCH_WAIT_BARRIER;
    for (int i = 0; i < 3; i++)
        if (strcmp(w, bench_wait_names[i]) == 0)
            return (enum bench_wait)i;
    fprintf(stderr, "bench: BENCH_WAIT=%s: expected barrier, poll or compute\n", w);
    exit(2);
}

/* Median ns per call of fn(n) over reps samples, PE 0 alone, the others
 * waiting as `mode` says (s has room for reps; sorted). */
static inline double bench_wait_measure(void (*fn)(int), int n, int reps, enum bench_wait mode,
                                        double *s)
{
    if (mode == BENCH_WAIT_BARRIER)
        return bench_shmem_measure(fn, n, reps, 0, s);
    int me = shmem_my_pe(), np = shmem_n_pes();
    for (int r = 0; r < reps; r++) {
        long k = ++bench_stop_round;
        shmem_barrier_all();
        if (me == 0) {
            fn(n / 10 + 1);
            double t0 = bench_now_ns();
            fn(n);
            s[r] = (bench_now_ns() - t0) / n;
            for (int pe = 1; pe < np; pe++)
                shmem_long_atomic_set(&bench_stop, k, pe);
            shmem_quiet();
        } else if (mode == BENCH_WAIT_POLL) {
            while (shmem_long_test(&bench_stop, SHMEM_CMP_LT, k))
                ;
        } else {
            while (shmem_long_test(&bench_stop, SHMEM_CMP_LT, k))
                bench_compute(bench_compute_ns);
        }
    }
    shmem_barrier_all();
    return bench_median(s, reps);
}

#endif
