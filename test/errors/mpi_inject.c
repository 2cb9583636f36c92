/*
 * The one MPI error rule under fire: this program interposes on a few MPI
 * calls (the PMPI profiling interface) and makes the one named by
 * MPISHMEM_TEST_FAIL return MPI_ERR_OTHER from its MPISHMEM_TEST_FAIL_AT'th
 * call on (default 0: the first) on every PE; mpi_inject.sh checks that the
 * library stops with "mpishmem: <routine>: <call> failed: <MPI's string>"
 * and a non-zero status instead of going on with a call that never happened.
 *
 * Run with MPISHMEM_SHM=0 (puts, flushes and AMOs through MPI) and
 * MPISHMEM_BARRIER=mpi.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails(const char *call)
{
    static const char *name;
    static long at, seen;
    if (name == NULL) {
        name = getenv("MPISHMEM_TEST_FAIL");
        name = name ? name : "";
        const char *a = getenv("MPISHMEM_TEST_FAIL_AT");
        at = a ? atol(a) : 0;
    }
    return strcmp(call, name) == 0 && seen++ >= at;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    return fails("MPI_Isend") ? MPI_ERR_OTHER : PMPI_Isend(buf, count, t, dest, tag, comm, req);
}

int MPI_Put(const void *o, int oc, MPI_Datatype ot, int rank, MPI_Aint disp, int tc,
            MPI_Datatype tt, MPI_Win win)
{
    return fails("MPI_Put") ? MPI_ERR_OTHER : PMPI_Put(o, oc, ot, rank, disp, tc, tt, win);
}

int MPI_Win_flush(int rank, MPI_Win win)
{
    return fails("MPI_Win_flush") ? MPI_ERR_OTHER : PMPI_Win_flush(rank, win);
}

int MPI_Iallreduce(const void *in, void *out, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                   MPI_Request *req)
{
    return fails("MPI_Iallreduce") ? MPI_ERR_OTHER
                                   : PMPI_Iallreduce(in, out, n, t, op, comm, req);
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *dup, MPI_Request *req)
{
    return fails("MPI_Comm_idup") ? MPI_ERR_OTHER : PMPI_Comm_idup(comm, dup, req);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *x = shmem_malloc(sizeof *x);
    *x = 0;
    shmem_barrier_all();
    shmem_long_p(x, me + 1, (me + 1) % n);
    shmem_quiet();
    shmem_barrier_all();
    long want = (me + n - 1) % n + 1;
    if (*x != want) {
        printf("PE %d: x is %ld, expected %ld\n", me, *x, want);
        return 1;
    }
    shmem_free(x);
    printf("PE %d: done\n", me);
    shmem_finalize();
    return 0;
}
