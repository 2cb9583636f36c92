/*
 * mpishmem: extensions beyond OpenSHMEM 1.6 (the shmemx_ prefix).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_SHMEMX_H
#define MPISHMEM_SHMEMX_H

#include <mpi.h>
#include <shmem.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- MPI interoperability (docs/teams.md) ---------------------------------
 * shmemx_team_get_mpi_comm: the communicator behind a team; its ranks are
 * the team's PE numbers.  It belongs to the team: use it for MPI calls on
 * the same group, but do not free it.  0 on success, nonzero for an
 * invalid team.
 * shmemx_team_create_from_comm: a new team over (a duplicate of) comm,
 * collective over comm; every member must be a PE of this job.  Destroy it
 * with shmem_team_destroy.  0 on success; nonzero (and SHMEM_TEAM_INVALID)
 * otherwise. */
int shmemx_team_get_mpi_comm(shmem_team_t team, MPI_Comm *comm);
int shmemx_team_create_from_comm(MPI_Comm comm, shmem_team_t *team);

#ifdef __cplusplus
}
#endif

#endif
