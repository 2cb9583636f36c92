/*
 * mpishmem: synchronization over a team or an active set.
 *
 * sync (shmem_team_sync, the deprecated active-set shmem_sync) only makes
 * this PE's earlier stores visible: a memory fence on each side of an
 * MPI barrier, as shmem_sync_all does; outstanding puts are not completed.
 * The deprecated shmem_barrier also completes them first (a quiet), as
 * shmem_barrier_all does.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coll.h"
#include "../../mpi_backend/segment.h"
#include "../trace.h"

static void sync_comm(const char *routine, const mpishmem_coll_comm_t *c)
{
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_coll(c->comm, -1, 0);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    MPISHMEM_COLL_RUN(routine, mpishmem_coll_blocking(c), MPI_Barrier, MPI_Ibarrier, c->comm);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

int shmem_team_sync(shmem_team_t team)
{
    mpishmem_coll_comm_t *c = mpishmem_coll_team("shmem_team_sync", team);
    if (c == NULL)
        return -1;
    sync_comm("shmem_team_sync", c);
    return 0;
}

void(shmem_sync)(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    mpishmem_coll_comm_t *c = mpishmem_active_set("shmem_sync", PE_start, logPE_stride,
                                                  PE_size, pSync, SHMEM_BARRIER_SYNC_SIZE);
    sync_comm("shmem_sync", c);
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    mpishmem_coll_comm_t *c = mpishmem_active_set("shmem_barrier", PE_start, logPE_stride,
                                                  PE_size, pSync, SHMEM_BARRIER_SYNC_SIZE);
    mpishmem_complete_all();
    sync_comm("shmem_barrier", c);
}
