/*
 * mpishmem: atomic memory operations through MPI accumulates.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <pthread.h>
#include "amo_path.h"
#include "progress.h"
#include "runtime.h"
#include "error.h"
#include "quirks.h"

/* Operand ring: MPI may read an origin buffer until the operation completes
 * locally, so operands must outlive the caller's stack frame.  Each slot
 * remembers the lane-0 sequence number of the operation that read it (0:
 * complete at return), and is reused only once that number is complete:
 * normally long since, by a quiet; otherwise only lane 0 is flushed, so no
 * other lane (another context's) is touched. */
#define STASH_SLOTS 1024
static __thread uint64_t stash[STASH_SLOTS];
static __thread uint64_t stash_seq[STASH_SLOTS];
static __thread unsigned stash_next;

static unsigned stash_operand(const void *v, size_t size)
{
    unsigned i = stash_next;
    stash_next = (i + 1) % STASH_SLOTS;
    if (MPISHMEM_UNLIKELY(stash_seq[i] >
                          __atomic_load_n(&mpishmem_lane_states[0].completed, __ATOMIC_ACQUIRE)))
        mpishmem_lane_complete(0, stash_seq[i]);
    stash_seq[i] = 0;
    memcpy(&stash[i], v, size);
    return i;
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

/* Threads of one PE that wait for fetching AMOs when PEs outnumber cores
 * take turns here: Open MPI's osc/ucx runs each one in software under a
 * spin lock, and a dozen threads spinning on it starved the one holding it
 * (3 PEs x 4 threads on 2 cores, MPISHMEM_SHM=0: over 60 s for 9600
 * fetching AMOs, test ctx_fetch_threads).  Waiting threads sleep here. */
static pthread_mutex_t oversubscribed_fetch = PTHREAD_MUTEX_INITIALIZER;

/* Waits for an AMO's request: when PEs outnumber cores, polling MPI and
 * giving the core away, so the target PE gets one to answer (completion.c,
 * flush_target); otherwise in MPI_Wait. */
static void wait_amo(MPI_Request *req)
{
    if (mpishmem_rt.wait_by_request)
        mpishmem_wait_request(req);
    else
        MPISHMEM_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
}

/* A blocking fetching AMO under SHMEM_THREAD_MULTIPLE, or when PEs
 * outnumber cores, waits for its own request, not for a local flush of the
 * target: with threads sharing the window, MPICH can return from one
 * thread's MPI_Win_flush_local while another flushes the same target and
 * the result is still on its way (the blocking get's race, rma_mpi.c); and
 * oversubscribed, MPICH spins inside the flush until the target is
 * scheduled.  Compare-and-swap has no request-based form in MPI: it keeps
 * flush_local, after (oversubscribed) waiting for a fetch of the same word
 * that accumulate ordering puts behind it. */
static void fetch_wait(mpishmem_segment_t *s, int op, MPI_Aint disp, MPI_Datatype dt,
                       size_t size, const void *value, const void *cond, void *result,
                       int rank)
{
    int serialize = mpishmem_rt.yield && mpishmem_rt.thread_level == SHMEM_THREAD_MULTIPLE;
    if (serialize)
        pthread_mutex_lock(&oversubscribed_fetch);
    MPI_Request req;
    if (op == MPISHMEM_AMO_CSWAP) {
        unsigned v = stash_operand(value, size), c = stash_operand(cond, size);
        MPISHMEM_MPI(MPI_Compare_and_swap(&stash[v], &stash[c], result, dt, rank, disp, s->win));
        if (mpishmem_rt.wait_by_request) {
            uint64_t probe;
            MPISHMEM_MPI(MPI_Rget_accumulate(NULL, 0, dt, &probe, 1, dt, rank, disp, 1, dt,
                                             MPI_NO_OP, s->win, &req));
            mpishmem_wait_request(&req);
        }
        MPISHMEM_MPI(MPI_Win_flush_local(rank, s->win));
    } else {
        const void *origin = op == MPISHMEM_AMO_FETCH ? NULL : &stash[stash_operand(value, size)];
        MPISHMEM_MPI(MPI_Rget_accumulate(origin, origin != NULL, dt, result, 1, dt, rank, disp, 1,
                                         dt, op == MPISHMEM_AMO_FETCH ? MPI_NO_OP : mpi_op_of(op),
                                         s->win, &req));
        wait_amo(&req);
    }
    if (serialize)
        pthread_mutex_unlock(&oversubscribed_fetch);
}

static uint64_t apply_bitwise(int op, uint64_t old, uint64_t v)
{
    return op == MPISHMEM_AMO_AND ? old & v : op == MPISHMEM_AMO_OR ? old | v : old ^ v;
}

/* And, or, xor as a compare-and-swap loop, where the MPI loses concurrent
 * bitwise accumulates (quirks.c: mpishmem_quirk_bitwise_by_cas).  Complete
 * at return, the non-blocking forms too (completing early is allowed). */
static void bitwise_by_cas(mpishmem_segment_t *s, int op, MPI_Aint disp, MPI_Datatype dt,
                           size_t size, const void *value, void *result, int rank)
{
    uint64_t v = 0, seen = 0, want, got = 0;
    memcpy(&v, value, size);
    MPISHMEM_MPI(MPI_Fetch_and_op(NULL, &seen, dt, rank, disp, MPI_NO_OP, s->win));
    MPISHMEM_MPI(MPI_Win_flush_local(rank, s->win));
    for (;;) {
        want = apply_bitwise(op, seen, v);
        MPISHMEM_MPI(MPI_Compare_and_swap(&want, &seen, &got, dt, rank, disp, s->win));
        MPISHMEM_MPI(MPI_Win_flush_local(rank, s->win));
        if (got == seen)
            break;
        seen = got;
    }
    if (result != NULL)
        memcpy(result, &seen, size);
}

void mpishmem_amo_mpi(mpishmem_pending_t *p, mpishmem_segment_t *s, int op, size_t off,
                      size_t size, const void *value, const void *cond, void *result, int pe,
                      int blocking)
{
    mpishmem_note_mpi_activity();
    MPI_Datatype dt = size == 8 ? MPI_UINT64_T : MPI_UINT32_T;
    MPI_Aint disp = (MPI_Aint)off;
    int rank = mpishmem_segment_rank(s, pe); /* pe is a world PE; the window may not be */
    if (MPISHMEM_UNLIKELY(mpishmem_quirk_bitwise_by_cas) &&
        (op == MPISHMEM_AMO_AND || op == MPISHMEM_AMO_OR || op == MPISHMEM_AMO_XOR)) {
        bitwise_by_cas(s, op, disp, dt, size, value, result, rank);
        return;
    }
    if (result == NULL) {
        /* set, add, and, or, xor: nothing to wait for. */
        unsigned v = stash_operand(value, size);
        MPISHMEM_MPI(MPI_Accumulate(&stash[v], 1, dt, rank, disp, 1, dt, mpi_op_of(op), s->win));
        stash_seq[v] = mpishmem_lane_mark(p, s, &s->lanes[0], pe);
        return;
    }
    unsigned v = STASH_SLOTS, c = STASH_SLOTS;
    if (blocking && MPISHMEM_UNLIKELY(mpishmem_rt.thread_level == SHMEM_THREAD_MULTIPLE ||
                                      mpishmem_rt.wait_by_request)) {
        fetch_wait(s, op, disp, dt, size, value, cond, result, rank);
    } else {
        if (op == MPISHMEM_AMO_CSWAP) {
            v = stash_operand(value, size);
            c = stash_operand(cond, size);
            MPISHMEM_MPI(MPI_Compare_and_swap(&stash[v], &stash[c], result, dt, rank, disp,
                                              s->win));
        } else if (op == MPISHMEM_AMO_FETCH) {
            MPISHMEM_MPI(MPI_Fetch_and_op(NULL, result, dt, rank, disp, MPI_NO_OP, s->win));
        } else {
            v = stash_operand(value, size);
            MPISHMEM_MPI(MPI_Fetch_and_op(&stash[v], result, dt, rank, disp, mpi_op_of(op),
                                          s->win));
        }
        if (blocking) {
            MPISHMEM_MPI(MPI_Win_flush_local(rank, s->win));
        } else {
            uint64_t seq = mpishmem_lane_mark(p, s, &s->lanes[0], pe);
            if (v < STASH_SLOTS)
                stash_seq[v] = seq;
            if (c < STASH_SLOTS)
                stash_seq[c] = seq;
        }
    }
    /* A PE polling its own memory with AMOs must still serve AMOs aimed at
     * it: Open MPI completes an atomic on the caller's own window without
     * progressing incoming operations, and a lock or flag loop would hang. */
    if (pe == mpishmem_rt.my_pe)
        mpishmem_probe_mpi();
}
