/*
 * Large collectives timed the way the OSU OpenSHMEM benchmarks time them
 * (osu_oshm_collect, _fcollect, _broadcast, _reduce): each call timed on
 * its own, shmem_barrier_all after every call, untimed; a batch's figure is
 * the mean time per call, the slowest PE's.  Printed: the median over
 * BENCH_REPS batches (after one untimed batch), one line per row:
 *
 *   coll_big,<form>,<op>,<bytes per PE>,<median ns>
 *
 * form "set": the deprecated active-set routines with pSync (shmem_collect64,
 * shmem_fcollect64, shmem_broadcast64, shmem_long_sum_to_all), on every PE
 * (PE_start 0, stride 0); form "team": shmem_collectmem, shmem_fcollectmem,
 * shmem_broadcastmem and shmem_long_sum_reduce on SHMEM_TEAM_WORLD, only
 * where the header is OpenSHMEM 1.5 or later (Open MPI 4.1's OSHMEM is
 * 1.4: set rows only).  Only the standard API, so Open MPI's oshcc builds
 * it too (bench/coll_big.sh runs it against OSHMEM).
 *
 * Knobs: BENCH_REPS (5), BENCH_ITER_BYTES (32 MiB: a batch moves about this
 * many bytes per PE, between 20 and 1000 calls).  The heap must hold
 * (npes + 2) MiB and a bit: SHMEM_SYMMETRIC_SIZE=64M.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>
#include "bench_time.h"

#if SHMEM_MAJOR_VERSION > 1 || (SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION >= 5)
#define HAVE_TEAMS 1
#endif

#define MAX_BYTES (1 << 20)

enum op { COLLECT, FCOLLECT, BROADCAST, REDUCE };
static const char *const op_name[] = {"collect", "fcollect", "broadcast", "reduce"};

static long *src, *dst, *pwrk;
static long psync[SHMEM_REDUCE_SYNC_SIZE > SHMEM_COLLECT_SYNC_SIZE
                      ? (SHMEM_REDUCE_SYNC_SIZE > SHMEM_BCAST_SYNC_SIZE ? SHMEM_REDUCE_SYNC_SIZE
                                                                        : SHMEM_BCAST_SYNC_SIZE)
                      : (SHMEM_COLLECT_SYNC_SIZE > SHMEM_BCAST_SYNC_SIZE
                             ? SHMEM_COLLECT_SYNC_SIZE
                             : SHMEM_BCAST_SYNC_SIZE)];
static long red_sync[SHMEM_REDUCE_SYNC_SIZE];
static double red_wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static double mine, slowest;
static int npes;

static void one(int team, enum op op, size_t bytes)
{
    size_t longs = bytes / sizeof(long);
    if (!team) {
        switch (op) {
        case COLLECT: shmem_collect64(dst, src, longs, 0, 0, npes, psync); break;
        case FCOLLECT: shmem_fcollect64(dst, src, longs, 0, 0, npes, psync); break;
        case BROADCAST: shmem_broadcast64(dst, src, longs, 0, 0, 0, npes, psync); break;
        case REDUCE:
            shmem_long_sum_to_all(dst, src, (int)longs, 0, 0, npes, pwrk, psync);
            break;
        }
        return;
    }
#ifdef HAVE_TEAMS
    switch (op) {
    case COLLECT: shmem_collectmem(SHMEM_TEAM_WORLD, dst, src, bytes); break;
    case FCOLLECT: shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, bytes); break;
    case BROADCAST: shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, bytes, 0); break;
    case REDUCE: shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, longs); break;
    }
#endif
}

/* Mean ns per call over iters calls, the slowest PE's. */
static double batch(int team, enum op op, size_t bytes, int iters)
{
    double sum = 0;
    for (int i = 0; i < iters; i++) {
        double t0 = bench_now_ns();
        one(team, op, bytes);
        sum += bench_now_ns() - t0;
        shmem_barrier_all();
    }
    mine = sum / iters;
    shmem_double_max_to_all(&slowest, &mine, 1, 0, 0, npes, red_wrk, red_sync);
    shmem_barrier_all();
    return slowest;
}

static void row(int team, enum op op, size_t bytes, int reps, size_t iter_bytes)
{
    size_t n = iter_bytes / bytes;
    int iters = n < 20 ? 20 : n > 1000 ? 1000 : (int)n;
    double v[64];
    batch(team, op, bytes, iters);
    for (int r = 0; r < reps; r++)
        v[r] = batch(team, op, bytes, iters);
    if (shmem_my_pe() == 0)
        printf("coll_big,%s,%s,%zu,%.0f\n", team ? "team" : "set", op_name[op], bytes,
               bench_median(v, reps));
    fflush(stdout);
}

int main(void)
{
    shmem_init();
    npes = shmem_n_pes();
    const char *e = getenv("BENCH_REPS");
    int reps = e ? atoi(e) : 5;
    reps = reps < 1 ? 1 : reps > 64 ? 64 : reps;
    e = getenv("BENCH_ITER_BYTES");
    size_t iter_bytes = e ? strtoull(e, NULL, 10) : (size_t)32 << 20;
    src = shmem_malloc(MAX_BYTES);
    dst = shmem_malloc((size_t)npes * MAX_BYTES);
    pwrk = shmem_malloc((MAX_BYTES / sizeof(long) / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE) *
                        sizeof(long));
    if (src == NULL || dst == NULL || pwrk == NULL) {
        fprintf(stderr, "coll_big: no room in the heap: set SHMEM_SYMMETRIC_SIZE=64M\n");
        shmem_global_exit(1);
    }
    for (size_t i = 0; i < MAX_BYTES / sizeof(long); i++)
        src[i] = (long)i + shmem_my_pe();
    memset(dst, 0, (size_t)npes * MAX_BYTES);
    for (size_t i = 0; i < sizeof psync / sizeof psync[0]; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    for (size_t i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        red_sync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    static const size_t sizes[] = {1024, 65536, MAX_BYTES};
#ifdef HAVE_TEAMS
    int forms = 2;
#else
    int forms = 1;
#endif
    for (int team = 0; team < forms; team++)
        for (int op = COLLECT; op <= REDUCE; op++)
            for (int s = 0; s < 3; s++)
                if (sizes[s] > 1024 || op == REDUCE)
                    row(team, (enum op)op, sizes[s], reps, iter_bytes);
    shmem_free(pwrk);
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
