/*
 * mpishmem: atomic memory operations through MPI accumulates.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "amo_path.h"
#include "../lib/runtime.h"

/* Operand ring: MPI may read an origin buffer until the operation completes
 * locally, so operands must outlive the caller's stack frame. */
#define STASH_SLOTS 1024
static __thread uint64_t stash[STASH_SLOTS];
static __thread unsigned stash_next;

static void *stash_operand(const void *v, size_t size)
{
    if (stash_next == STASH_SLOTS) {
        mpishmem_complete_all(); /* every slot handed out so far is done */
        stash_next = 0;
    }
    void *slot = &stash[stash_next++];
    memcpy(slot, v, size);
    return slot;
}

static MPI_Op mpi_op_of(int op)
{
    switch (op) {
    case MPISHMEM_AMO_ADD: return MPI_SUM;
    case MPISHMEM_AMO_AND: return MPI_BAND;
    case MPISHMEM_AMO_OR: return MPI_BOR;
    case MPISHMEM_AMO_XOR: return MPI_BXOR;
    case MPISHMEM_AMO_FETCH: return MPI_NO_OP;
    default: return MPI_REPLACE; /* set, swap */
    }
}

void mpishmem_amo_mpi(mpishmem_segment_t *s, int op, size_t off, size_t size,
                      const void *value, const void *cond, void *result, int pe, int blocking)
{
    MPI_Datatype dt = size == 8 ? MPI_UINT64_T : MPI_UINT32_T;
    MPI_Aint disp = (MPI_Aint)off;
    int rank = mpishmem_segment_rank(s, pe); /* pe is a world PE; the window may not be */
    if (result == NULL) {
        /* set, add, and, or, xor: nothing to wait for. */
        MPI_Accumulate(stash_operand(value, size), 1, dt, rank, disp, 1, dt, mpi_op_of(op),
                       s->win);
        mpishmem_lane_mark(&s->lanes[0], pe);
        return;
    }
    if (op == MPISHMEM_AMO_CSWAP)
        MPI_Compare_and_swap(stash_operand(value, size), stash_operand(cond, size), result, dt,
                             rank, disp, s->win);
    else if (op == MPISHMEM_AMO_FETCH)
        MPI_Fetch_and_op(NULL, result, dt, rank, disp, MPI_NO_OP, s->win);
    else
        MPI_Fetch_and_op(stash_operand(value, size), result, dt, rank, disp, mpi_op_of(op),
                         s->win);
    if (blocking)
        MPI_Win_flush_local(rank, s->win);
    else
        mpishmem_lane_mark(&s->lanes[0], pe);
    /* A PE polling its own memory with AMOs must still serve AMOs aimed at
     * it: Open MPI completes an atomic on the caller's own window without
     * progressing incoming operations, and a lock or flag loop would hang. */
    if (pe == mpishmem_rt.my_pe) {
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, mpishmem_rt.world, &flag, MPI_STATUS_IGNORE);
    }
}
