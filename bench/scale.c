/*
 * scale: what a PE pays as the job grows (issue 19), with the standard
 * OpenSHMEM 1.4 API only, so the same source builds with mpishmem and
 * with Open MPI's oshcc (OSHMEM).  bench/scale.sh runs
 * it at several PE counts, interleaved, and reports medians and ratios.
 *
 * Figures (PE 0 prints one CSV line each: scale,<figure>,<value>,<unit>):
 *   init_max, init_median      every PE's own shmem_init (CLOCK_MONOTONIC
 *                              around the call), max and median over PEs, ms
 *   {rss,anon,shmem,pss}_{init,end}_{median,max}
 *                              memory per PE right after shmem_init and after
 *                              the timed loops, kB, median and max over PEs:
 *                              rss = VmRSS (counts every page this process
 *                              touched, shared ones included), anon =
 *                              RssAnon (private anonymous pages), shmem =
 *                              RssShmem (shared memory: memfd, /dev/shm,
 *                              System V, MAP_SHARED|MAP_ANONYMOUS), pss = Pss
 *                              from /proc/self/smaps_rollup (shared pages
 *                              divided among the processes mapping them)
 *   quiet_put1                 PE 0: (shmem_putmem 8 bytes to PE 1's heap;
 *                              shmem_quiet), ns per iteration
 *   quiet_putall, quiet_putall_per_target
 *                              PE 0: (one 8-byte put to every other PE;
 *                              shmem_quiet), ns per iteration and per target
 *   quiet_idle                 PE 0: shmem_quiet with nothing outstanding, ns
 * Timed figures are medians over SCALE_REPS samples; the other PEs wait
 * in shmem_barrier_all meanwhile.  Knobs: SCALE_ITERS (operations per
 * sample for quiet_put1 and quiet_idle, default 20000; quiet_putall runs
 * SCALE_ITERS / (PEs - 1) iterations, at least 2), SCALE_REPS (11).
 *
 * Run: mpiexec -n 8 ./scale    or    oshrun -n 8 ./scale
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_time.h"
#include "bench_shmem.h"

#define MAX_REPS 63

/* Per-PE values gathered to every PE with fcollect64. */
enum { V_INIT_NS, V_RSS, V_ANON, V_SHMEM, V_PSS, NV };

static long pSync[SHMEM_COLLECT_SYNC_SIZE > SHMEM_REDUCE_SYNC_SIZE ? SHMEM_COLLECT_SYNC_SIZE
                                                                   : SHMEM_REDUCE_SYNC_SIZE];
static long mine[NV];
static int me, npes, iters = 20000, reps = 11;
static long *h_word, sink;

/* "Key:   123 kB" from a /proc file, in kB; -1 when absent. */
static long proc_kb(const char *file, const char *key)
{
    FILE *f = fopen(file, "r");
    char line[256];
    size_t n = strlen(key);
    long v = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':') {
            v = strtol(line + n + 1, NULL, 10);
            break;
        }
    fclose(f);
    return v;
}

static void read_memory(void)
{
    mine[V_RSS] = proc_kb("/proc/self/status", "VmRSS");
    mine[V_ANON] = proc_kb("/proc/self/status", "RssAnon");
    mine[V_SHMEM] = proc_kb("/proc/self/status", "RssShmem");
    mine[V_PSS] = proc_kb("/proc/self/smaps_rollup", "Pss");
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static void emit(const char *fig, double v, const char *unit)
{
    if (me == 0) {
        printf("scale,%s,%.6g,%s\n", fig, v, unit);
        fflush(stdout);
    }
}

/* Gathers mine[] from every PE (into all, symmetric, npes * NV longs) and
 * has PE 0 print the median and max over PEs of the figures asked for. */
static void gather_and_emit(long *all, const char *when, int with_init)
{
    shmem_barrier_all();
    shmem_fcollect64(all, mine, NV, 0, 0, npes, pSync);
    shmem_barrier_all(); /* pSync reuse */
    if (me != 0)
        return;
    static const char *names[NV] = {"init", "rss", "anon", "shmem", "pss"};
    long *col = malloc(sizeof(long) * (size_t)npes);
    for (int k = with_init ? 0 : 1; k < NV; k++) {
        int n = 0;
        for (int p = 0; p < npes; p++)
            if (all[(size_t)p * NV + k] >= 0)
                col[n++] = all[(size_t)p * NV + k];
        if (n == 0)
            continue;
        qsort(col, (size_t)n, sizeof *col, cmp_long);
        double med = n % 2 ? col[n / 2] : 0.5 * (col[n / 2 - 1] + col[n / 2]);
        char fig[64];
        if (k == V_INIT_NS) {
            emit("init_max", col[n - 1] * 1e-6, "ms");
            emit("init_median", med * 1e-6, "ms");
        } else {
            snprintf(fig, sizeof fig, "%s_%s_median", names[k], when);
            emit(fig, med, "kB");
            snprintf(fig, sizeof fig, "%s_%s_max", names[k], when);
            emit(fig, (double)col[n - 1], "kB");
        }
    }
    free(col);
}

/* PE 0's loops, n iterations each. */
static void op_put1(int n)
{
    for (int i = 0; i < n; i++) {
        shmem_putmem(h_word, &sink, 8, 1);
        shmem_quiet();
    }
}
static void op_putall(int n)
{
    for (int i = 0; i < n; i++) {
        for (int pe = 1; pe < npes; pe++)
            shmem_putmem(h_word, &sink, 8, pe);
        shmem_quiet();
    }
}
static void op_idle(int n)
{
    for (int i = 0; i < n; i++)
        shmem_quiet();
}

/* Median ns per iteration of PE 0's fn; the others wait in a barrier. */
static double measure(void (*fn)(int), int n)
{
    double s[MAX_REPS];
    return bench_shmem_measure(fn, n, reps, 0, s);
}

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

int main(void)
{
    double t0 = bench_now_ns();
    shmem_init();
    mine[V_INIT_NS] = (long)(bench_now_ns() - t0);
    read_memory();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    iters = env_int("SCALE_ITERS", iters);
    reps = env_int("SCALE_REPS", reps);
    if (iters < 1)
        iters = 1;
    if (reps < 1)
        reps = 1;
    if (reps > MAX_REPS)
        reps = MAX_REPS;
    for (size_t i = 0; i < sizeof pSync / sizeof pSync[0]; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    if (npes < 2) {
        if (me == 0)
            fprintf(stderr, "scale: needs at least 2 PEs\n");
        shmem_finalize();
        return 1;
    }
    long *all = shmem_malloc(sizeof(long) * NV * (size_t)npes);
    h_word = shmem_calloc(8, sizeof(long));
    emit("npes", npes, "PEs");
    gather_and_emit(all, "init", 1);

    emit("quiet_put1", measure(op_put1, iters), "ns");
    int n_all = iters / (npes - 1);
    double t = measure(op_putall, n_all < 2 ? 2 : n_all);
    emit("quiet_putall", t, "ns");
    emit("quiet_putall_per_target", t / (npes - 1), "ns");
    emit("quiet_idle", measure(op_idle, iters), "ns");

    read_memory();
    gather_and_emit(all, "end", 0);
    shmem_free(h_word);
    shmem_free(all);
    shmem_finalize();
    return 0;
}
