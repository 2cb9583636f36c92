/*
 * mpishmem: closing the lane windows of a segment.
 *
 * Open MPI 5's osc/rdma carries RMA between processes of one node as
 * active messages (btl/sm has no RDMA with remote completion), and frees
 * that emulation's state with the window.  The origin keeps each
 * request's fragment until the target hands it back, after the target has
 * answered, and handling a fragment handed back after MPI_Win_free runs a
 * callback on freed memory: a crash in a later MPI call, MPI_Finalize most
 * often (docs/mpi-quirks.md).  A target hands the fragment back before it
 * can enter a barrier, so once every member has ended its epochs (all its
 * operations answered) and passed a barrier, every fragment owed to this
 * PE is in its queue, and polling MPI takes them, up to 31 a poll.  Under
 * load 64 polls were too few (a PE whose target was descheduled has sent
 * hundreds of requests when the target runs and answers them all) and 200
 * enough; 1024 cost about 80 us, once per segment destroyed, and only
 * where PEs share a node (btl/sm).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "lane_close.h"
#include "runtime.h"
#include "quirks.h"
#include "progress.h"
#include "error.h"

/* Polls that take every fragment owed after the barrier. */
#define HANDBACK_POLLS 1024

static void take_handbacks(void)
{
    for (int i = 0; i < HANDBACK_POLLS; i++) {
        int flag = 0;
        /* Nothing is ever sent on the self communicator: each probe only
         * polls. */
        MPISHMEM_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, mpishmem_rt.self, &flag,
                                MPI_STATUS_IGNORE));
    }
}

void mpishmem_lanes_close(mpishmem_segment_t *s, int collective)
{
    int settle = collective && mpishmem_quirk_settle_window_free;
    if (collective && !settle)
        mpishmem_meet_before_blocking(s->comm); /* MPI_Win_free blocks */
    for (int k = 0; k < s->n_lanes; k++)
        MPISHMEM_MPI(MPI_Win_unlock_all(s->lanes[k].win));
    if (settle) {
        mpishmem_barrier_comm(s->comm); /* every member's operations answered */
        /* The progress thread stays out from here to the frees: a return
         * it took during MPI_Win_free would meet the same freed state. */
        mpishmem_blocking_mpi_enter();
        if (mpishmem_rt.node_size > 1)
            take_handbacks();
    }
    for (int k = 0; k < s->n_lanes; k++) {
        mpishmem_lane_t *l = &s->lanes[k];
        MPISHMEM_MPI(MPI_Win_free(&l->win));
        mpishmem_dirty_free(&l->dirty);
    }
    if (settle)
        mpishmem_blocking_mpi_leave();
    s->n_lanes = 0;
    s->win = MPI_WIN_NULL;
}
