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

/* ---- Memory spaces: the routines proposal 001 defers (docs/spaces.md) ----
 * shmemx_get_space: the space ptr was allocated from (shmem_malloc memory
 * belongs to SHMEM_SPACE_DEFAULT).  0 on success; nonzero for NULL or for
 * memory that no allocation routine returned (global data, private memory).
 * shmemx_team_get_space: the space a team was made from: the space whose
 * team it is or descends from, SHMEM_SPACE_DEFAULT for teams descending
 * from SHMEM_TEAM_WORLD.  Nonzero for SHMEM_TEAM_INVALID and for teams
 * made from a user's communicator.
 * shmemx_space_ptr: like shmem_ptr, for dest in `space` on world PE pe: a
 * load/store address, or NULL when the space has no direct access (GPU),
 * pe's memory is not mapped here, or space is SHMEM_SPACE_INVALID. */
int shmemx_get_space(const void *ptr, shmem_space_t *space);
int shmemx_team_get_space(shmem_team_t team, shmem_space_t *space);
void *shmemx_space_ptr(shmem_space_t space, const void *dest, int pe);

#ifdef __cplusplus
}
#endif

#endif
