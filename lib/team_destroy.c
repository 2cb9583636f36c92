/*
 * mpishmem: shmem_team_destroy.  It lives above teams/ because a team's
 * shareable contexts (lib/context.c) die with it: this file orders the two
 * steps, so the teams layer never calls up into the contexts.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include "context.h"
#include "../mpi_backend/runtime/error.h"
#include "../teams/team.h"

void shmem_team_destroy(shmem_team_t team)
{
    if (team == SHMEM_TEAM_INVALID)
        return;
    mpishmem_check_team("shmem_team_destroy", team);
    if (team->predefined)
        mpishmem_fatal("shmem_team_destroy", "%s is a predefined team and cannot be destroyed",
                       team == SHMEM_TEAM_WORLD    ? "SHMEM_TEAM_WORLD"
                       : team == SHMEM_TEAM_SHARED ? "SHMEM_TEAM_SHARED"
                                                   : "the team");
    if (team->n_contexts > 0)
        mpishmem_ctx_release_team(team);
    mpishmem_team_release(team);
}
