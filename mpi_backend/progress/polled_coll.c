/*
 * mpishmem: the library's own set-up collectives, polled with the waiting
 * rule (progress.c) instead of blocking inside MPI (progress.h says why).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "progress.h"
#include "error.h"

void mpishmem_meet_before_blocking(MPI_Comm comm)
{
    if (mpishmem_serving())
        mpishmem_barrier_comm(comm);
}

void mpishmem_barrier_comm(MPI_Comm comm)
{
    int n, me;
    MPISHMEM_MPI(MPI_Comm_size(comm, &n));
    MPISHMEM_MPI(MPI_Comm_rank(comm, &me));
    /* Round k: tell rank me + 2^k, hear from rank me - 2^k.  Distances
     * below n are distinct, so a round's partner differs from every
     * other round's. */
    for (int dist = 1, round = 0; dist < n; dist <<= 1, round++) {
        MPI_Request r[2];
        int tag = MPISHMEM_BARRIER_TAG + round;
        MPISHMEM_MPI(MPI_Irecv(NULL, 0, MPI_BYTE, (me - dist + n) % n, tag, comm, &r[0]));
        MPISHMEM_MPI(MPI_Isend(NULL, 0, MPI_BYTE, (me + dist) % n, tag, comm, &r[1]));
        mpishmem_wait_message(&r[0]);
        mpishmem_wait_message(&r[1]);
    }
}

int mpishmem_allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm)
{
    MPI_Request req;
    MPISHMEM_MPI(MPI_Iallreduce(in, out, count, type, op, comm, &req));
    mpishmem_wait_request(&req);
    return MPI_SUCCESS; /* a failure stopped the job */
}

int mpishmem_allgather(const void *in, int in_count, MPI_Datatype in_type, void *out,
                       int out_count, MPI_Datatype out_type, MPI_Comm comm)
{
    MPI_Request req;
    MPISHMEM_MPI(MPI_Iallgather(in, in_count, in_type, out, out_count, out_type, comm, &req));
    mpishmem_wait_request(&req);
    return MPI_SUCCESS; /* a failure stopped the job */
}

int mpishmem_comm_dup(MPI_Comm comm, MPI_Comm *dup)
{
    MPI_Request req;
    MPISHMEM_MPI(MPI_Comm_idup(comm, dup, &req));
    mpishmem_wait_request(&req);
    return MPI_SUCCESS; /* a failure stopped the job */
}
