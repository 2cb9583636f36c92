/*
 * mpishmem: what every collective shares: a team's collective state,
 * starting and waiting for MPI collectives, private source copies.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "../../mpi_backend/progress/node_barrier.h"
#include "../../mpi_backend/progress/progress.h"
#include "../../teams/team.h"
#include "../../mpi_backend/runtime/error.h"

static void team_state_free(void *p)
{
    mpishmem_coll_comm_t *c = p;
    mpishmem_coll_sync_free(c);
    free(c->counts);
    free(c->displs);
    free(c->world);
    free(c);
}

/* Made on a team's first collective (local: the team's plan, decided when
 * it was made, holds every choice); the team frees it when it dies.  It
 * borrows the team's communicator: collectives and splits are matched in
 * call order on it, which the spec requires to be the same on every PE. */
static mpishmem_coll_comm_t *team_state_make(const char *routine, shmem_team_t team)
{
    mpishmem_coll_comm_t *c = calloc(1, sizeof *c);
    if (c == NULL)
        mpishmem_fatal(routine, "out of memory for the team's collective state");
    c->comm = team->comm;
    c->me = team->my_pe;
    c->n = team->n_pes;
    c->plan = &team->plan;
    c->may_block = team->plan.may_block;
    team->coll_free = team_state_free;
    /* Published with release, read with acquire: a thread that runs the
     * team's next collective (ordered after this one, as the spec requires
     * of one team's collectives) sees the state complete. */
    __atomic_store_n(&team->coll, c, __ATOMIC_RELEASE);
    return c;
}

mpishmem_coll_comm_t *mpishmem_coll_team(const char *routine, shmem_team_t team)
{
    mpishmem_check_running(routine);
    if (team == SHMEM_TEAM_INVALID)
        return NULL;
    mpishmem_check_team(routine, team);
    mpishmem_coll_comm_t *c = __atomic_load_n(&team->coll, __ATOMIC_ACQUIRE);
    if (MPISHMEM_LIKELY(c != NULL))
        return c;
    return team_state_make(routine, team);
}

void mpishmem_coll_mpi_fail(const char *routine, const char *call, int rc)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", rc);
    mpishmem_fatal(routine, "%s failed: %s", call, text);
}

const void *mpishmem_coll_copy_source(const char *routine, const void *source, size_t len,
                                      void **tmp)
{
    *tmp = malloc(len);
    if (*tmp == NULL)
        mpishmem_fatal(routine, "out of memory for a %zu-byte copy of source, which "
                       "overlaps dest", len);
    mpishmem_gpu_copy(*tmp, source, len); /* source may be device memory */
    return *tmp;
}

/* Here, beside the team state that uses it, so that this file calls no
 * other collective file (active_set.c and sync.c call this one). */
void mpishmem_coll_sync_free(mpishmem_coll_comm_t *c)
{
    mpishmem_node_barrier_free(c->shm_barrier);
    c->shm_barrier = NULL;
    c->barrier_ready = 0;
}
