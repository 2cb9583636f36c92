/*
 * progress_cost: what the progress thread (MPISHMEM_PROGRESS_THREAD) and
 * MPI_THREAD_MULTIPLE cost (docs/progress.md).
 *
 * PE 0 times put8+quiet, g8, fetch_add and add on PE 1's heap while PE 1
 * waits in shmem_barrier_all (it polls MPI, as a waiting PE does); then
 * every PE times a fixed computation (no library call) at once, so a
 * thread that steals the core shows up as a slower computation; then
 * every PE sleeps 1 s outside the library and reports the CPU time its
 * process used meanwhile (the thread's polling, in % of one core).  Medians
 * over BENCH_REPS samples of BENCH_ITERS operations.  BENCH_MULTIPLE=1
 * starts with shmem_init_thread(SHMEM_THREAD_MULTIPLE), so MPI runs at
 * MPI_THREAD_MULTIPLE without a progress thread.
 * Output: progress_cost,<operation>,<ns per operation or ms>
 *
 * Run: MPISHMEM_SHM=0 MPISHMEM_PROGRESS_THREAD=1 mpiexec -n 2 ./progress_cost
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include "bench_time.h"
#include "bench_shmem.h"

#define MAX_REPS 63

static int iters = 5000, reps = 7, me;
static long *word;
static long sink;

static void op_put(int n)
{
    for (int i = 0; i < n; i++) {
        shmem_long_p(word, i, 1);
        shmem_quiet();
    }
}
static void op_g(int n) { for (int i = 0; i < n; i++) sink += shmem_long_g(word + 1, 1); }
static void op_fadd(int n) { for (int i = 0; i < n; i++) sink += shmem_long_atomic_fetch_add(word + 2, 1, 1); }
static void op_add(int n)
{
    for (int i = 0; i < n; i++)
        shmem_long_atomic_add(word + 3, 1, 1);
    shmem_quiet();
}

static double measure(void (*fn)(int))
{
    double s[MAX_REPS];
    return bench_shmem_measure(fn, iters, reps, 0, s);
}

/* A fixed amount of arithmetic, no library call: ms on this PE. */
static double compute_ms(void)
{
    volatile double x = 1.0;
    double t0 = bench_now_ns();
    for (long i = 0; i < 20000000L; i++)
        x = x * 1.0000001 + 1e-9;
    return (bench_now_ns() - t0) / 1e6;
}

/* CPU time this process uses while its main thread sleeps for 1 s, in %
 * of one core. */
static double idle_cpu_pct(void)
{
    struct rusage a, b;
    struct timespec one = {1, 0};
    getrusage(RUSAGE_SELF, &a);
    double t0 = bench_now_ns();
    nanosleep(&one, NULL);
    double wall = bench_now_ns() - t0;
    getrusage(RUSAGE_SELF, &b);
    double cpu = (b.ru_utime.tv_sec - a.ru_utime.tv_sec + b.ru_stime.tv_sec -
                  a.ru_stime.tv_sec) * 1e9 +
                 (b.ru_utime.tv_usec - a.ru_utime.tv_usec + b.ru_stime.tv_usec -
                  a.ru_stime.tv_usec) * 1e3;
    return 100.0 * cpu / wall;
}

int main(void)
{
    int provided;
    if (getenv("BENCH_MULTIPLE") && atoi(getenv("BENCH_MULTIPLE")))
        shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    else
        shmem_init();
    me = shmem_my_pe();
    bench_sample_sizes(&iters, &reps, 10, MAX_REPS);
    if (shmem_n_pes() < 2) {
        fprintf(stderr, "progress_cost: needs 2 PEs or more\n");
        shmem_finalize();
        return 1;
    }
    word = shmem_calloc(8, sizeof(long));
    shmem_barrier_all();
    double v[4] = {measure(op_put), measure(op_g), measure(op_fadd), measure(op_add)};
    /* Every PE computes at once; the median over reps of the slowest PE. */
    double c[MAX_REPS], worst;
    for (int r = 0; r < reps; r++) {
        shmem_barrier_all();
        static double mine;
        mine = compute_ms();
        shmem_barrier_all();
        worst = mine;
        for (int pe = 0; pe < shmem_n_pes(); pe++) {
            double o;
            shmem_getmem(&o, &mine, sizeof o, pe);
            if (o > worst)
                worst = o;
        }
        c[r] = worst;
        shmem_barrier_all();
    }
    double compute_median = bench_median(c, reps);
    shmem_barrier_all();
    double idle = idle_cpu_pct();
    shmem_barrier_all();
    if (me == 0) {
        printf("progress_cost,idle_cpu_pct,%.1f\n", idle);
        printf("progress_cost,put8+quiet,%.0f\nprogress_cost,g8,%.0f\n"
               "progress_cost,fetch_add,%.0f\nprogress_cost,add,%.0f\n"
               "progress_cost,compute_ms,%.1f\n", v[0], v[1], v[2], v[3], compute_median);
        fflush(stdout);
    }
    shmem_free(word);
    shmem_finalize();
    return 0;
}
