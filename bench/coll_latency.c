/*
 * Latency of the team collectives on SHMEM_TEAM_WORLD next to the same MPI
 * collective on a duplicate of MPI_COMM_WORLD, measured in the same run:
 *   barrier    shmem_team_sync              vs MPI_Barrier
 *   broadcast  shmem_broadcastmem           vs MPI_Bcast
 *   reduce     shmem_double_sum_reduce      vs MPI_Allreduce (MPI_DOUBLE, MPI_SUM)
 *   fcollect   shmem_fcollectmem            vs MPI_Allgather
 *   alltoall   shmem_alltoallmem            vs MPI_Alltoall
 * for 8 B to 1 MiB per PE (powers of 4, then 1 MiB).  Each repetition runs
 * a batch of the shmem routine, then a batch of the MPI one (interleaved,
 * so drift hits both); a batch's time is the slowest PE's.  Printed: the
 * median over repetitions, one JSON object per line, with the ratio.
 *
 * BENCH_VARIANTS=1 also times MPI's non-blocking form waited with
 * MPI_Wait, and with an MPI_Test/sched_yield loop (what mpishmem does), to
 * compare waiting strategies.
 *
 * Run: mpiexec -n 2 ./coll_latency.  Knobs: BENCH_BATCH_MS (time of one
 * batch, default 20), BENCH_ITERS (most operations in a batch), BENCH_REPS,
 * BENCH_MAX_BYTES.  The heap must hold 2 x npes x BENCH_MAX_BYTES
 * (SHMEM_SYMMETRIC_SIZE=64M is enough for 8 PEs and 1 MiB).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <sched.h>
#include <string.h>
#include <shmem.h>
#include "bench_util.h"

enum op { BARRIER, BROADCAST, REDUCE, FCOLLECT, ALLTOALL, N_OPS };
static const char *const op_name[] = {"barrier", "broadcast", "reduce", "fcollect",
                                      "alltoall"};
static const char *const mpi_name[] = {"MPI_Barrier", "MPI_Bcast", "MPI_Allreduce",
                                       "MPI_Allgather", "MPI_Alltoall"};

enum how { SHMEM, MPI_BLOCKING, MPI_NB_WAIT, MPI_NB_TEST_YIELD, N_HOW };

static MPI_Comm comm;
static char *src, *dst; /* symmetric, npes * max bytes each */
static int npes;

static void wait_yield(MPI_Request *req)
{
    int done = 0;
    MPI_Test(req, &done, MPI_STATUS_IGNORE);
    while (!done) {
        sched_yield();
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
    }
}

/* One operation of `op` on `bytes` per PE, the way `how` says. */
static void one(enum op op, enum how how, size_t bytes)
{
    int n = (int)bytes;
    MPI_Request req;
    if (how == SHMEM) {
        switch (op) {
        case BARRIER: shmem_team_sync(SHMEM_TEAM_WORLD); break;
        case BROADCAST: shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, bytes, 0); break;
        case REDUCE:
            shmem_double_sum_reduce(SHMEM_TEAM_WORLD, (double *)dst, (const double *)src,
                                    bytes / sizeof(double));
            break;
        case FCOLLECT: shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, bytes); break;
        default: shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, bytes); break;
        }
        return;
    }
    if (how == MPI_BLOCKING) {
        switch (op) {
        case BARRIER: MPI_Barrier(comm); break;
        case BROADCAST: MPI_Bcast(src, n, MPI_BYTE, 0, comm); break;
        case REDUCE:
            MPI_Allreduce(src, dst, n / (int)sizeof(double), MPI_DOUBLE, MPI_SUM, comm);
            break;
        case FCOLLECT: MPI_Allgather(src, n, MPI_BYTE, dst, n, MPI_BYTE, comm); break;
        default: MPI_Alltoall(src, n, MPI_BYTE, dst, n, MPI_BYTE, comm); break;
        }
        return;
    }
    switch (op) {
    case BARRIER: MPI_Ibarrier(comm, &req); break;
    case BROADCAST: MPI_Ibcast(src, n, MPI_BYTE, 0, comm, &req); break;
    case REDUCE:
        MPI_Iallreduce(src, dst, n / (int)sizeof(double), MPI_DOUBLE, MPI_SUM, comm, &req);
        break;
    case FCOLLECT: MPI_Iallgather(src, n, MPI_BYTE, dst, n, MPI_BYTE, comm, &req); break;
    default: MPI_Ialltoall(src, n, MPI_BYTE, dst, n, MPI_BYTE, comm, &req); break;
    }
    if (how == MPI_NB_WAIT)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    else
        wait_yield(&req);
}

