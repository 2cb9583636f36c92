/*
 * Random-operation rate (issue 19): every PE issues a random mix of 8-byte
 * p, g, atomic fetch-add and atomic add to random other PEs, with a quiet
 * every 64 operations, for SECONDS (default 2) of wall clock; PE 0 prints
 *   random_ops,NP,OPS_PER_S,TOTAL_OPS,SECONDS
 * (all PEs' operations over the longest PE's time).  The adds are checked:
 * each PE's counter must end at the number of adds aimed at it, so a lost
 * or doubled AMO fails the run.  OpenSHMEM 1.4 API only, so OSHMEM
 * builds it too.  Oversubscribed, this is the rate the MPI path keeps
 * while the PEs it waits for are descheduled.
 *
 * Usage: random_ops [SECONDS]
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench_time.h"

#define MAX_PES 1024
#define BATCH 64

static long counter;            /* AMO target: adds received */
static long cell;               /* p/g target */
static long sent[MAX_PES];      /* adds this PE aimed at each PE */
static long received[MAX_PES];  /* summed over PEs: adds aimed at each PE */
static long ops_done, ops_sum;
static double elapsed, elapsed_max;

/* xorshift64: cheap, and each PE gets its own stream. */
static unsigned long long next_random(unsigned long long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 2.0;
    shmem_init();
    int me = shmem_my_pe(), np = shmem_n_pes();
    if (np < 2 || np > MAX_PES) {
        if (me == 0)
            fprintf(stderr, "random_ops: needs 2 to %d PEs, got %d\n", MAX_PES, np);
        shmem_global_exit(1);
    }
    unsigned long long state = 0x9E3779B97F4A7C15ULL * (unsigned long long)(me + 1);
    long sink = 0;
    shmem_barrier_all();
    double t0 = bench_now_ns(), stop = t0 + seconds * 1e9, t = t0;
    while (t < stop) {
        for (int i = 0; i < BATCH; i++) {
            unsigned long long r = next_random(&state);
            int pe = (int)((unsigned long long)me + 1 + (r >> 8) % (unsigned long long)(np - 1)) % np;
            switch (r & 3) {
            case 0: shmem_long_p(&cell, (long)r, pe); break;
            case 1: sink += shmem_long_g(&cell, pe); break;
            case 2: shmem_long_atomic_fetch_add(&counter, 1, pe); sent[pe]++; break;
            default: shmem_long_atomic_add(&counter, 1, pe); sent[pe]++; break;
            }
        }
        shmem_quiet();
        ops_done += BATCH;
        t = bench_now_ns();
    }
    elapsed = (t - t0) * 1e-9;
    shmem_barrier_all();

    static long psync[SHMEM_REDUCE_SYNC_SIZE];
    static long pwrk[MAX_PES / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? MAX_PES / 2 + 1
                                                                     : SHMEM_REDUCE_MIN_WRKDATA_SIZE];
    static double dwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_long_sum_to_all(received, sent, np, 0, 0, np, pwrk, psync);
    shmem_barrier_all();
    shmem_long_sum_to_all(&ops_sum, &ops_done, 1, 0, 0, np, pwrk, psync);
    shmem_barrier_all();
    static long psync2[SHMEM_REDUCE_SYNC_SIZE];
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync2[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_double_max_to_all(&elapsed_max, &elapsed, 1, 0, 0, np, dwrk, psync2);
    shmem_barrier_all();

    int bad = counter != received[me];
    if (bad)
        fprintf(stderr, "random_ops: PE %d counter %ld, expected %ld adds\n", me, counter,
                received[me]);
    if (sink == 42)  /* keeps the gets live */
        fprintf(stderr, " ");
    if (me == 0 && !bad)
        printf("random_ops,%d,%.0f,%ld,%.3f\n", np, (double)ops_sum / elapsed_max, ops_sum,
               elapsed_max);
    shmem_finalize();
    return bad;
}
