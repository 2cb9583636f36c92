/*
 * mpishmem: the predefined teams.
 *
 * SHMEM_TEAM_SHARED holds exactly the PEs whose symmetric heap this PE can
 * load and store, so it agrees with shmem_ptr: the node's PEs, or only this
 * PE when MPISHMEM_SHM=0.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include "team.h"
#include "../lib/runtime.h"

struct mpishmem_team mpishmem_team_world_object = {.comm = MPI_COMM_NULL};
struct mpishmem_team mpishmem_team_shared_object = {.comm = MPI_COMM_NULL};

static int team_setup(struct mpishmem_team *t, MPI_Comm comm)
{
    t->comm = comm;
    MPI_Comm_rank(comm, &t->my_pe);
    MPI_Comm_size(comm, &t->n_pes);
    t->world_pe = malloc((size_t)t->n_pes * sizeof *t->world_pe);
    if (t->world_pe == NULL)
        return MPI_ERR_NO_MEM;
    /* Ranks 0..n-1 of comm, translated to the world group. */
    int *ranks = malloc((size_t)t->n_pes * sizeof *ranks);
    if (ranks == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < t->n_pes; i++)
        ranks[i] = i;
    MPI_Group g, wg;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(mpishmem_rt.world, &wg);
    MPI_Group_translate_ranks(g, t->n_pes, ranks, wg, t->world_pe);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    free(ranks);
    return MPI_SUCCESS;
}

static void team_teardown(struct mpishmem_team *t)
{
    if (t->comm != MPI_COMM_NULL)
        MPI_Comm_free(&t->comm);
    free(t->world_pe);
    t->world_pe = NULL;
    t->n_pes = 0;
}

int mpishmem_teams_init(void)
{
    MPI_Comm world, shared;
    MPI_Comm_dup(mpishmem_rt.world, &world);
    if (mpishmem_rt.shm_enabled)
        MPI_Comm_dup(mpishmem_rt.node, &shared);
    else
        MPI_Comm_dup(MPI_COMM_SELF, &shared);
    int rc = team_setup(&mpishmem_team_world_object, world);
    if (rc == MPI_SUCCESS)
        rc = team_setup(&mpishmem_team_shared_object, shared);
    return rc;
}

void mpishmem_teams_finalize(void)
{
    team_teardown(&mpishmem_team_shared_object);
    team_teardown(&mpishmem_team_world_object);
}
