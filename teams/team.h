/*
 * mpishmem: team objects.  A team is a group of PEs backed by an MPI
 * communicator; team PE numbers are ranks in that communicator.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_TEAM_H
#define MPISHMEM_TEAM_H

#include <mpi.h>
#include <shmem.h>

struct mpishmem_team {
    MPI_Comm comm;       /* MPI_COMM_NULL when the team is not set up */
    int my_pe;           /* rank of this PE in comm */
    int n_pes;
    int *world_pe;       /* [n_pes] team PE -> world PE */
};

/* Build SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED (collective over the world). */
int mpishmem_teams_init(void);
void mpishmem_teams_finalize(void);

/* World PE number of team PE `pe`, or -1 if pe is not in the team. */
static inline int mpishmem_team_world_pe(shmem_team_t team, int pe)
{
    if ((unsigned)pe >= (unsigned)team->n_pes)
        return -1;
    return team->world_pe[pe];
}

#endif
