/*
 * mpishmem: completing outstanding MPI operations (quiet, fence, pe_quiet).
 *
 * Stores made through the direct load/store path are complete as soon as
 * they are ordered by a memory barrier; MPI operations are complete after a
 * flush of their window.  We flush only lanes, and where cheap only
 * targets, that have something outstanding.  A context's quiet flushes its
 * own lane and the AMO lane (0), never the lanes of other contexts.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "segment.h"
#include "../lib/runtime.h"

void mpishmem_lane_flush_all(mpishmem_lane_t *l)
{
    unsigned e = __atomic_load_n(&l->epoch, __ATOMIC_RELAXED);
    if (__atomic_load_n(&l->dirty_any, __ATOMIC_RELAXED) != e)
        return;
    /* Advance the epoch before flushing: an operation marked afterwards
     * was issued after this point and stays dirty for the next quiet. */
    __atomic_store_n(&l->epoch, e + 1, __ATOMIC_SEQ_CST);
    /* One flush per dirty target, not MPI_Win_flush_all: MPICH 4.0 (ch4:ucx)
     * and Open MPI's osc/ucx can return from flush_all before large
     * transfers finish once the window has seen a per-target flush_local
     * (test/rma shows it).  MPI_Win_flush(pe) is reliable. */
    for (int pe = 0; pe < mpishmem_rt.n_pes; pe++)
        if (__atomic_load_n(&l->dirty_epoch[pe], __ATOMIC_RELAXED) == e)
            MPI_Win_flush(mpishmem_lane_rank(l, pe), l->win);
}

void mpishmem_lane_flush_pe(mpishmem_lane_t *l, int pe)
{
    if (!mpishmem_lane_dirty(l, pe))
        return;
    __atomic_store_n(&l->dirty_epoch[pe], __atomic_load_n(&l->epoch, __ATOMIC_RELAXED) - 1,
                     __ATOMIC_SEQ_CST);
    MPI_Win_flush(mpishmem_lane_rank(l, pe), l->win);
}

void mpishmem_segment_flush_pe(mpishmem_segment_t *s, int lane, int amo, int pe)
{
    mpishmem_lane_t *l = mpishmem_segment_lane(s, lane);
    mpishmem_lane_flush_pe(l, pe);
    if (amo && l != &s->lanes[0])
        mpishmem_lane_flush_pe(&s->lanes[0], pe);
}

void mpishmem_complete_all(void)
{
    for (int i = 0; i < mpishmem_segments.count; i++) {
        mpishmem_segment_t *s = mpishmem_segments.sorted[i];
        for (int k = 0; k < s->n_lanes; k++)
            mpishmem_lane_flush_all(&s->lanes[k]);
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void mpishmem_complete_lane(int lane, int amo)
{
    for (int i = 0; i < mpishmem_segments.count; i++) {
        mpishmem_segment_t *s = mpishmem_segments.sorted[i];
        mpishmem_lane_t *l = mpishmem_segment_lane(s, lane);
        mpishmem_lane_flush_all(l);
        if (amo && l != &s->lanes[0])
            mpishmem_lane_flush_all(&s->lanes[0]);
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void mpishmem_complete_pe(int lane, int amo, int pe)
{
    for (int i = 0; i < mpishmem_segments.count; i++)
        mpishmem_segment_flush_pe(mpishmem_segments.sorted[i], lane, amo, pe);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
