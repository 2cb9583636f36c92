/*
 * mpishmem: reductions (MPI_Allreduce, MPI_Iallreduce, or for small
 * operands that must be polled, messages of our own) and the sum scans (MPI_Iscan,
 * MPI_Iexscan) on a communicator.  The typed routines (typed_reduce.c,
 * to_all.c) pass the MPI datatype and operation of their type and name.
 *
 * Teams on one node with operands of at most MPISHMEM_NODE_SLOT bytes go
 * through the node object's slots instead (coll_small.c).
 *
 * dest == source is MPI_IN_PLACE.  A source that partly overlaps dest is
 * forbidden by the spec (checked under SHMEM_DEBUG) and is otherwise
 * copied aside first.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "../../mpi_backend/progress/node_barrier.h"
#include "../trace.h"

/* Checks and send buffer shared by reductions and scans.  Returns the
 * count, 0 when there is nothing to do. */
static int prepare(const char *routine, const char *count_name, mpishmem_coll_comm_t *c,
                   void **destp, const void *source, size_t nelems, size_t esize,
                   const void **send, void **tmp, size_t *bytes, mpishmem_coll_stage_t *st,
                   int force_stage)
{
    void *dest = *destp;
    *bytes = mpishmem_checked_count(routine, count_name, nelems, esize);
    int count = mpishmem_coll_count(routine, nelems);
    if (MPISHMEM_DEBUG_ON) {
        const char *const names[] = {count_name, "dest"};
        long long v[] = {(long long)nelems, mpishmem_coll_symmetric_offset(dest)};
        mpishmem_coll_check_buffers(routine, c, dest, *bytes, source, *bytes, 1);
        mpishmem_coll_check_same(routine, c, names, v, 2);
    }
    *tmp = NULL;
    st->block = st->src_block = st->dev_dest = NULL;
    if (count == 0)
        return 0;
    MPISHMEM_COLL_STAGE(routine, st, destp, *bytes, &source, *bytes, force_stage);
    dest = *destp;
    if (dest == source)
        *send = MPI_IN_PLACE;
    else if (mpishmem_coll_overlap(dest, *bytes, source, *bytes))
        *send = mpishmem_coll_copy_source(routine, source, *bytes, tmp);
    else
        *send = source;
    return count;
}

/* The node object when the operands fit its slots (the same answer on
 * every PE: nelems and esize are), else NULL: MPI's collective. */
static mpishmem_node_barrier_t *small_route(const char *routine, mpishmem_coll_comm_t *c,
                                            size_t nelems, size_t esize)
{
    if (nelems == 0 || nelems > MPISHMEM_NODE_SLOT / esize)
        return NULL;
    return mpishmem_coll_node(routine, c);
}

/* Up to this many bytes a reduction that must be polled travels as
 * point-to-point messages (reduce_polled) instead of a polled
 * MPI_Iallreduce: two pretend nodes, MPICH 4.0, 8 bytes: 375 ns against
 * 1375 (MPI_Allreduce, which cannot be polled: 568). */
#define POLLED_P2P_MAX 4096

/* acc <- lower op upper, where acc holds this PE's partial result and in
 * the partner's (a scratch buffer), acc_lower says whose is the lower
 * block: both partners evaluate the same expression, so every PE ends with
 * the same bits (max of +0 and -0, rounding of reals). */
static void combine_ordered(void *acc, void *in, int acc_lower, int count, size_t bytes,
                            MPI_Datatype dt, MPI_Op op, MPI_Op mpi_op)
{
    if (acc_lower) {
        mpishmem_coll_combine(in, acc, count, dt, op, mpi_op);
        memcpy(acc, in, bytes);
    } else {
        mpishmem_coll_combine(acc, in, count, dt, op, mpi_op);
    }
}

/* Recursive doubling over the largest power of two p2 <= n; ranks from p2
 * up first hand their operand to rank - p2 and get the result back. */
