/*
 * mpishmem: completing outstanding MPI operations (quiet, fence, pe_quiet).
 *
 * Stores made through the direct load/store path are complete as soon as
 * they are ordered by a memory barrier; MPI operations are complete after a
 * flush of their window.  Completion is by sequence number (segment.h):
 * every MPI operation gets one per lane number after its call returns, and
 * a flush pass publishes `completed` only after its flushes returned.  Flush
 * passes of one lane are serialised by that lane's lock, so a target whose
 * dirty flag is clear was flushed by a pass that has finished, or is being
 * flushed by the pass that holds the lock.  A context waits only for its
 * own numbers; when another thread's pass already covers them it returns
 * without calling MPI, and never before that pass is done.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "progress.h"
#include "request_service.h"
#include "segment.h"
#include "runtime.h"
#include "error.h"

mpishmem_lane_state_t mpishmem_lane_states[MPISHMEM_MAX_LANES] = {
#define LANE_STATE_INIT {.lock = PTHREAD_MUTEX_INITIALIZER}
    LANE_STATE_INIT, LANE_STATE_INIT, LANE_STATE_INIT, LANE_STATE_INIT,
    LANE_STATE_INIT, LANE_STATE_INIT, LANE_STATE_INIT, LANE_STATE_INIT,
    LANE_STATE_INIT, LANE_STATE_INIT, LANE_STATE_INIT, LANE_STATE_INIT,
    LANE_STATE_INIT, LANE_STATE_INIT, LANE_STATE_INIT, LANE_STATE_INIT,
};
_Static_assert(MPISHMEM_MAX_LANES == 16, "one initializer per lane");

__thread int mpishmem_stored;
int mpishmem_stores_unseen;

/* MPI_Win_flush of one target.  When PEs outnumber cores, MPICH spins
 * inside the flush until the target, descheduled, gets a core and answers:
 * a scheduler slice per flush (4 PEs on 2 cores, MPISHMEM_SHM=0: 1,300
 * random operations per second against 1.7 million at 2 PEs,
 * bench/random_ops).  There a 1-byte get queued behind the operations in
 * flight is waited for first, polling MPI and giving the core away, so the
 * flush finds them answered; the flush alone still makes them complete. */
static void flush_target(const mpishmem_segment_t *s, mpishmem_lane_t *l, int pe)
{
    int rank = mpishmem_lane_rank(l, pe);
    /* AMO requests (amo_am.c) mark lane 0: complete once acknowledged. */
    if (s->amo_am && l == &s->lanes[0])
        mpishmem_requests_wait_acks();
    if (MPISHMEM_UNLIKELY(mpishmem_rt.wait_by_request) && s->win_bytes > 0 && s->gpu == NULL) {
        static __thread char scratch;
        MPI_Request r;
        MPISHMEM_MPI(MPI_Rget(&scratch, 1, MPI_BYTE, rank, 0, 1, MPI_BYTE, l->win, &r));
        mpishmem_wait_request(&r);
    }
    mpishmem_blocking_mpi_enter();
    MPISHMEM_MPI(MPI_Win_flush(rank, l->win));
    mpishmem_blocking_mpi_leave();
}

/* Flush every target on l's dirty stack; the caller holds l's lane lock.
 * Costs the targets touched since the last pass, not the job size. */
static void flush_listed(const mpishmem_segment_t *s, mpishmem_lane_t *l)
{
    mpishmem_note_mpi_activity();
    mpishmem_dirty_entry_t *next;
    for (mpishmem_dirty_entry_t *e = mpishmem_dirty_take_all(&l->dirty); e != NULL; e = next)
        /* One flush per dirty target, not MPI_Win_flush_all: MPICH 4.0
         * (ch4:ucx) and Open MPI's osc/ucx can return from flush_all before
         * large transfers finish once the window has seen a per-target
         * flush_local (test/rma shows it). */
        if (mpishmem_dirty_clear(e, &next))
            flush_target(s, l, e->pe);
}

/* Out of memory for a new target's entry: complete the operation now, so
 * nothing about it needs recording.  Returns a number already complete. */
uint64_t mpishmem_lane_mark_failed(mpishmem_lane_t *l, int pe)
{
    MPISHMEM_MPI(MPI_Win_flush(mpishmem_lane_rank(l, pe), l->win));
    return 0;
}

void mpishmem_lane_complete(int k, uint64_t seq)
{
    mpishmem_lane_state_t *st = &mpishmem_lane_states[k];
    if (__atomic_load_n(&st->completed, __ATOMIC_ACQUIRE) >= seq)
        return;
    pthread_mutex_lock(&st->lock);
    if (__atomic_load_n(&st->completed, __ATOMIC_ACQUIRE) < seq) {
        /* Every operation numbered up to `upto` has pushed its target (or
         * found it listed) before taking its number: read it first, then
         * take the stacks. */
        uint64_t upto = __atomic_load_n(&st->issued, __ATOMIC_ACQUIRE);
        for (int i = 0; i < mpishmem_segments.count; i++) {
            mpishmem_segment_t *s = mpishmem_segments.sorted[i];
            if (k < mpishmem_segment_n_lanes(s) && mpishmem_dirty_any(&s->lanes[k].dirty))
                flush_listed(s, &s->lanes[k]);
        }
        __atomic_store_n(&st->completed, upto, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&st->lock);
}

void mpishmem_complete_pending(const mpishmem_pending_t *p, int lane)
{
    mpishmem_lane_complete(0, __atomic_load_n(&p->seq[0], __ATOMIC_RELAXED));
    if (lane != 0)
        mpishmem_lane_complete(lane, __atomic_load_n(&p->seq[1], __ATOMIC_RELAXED));
}

/* p's operations to pe on lane k of s, if any may be incomplete. */
static void flush_pe_lane(uint64_t seq, mpishmem_segment_t *s, int k, int pe)
{
    mpishmem_lane_state_t *st = &mpishmem_lane_states[k];
    if (__atomic_load_n(&st->completed, __ATOMIC_ACQUIRE) >= seq)
        return;
    /* Under the lock: a clear flag means a finished pass flushed pe. */
    pthread_mutex_lock(&st->lock);
    mpishmem_lane_t *l = &s->lanes[k];
    if (mpishmem_dirty_clear_pe(&l->dirty, pe))
        flush_target(s, l, pe);
    pthread_mutex_unlock(&st->lock);
}

void mpishmem_segment_flush_pe(const mpishmem_pending_t *p, mpishmem_segment_t *s, int lane,
                               int pe)
{
    flush_pe_lane(__atomic_load_n(&p->seq[0], __ATOMIC_RELAXED), s, 0, pe);
    if (lane != 0 && lane < mpishmem_segment_n_lanes(s))
        flush_pe_lane(__atomic_load_n(&p->seq[1], __ATOMIC_RELAXED), s, lane, pe);
}

void mpishmem_complete_pe(const mpishmem_pending_t *p, int lane, int pe)
{
    if (!mpishmem_pending_any(p, lane))
        return;
    for (int i = 0; i < mpishmem_segments.count; i++)
        mpishmem_segment_flush_pe(p, mpishmem_segments.sorted[i], lane, pe);
}

void mpishmem_complete_all(void)
{
    for (int k = 0; k <= mpishmem_rt.ctx_lanes && k < MPISHMEM_MAX_LANES; k++)
        mpishmem_lane_complete(k, __atomic_load_n(&mpishmem_lane_states[k].issued,
                                                  __ATOMIC_ACQUIRE));
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    mpishmem_stored = 0;
}
