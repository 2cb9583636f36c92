/*
 * barrier_latency: time per call of shmem_barrier_all, shmem_sync_all and
 * shmem_team_sync on SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED (teams: 1.5
 * headers only).  Standard API only, so the same source builds with Open
 * MPI's oshcc (OSHMEM, 1.4) too:
 *   mpiexec -n 2 ./barrier_latency        oshrun -n 2 ./barrier_latency
 * Each sample is BENCH_ITERS calls (default 20000) timed on PE 0 between
 * two barriers; the figure is the median of BENCH_REPS samples (default
 * 11), one CSV line per routine:  barrier,<routine>,<npes>,<ns per call>
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include <stdio.h>
#include "bench_time.h"

#define MAX_REPS 63
#if SHMEM_MAJOR_VERSION > 1 || SHMEM_MINOR_VERSION >= 5
#define HAVE_TEAMS 1
#else
#define HAVE_TEAMS 0
#endif

enum { BARRIER_ALL, SYNC_ALL, TEAM_SYNC_WORLD, TEAM_SYNC_SHARED, N_ROUTINES };
static const char *const names[] = {"shmem_barrier_all", "shmem_sync_all",
                                    "shmem_team_sync(WORLD)", "shmem_team_sync(SHARED)"};

static void run(int which, int n)
{
    for (int i = 0; i < n; i++) {
        switch (which) {
        case BARRIER_ALL: shmem_barrier_all(); break;
        case SYNC_ALL: shmem_sync_all(); break;
#if HAVE_TEAMS
        case TEAM_SYNC_WORLD: shmem_team_sync(SHMEM_TEAM_WORLD); break;
        case TEAM_SYNC_SHARED: shmem_team_sync(SHMEM_TEAM_SHARED); break;
#endif
        default: break;
        }
    }
}

int main(void)
{
    int iters = 20000, reps = 11;
    shmem_init();
    bench_sample_sizes(&iters, &reps, 10, MAX_REPS);
    int me = shmem_my_pe(), npes = shmem_n_pes();
    double sample[N_ROUTINES][MAX_REPS];
    int routines = HAVE_TEAMS ? N_ROUTINES : TEAM_SYNC_WORLD;
    run(BARRIER_ALL, iters / 10); /* warm up every route (the first call makes its state) */
    for (int w = 0; w < routines; w++)
        run(w, 10);
    /* Routines interleaved rep by rep, so drift in load hits them alike. */
    for (int r = 0; r < reps; r++)
        for (int w = 0; w < routines; w++) {
            shmem_barrier_all();
            double t0 = bench_now_ns();
            run(w, iters);
            sample[w][r] = (bench_now_ns() - t0) / iters;
        }
    if (me == 0)
        for (int w = 0; w < routines; w++)
            printf("barrier,%s,%d,%.1f\n", names[w], npes, bench_median(sample[w], reps));
    shmem_finalize();
    return 0;
}
