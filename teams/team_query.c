/*
 * mpishmem: team queries, PE translation and configuration.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "team.h"
#include "../mpi_backend/runtime/error.h"

void mpishmem_fatal_team(const char *routine, shmem_team_t team)
{
    mpishmem_check_running(routine);
    if (team == SHMEM_TEAM_INVALID)
        mpishmem_fatal(routine, "team is SHMEM_TEAM_INVALID");
    mpishmem_fatal(routine, "team handle %p is not a live team (destroyed, or never "
                   "created)", (void *)team);
}

int shmem_team_my_pe(shmem_team_t team)
{
    if (team != SHMEM_TEAM_INVALID)
        mpishmem_check_team("shmem_team_my_pe", team);
    return team == SHMEM_TEAM_INVALID ? -1 : team->my_pe;
}

int shmem_team_n_pes(shmem_team_t team)
{
    if (team != SHMEM_TEAM_INVALID)
        mpishmem_check_team("shmem_team_n_pes", team);
    return team == SHMEM_TEAM_INVALID ? -1 : team->n_pes;
}

int shmem_team_is_valid(shmem_team_t team)
{
    return team != SHMEM_TEAM_INVALID && mpishmem_rt.state == MPISHMEM_RUNNING &&
           mpishmem_team_is_live(team);
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)
{
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    mpishmem_check_team("shmem_team_get_config", team);
    if (MPISHMEM_DEBUG_ON) {
        if (config_mask & ~SHMEM_TEAM_NUM_CONTEXTS)
            mpishmem_fatal("shmem_team_get_config", "config_mask 0x%lx has unknown bits",
                           config_mask);
    }
    if (config == NULL)
        return config_mask == 0 ? 0 : -1;
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = team->config.num_contexts;
    return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
    if (src_team == SHMEM_TEAM_INVALID || dest_team == SHMEM_TEAM_INVALID)
        return -1;
    mpishmem_check_team("shmem_team_translate_pe", src_team);
    mpishmem_check_team("shmem_team_translate_pe", dest_team);
    int world = mpishmem_team_world_pe(src_team, src_pe);
    if (world < 0)
        return -1;
    if (dest_team == SHMEM_TEAM_WORLD)
        return world;
    return mpishmem_team_pe_of_world(dest_team, world);
}
