/*
 * mpi_setup: what the MPI calls shmem_init could use cost, blocking and
 * polled (plain MPI, no mpishmem).
 *
 *   mpiexec -n 64 build/bench/mpi_setup      (REPS=3)
 *
 * When processes outnumber cores, MPICH spins inside its blocking
 * collectives, so each waits for the scheduler to run the processes it
 * needs; the non-blocking forms, tested and yielding between tests as
 * mpishmem's set-up waits do, do not.  shmem_init therefore takes polled
 * collectives where MPI has them, and avoids MPI_Comm_split_type and
 * MPI_Win_create over the world where the job is on one node
 * (docs/performance.md, "Start-up on one node").  Before each timed call
 * the processes meet in a polled barrier, so a row does not include
 * waiting for late processes.  PE 0 prints
 *   mpi_setup,CALL,MEDIAN_MS,MIN_MS,MAX_MS,NPROCS
 * for each call, over REPS repetitions.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench_time.h"

#define MAX_REPS 15

static void wait_polled(MPI_Request *r)
{
    int done = 0;
    while (!done) {
        MPI_Test(r, &done, MPI_STATUS_IGNORE);
        if (!done)
            sched_yield();
    }
}

static void meet(void)
{
    MPI_Request r;
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    wait_polled(&r);
}

static char window_memory[1 << 16];

enum { SPLIT_TYPE, COMM_DUP, COMM_IDUP, BARRIER, IBARRIER, ALLREDUCE, IALLREDUCE, WIN_CREATE,
       WIN_CREATE_SELF, WIN_FREE, N_CALLS };
static const char *const names[N_CALLS] = {
    "comm_split_type_shared", "comm_dup", "comm_idup_polled", "barrier", "ibarrier_polled",
    "allreduce", "iallreduce_polled", "win_create_world", "win_create_self", "win_free_world"};

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n, reps = getenv("REPS") ? atoi(getenv("REPS")) : 3;
    if (reps < 1 || reps > MAX_REPS)
        reps = 3;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    static double ms[N_CALLS][MAX_REPS];
    for (int rep = 0; rep < reps; rep++) {
        for (int call = 0; call < N_CALLS; call++) {
            MPI_Comm c = MPI_COMM_NULL;
            MPI_Win w = MPI_WIN_NULL;
            MPI_Request r;
            int in = 1, out;
            if (call == WIN_FREE)
                MPI_Win_create(window_memory, sizeof window_memory, 1, MPI_INFO_NULL,
                               MPI_COMM_WORLD, &w);
            meet();
            double t0 = bench_now_ns();
            switch (call) {
            case SPLIT_TYPE:
                MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c);
                break;
            case COMM_DUP: MPI_Comm_dup(MPI_COMM_WORLD, &c); break;
            case COMM_IDUP:
                MPI_Comm_idup(MPI_COMM_WORLD, &c, &r);
                wait_polled(&r);
                break;
            case BARRIER: MPI_Barrier(MPI_COMM_WORLD); break;
            case IBARRIER:
                MPI_Ibarrier(MPI_COMM_WORLD, &r);
                wait_polled(&r);
                break;
            case ALLREDUCE: MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
            case IALLREDUCE:
                MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
                wait_polled(&r);
                break;
            case WIN_CREATE:
                MPI_Win_create(window_memory, sizeof window_memory, 1, MPI_INFO_NULL,
                               MPI_COMM_WORLD, &w);
                break;
            case WIN_CREATE_SELF:
                MPI_Win_create(window_memory, sizeof window_memory, 1, MPI_INFO_NULL,
                               MPI_COMM_SELF, &w);
                break;
            case WIN_FREE: MPI_Win_free(&w); break;
            }
            ms[call][rep] = (bench_now_ns() - t0) / 1e6;
            if (w != MPI_WIN_NULL)
                MPI_Win_free(&w);
            if (c != MPI_COMM_NULL)
                MPI_Comm_free(&c);
        }
    }
    for (int call = 0; call < N_CALLS && me == 0; call++) {
        qsort(ms[call], (size_t)reps, sizeof(double), cmp);
        printf("mpi_setup,%s,%.3f,%.3f,%.3f,%d\n", names[call], ms[call][reps / 2], ms[call][0],
               ms[call][reps - 1], n);
    }
    MPI_Finalize();
    return 0;
}