static void reduce_polled(mpishmem_coll_comm_t *c, void *dest, const void *send, int count,
                          size_t bytes, MPI_Datatype dt, MPI_Op op, MPI_Op mpi_op)
{
    _Alignas(16) unsigned char in[POLLED_P2P_MAX];
    int n = c->n, me = c->me, p2 = 1;
    MPI_Request r[2];
    if (send != MPI_IN_PLACE)
        memcpy(dest, send, bytes);
    while (p2 <= n / 2)
        p2 *= 2;
    if (me >= p2) {
        MPISHMEM_MPI(MPI_Isend(dest, count, dt, me - p2, MPISHMEM_REDUCE_TAG, c->comm, &r[0]));
        MPISHMEM_MPI(MPI_Irecv(dest, count, dt, me - p2, MPISHMEM_REDUCE_TAG, c->comm, &r[1]));
        mpishmem_wait_message(&r[0]);
        mpishmem_wait_message(&r[1]);
        return;
    }
    if (me + p2 < n) {
        MPISHMEM_MPI(MPI_Irecv(in, count, dt, me + p2, MPISHMEM_REDUCE_TAG, c->comm, &r[0]));
        mpishmem_wait_message(&r[0]);
        combine_ordered(dest, in, 1, count, bytes, dt, op, mpi_op);
    }
    for (int d = 1; d < p2; d <<= 1) {
        int partner = me ^ d;
        MPISHMEM_MPI(MPI_Irecv(in, count, dt, partner, MPISHMEM_REDUCE_TAG, c->comm, &r[0]));
        MPISHMEM_MPI(MPI_Isend(dest, count, dt, partner, MPISHMEM_REDUCE_TAG, c->comm, &r[1]));
        mpishmem_wait_message(&r[0]);
        mpishmem_wait_message(&r[1]);
        combine_ordered(dest, in, me < partner, count, bytes, dt, op, mpi_op);
    }
    if (me + p2 < n) {
        MPISHMEM_MPI(MPI_Isend(dest, count, dt, me + p2, MPISHMEM_REDUCE_TAG, c->comm, &r[0]));
        mpishmem_wait_message(&r[0]);
    }
}

void mpishmem_coll_reduce(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                          const void *source, size_t nreduce, size_t esize, MPI_Datatype dt,
                          MPI_Op op)
{
    const void *send;
    void *tmp;
    size_t bytes;
    mpishmem_coll_stage_t st;
    /* Our own operation (unsigned_minmax.c) runs on the CPU: host copies. */
    MPI_Op mpi_op = op == MPI_MAX || op == MPI_MIN ? mpishmem_coll_minmax_op(routine, op, dt)
                                                   : op;
    mpishmem_node_barrier_t *b = small_route(routine, c, nreduce, esize);
    /* Larger operands on one node: combined straight from the peers'
     * sources (coll_large.c), unless some PE's buffers forbid it. */
    mpishmem_node_barrier_t *large = b == NULL && nreduce > 0 ? mpishmem_coll_node(routine, c)
                                                              : NULL;
    /* The same answer on every PE: nreduce, esize and c->may_block are. */
    int polled = b == NULL && nreduce <= POLLED_P2P_MAX / esize && !mpishmem_coll_blocking(c);
    int count = prepare(routine, "nreduce", c, &dest, source, nreduce, esize, &send, &tmp,
                        &bytes, &st, mpi_op != op || b != NULL || polled);
    if (count == 0)
        return;
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_coll(c->comm, -1, bytes);
    if (b != NULL)
        mpishmem_coll_small_reduce(b, c, dest, send, count, bytes, dt, op, mpi_op,
                                   MPISHMEM_SMALL_ALLREDUCE);
    else if (large != NULL &&
             mpishmem_coll_large_reduce(large, c, dest, source, count, esize, dt, op, mpi_op))
        ;
    else if (polled)
        reduce_polled(c, dest, send, count, bytes, dt, op, mpi_op);
    else
        MPISHMEM_COLL_RUN(routine, mpishmem_coll_blocking(c), MPI_Allreduce, MPI_Iallreduce,
                          send, dest, count, dt, mpi_op, c->comm);
    free(tmp);
    MPISHMEM_COLL_UNSTAGE(&st);
}

void mpishmem_coll_scan(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                        const void *source, size_t nelems, size_t esize, MPI_Datatype dt,
                        int exclusive)
{
    const void *send;
    void *tmp;
    size_t bytes;
    mpishmem_coll_stage_t st;
    mpishmem_node_barrier_t *b = small_route(routine, c, nelems, esize);
    int count = prepare(routine, "nelems", c, &dest, source, nelems, esize, &send, &tmp,
                        &bytes, &st, b != NULL);
    if (count == 0)
        return;
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_coll(c->comm, -1, bytes);
    int blocking = mpishmem_coll_blocking(c);
    if (b != NULL)
        mpishmem_coll_small_reduce(b, c, dest, send, count, bytes, dt, MPI_SUM, MPI_SUM,
                                   exclusive ? MPISHMEM_SMALL_EXSCAN : MPISHMEM_SMALL_INSCAN);
    else if (exclusive)
        MPISHMEM_COLL_RUN(routine, blocking, MPI_Exscan, MPI_Iexscan, send, dest, count, dt,
                          MPI_SUM, c->comm);
    else
        MPISHMEM_COLL_RUN(routine, blocking, MPI_Scan, MPI_Iscan, send, dest, count, dt,
                          MPI_SUM, c->comm);
    /* MPI leaves rank 0's result undefined; the spec defines it as 0 (all
     * bits zero is 0 for every integer, real and complex type here). */
    if (exclusive && c->me == 0)
        mpishmem_gpu_zero(dest, bytes);
    free(tmp);
    MPISHMEM_COLL_UNSTAGE(&st);
}
