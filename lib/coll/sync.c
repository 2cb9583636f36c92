/*
 * mpishmem: synchronization over a team or an active set.
 *
 * sync (shmem_team_sync, the deprecated active-set shmem_sync) only makes
 * this PE's earlier stores visible: a memory fence on each side of a
 * barrier, as shmem_sync_all does; outstanding puts are not completed.
 * The deprecated shmem_barrier also completes them first (a quiet), as
 * shmem_barrier_all does.
 *
 * The barrier itself is either MPI's or, when every member shares this
 * node and MPISHMEM_SHM is on, one on flags in node-shared memory
 * (mpi_backend/progress/node_barrier.c).  The route is the team's or active set's
 * plan, decided when it was made (teams/team_plan.h; MPISHMEM_BARRIER,
 * docs/collectives.md); its first barrier or small collective, which
 * every member calls, only maps the flags the plan names.  Small
 * collectives (coll_small.c) use the same flags object, or MPI with it.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>
#include <strings.h>
#include "coll.h"
#include "../../mpi_backend/runtime/route_plan.h"
#include "../../mpi_backend/progress/node_barrier.h"
#include "../../mpi_backend/progress/progress.h"
#include "../../mpi_backend/memory/segment.h"
#include "../../teams/team.h"
#include "../../teams/team_plan.h"
#include "../trace.h"

/* The shared-memory barrier of c (flags and slots), or NULL for MPI's, as
 * c's plan says; the flags are mapped at c's first barrier or small
 * collective (collective over c).  Where they cannot be, on any member,
 * every member takes the fallback the plan names: MPI's barrier. */
static mpishmem_node_barrier_t *choose(const char *routine, mpishmem_coll_comm_t *c)
{
    (void)routine;
    int m = c->plan->barrier;
    if (m != MPISHMEM_BARRIER_MPI) {
        c->shm_barrier = mpishmem_node_barrier_create(c->comm,
                                                      m == MPISHMEM_BARRIER_CENTRAL
                                                          ? MPISHMEM_NODE_BARRIER_CENTRAL
                                                          : MPISHMEM_NODE_BARRIER_DISSEMINATION);
        if (c->shm_barrier == NULL)
            mpishmem_team_plan_unmapped(c->plan);
    }
    c->barrier_ready = 1;
    return c->shm_barrier;
}

static inline mpishmem_node_barrier_t *route(const char *routine, mpishmem_coll_comm_t *c)
{
    if (MPISHMEM_LIKELY(c->barrier_ready))
        return c->shm_barrier;
    return choose(routine, c);
}

/* Small collectives go where the barrier goes: the flags' slots, or MPI. */
mpishmem_node_barrier_t *mpishmem_coll_node(const char *routine, mpishmem_coll_comm_t *c)
{
    mpishmem_node_barrier_t *b = route(routine, c);
    return c->n > 1 ? b : NULL;
}

/* shmem_barrier_all and shmem_sync_all: the world team's route; MPI's
 * barrier on the runtime's world communicator otherwise, as before. */
void mpishmem_coll_sync_world(const char *routine)
{
    mpishmem_coll_comm_t *c = __atomic_load_n(&SHMEM_TEAM_WORLD->coll, __ATOMIC_ACQUIRE);
    if (MPISHMEM_UNLIKELY(c == NULL))
        c = mpishmem_coll_team(routine, SHMEM_TEAM_WORLD);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    mpishmem_node_barrier_t *b = route(routine, c);
    if (b != NULL)
        mpishmem_node_barrier_wait(b);
    else
        mpishmem_barrier_comm(mpishmem_rt.world);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void sync_comm(const char *routine, mpishmem_coll_comm_t *c)
{
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_coll(c->comm, -1, 0);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    mpishmem_node_barrier_t *b = route(routine, c);
    if (b != NULL)
        mpishmem_node_barrier_wait(b);
    else if (mpishmem_coll_blocking(c))
        mpishmem_coll_started(routine, "MPI_Barrier", MPI_Barrier(c->comm));
    else
        mpishmem_barrier_comm(c->comm); /* polled: messages, not MPI_Ibarrier */
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