/* Nanoseconds per operation of a batch: the slowest PE's. */
static double batch(enum op op, enum how how, size_t bytes, int iters)
{
    MPI_Barrier(comm);
    double t0 = bench_now_ns();
    for (int i = 0; i < iters; i++)
        one(op, how, bytes);
    double mine = (bench_now_ns() - t0) / iters, slowest;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    return slowest;
}

static void measure(bench_config_t c, enum op op, size_t bytes, int n_how)
{
    double samples[N_HOW][BENCH_MAX_REPS], med[N_HOW];
    int iters[N_HOW];
    /* Warm up, then size each form's batches to about BENCH_BATCH_MS: a
     * form far slower than another must not shrink the other's batches to
     * a few operations.  Every PE gets the same (reduced) times, so every
     * PE runs the same number of operations. */
    for (int h = 0; h < n_how; h++) {
        batch(op, (enum how)h, bytes, 2);
        double t = batch(op, (enum how)h, bytes, 3);
        double want = 1e6 * bench_env_int("BENCH_BATCH_MS", 20) / (t > 1.0 ? t : 1.0);
        iters[h] = want > c.iters ? c.iters : want < 4 ? 4 : (int)want;
    }
    for (int r = 0; r < c.reps; r++)
        for (int h = 0; h < n_how; h++)
            samples[h][r] = batch(op, (enum how)h, bytes, iters[h]);
    for (int h = 0; h < n_how; h++)
        med[h] = bench_median(samples[h], c.reps);
    if (shmem_my_pe() != 0)
        return;
    printf("{\"bench\":\"coll_latency\",\"op\":\"%s\",\"bytes\":%zu,\"npes\":%d,"
           "\"iters\":%d,\"median_ns\":%.1f,\"floor\":\"%s\",\"floor_ns\":%.1f,"
           "\"ratio\":%.3f",
           op_name[op], bytes, npes, iters[SHMEM], med[SHMEM], mpi_name[op], med[MPI_BLOCKING],
           med[SHMEM] / med[MPI_BLOCKING]);
    if (n_how > MPI_NB_WAIT)
        printf(",\"mpi_nb_wait_ns\":%.1f,\"mpi_nb_test_yield_ns\":%.1f", med[MPI_NB_WAIT],
               med[MPI_NB_TEST_YIELD]);
    printf("}\n");
    fflush(stdout);
}

int main(void)
{
    bench_config_t c = bench_start("coll_latency");
    npes = shmem_n_pes();
    size_t max_bytes = (size_t)bench_env_int("BENCH_MAX_BYTES", 1 << 20);
    int n_how = bench_env_int("BENCH_VARIANTS", 0) ? N_HOW : MPI_NB_WAIT;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    src = shmem_malloc(max_bytes * (size_t)npes);
    dst = shmem_malloc(max_bytes * (size_t)npes);
    if (src == NULL || dst == NULL) {
        if (shmem_my_pe() == 0)
            fprintf(stderr, "coll_latency: cannot allocate 2 x %zu bytes; raise "
                            "SHMEM_SYMMETRIC_SIZE\n", max_bytes * (size_t)npes);
        shmem_global_exit(1);
    }
    memset(src, 1, max_bytes * (size_t)npes);
    memset(dst, 0, max_bytes * (size_t)npes);
    if (shmem_my_pe() == 0)
        printf("{\"bench\":\"config\",\"npes\":%d,\"iters\":%d,\"reps\":%d}\n", npes, c.iters,
               c.reps);
    measure(c, BARRIER, 0, n_how);
    for (enum op op = BROADCAST; op < N_OPS; op++) {
        size_t bytes = 8;
        for (; bytes <= max_bytes; bytes *= 4)
            measure(c, op, bytes, n_how);
        if (bytes / 4 != max_bytes)
            measure(c, op, max_bytes, n_how);
    }
    MPI_Comm_free(&comm);
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
