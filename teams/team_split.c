/*
 * mpishmem: team creation by splitting (strided and 2D) and from a user's
 * MPI communicator (shmemx).
 *
 * Every split is one MPI_Comm_split over the parent's communicator; the
 * key orders the new team as the spec numbers it.  Validity depends only on
 * arguments every PE passes identically, so all PEs agree on the outcome
 * without extra communication; SHMEM_DEBUG checks that they did pass the
 * same arguments.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmemx.h>
#include "team.h"
#include "../mpi_backend/runtime/error.h"
#include "../mpi_backend/progress/progress.h"

/* SHMEM_DEBUG: every PE of comm passed the same `n` ints. */
static void check_same_args(const char *routine, MPI_Comm comm, const int *v, int n)
{
    int mine[8], lo[8], hi[8];
    for (int i = 0; i < n; i++)
        mine[i] = v[i];
    mpishmem_allreduce(mine, lo, n, MPI_INT, MPI_MIN, comm);
    mpishmem_allreduce(mine, hi, n, MPI_INT, MPI_MAX, comm);
    for (int i = 0; i < n; i++)
        if (lo[i] != hi[i])
            mpishmem_fatal(routine, "PEs of the parent team passed different arguments "
                           "(argument %d ranges from %d to %d)", i + 2, lo[i], hi[i]);
}

static int check_config(const char *routine, const shmem_team_config_t *config, long mask)
{
    if (mask & ~SHMEM_TEAM_NUM_CONTEXTS) {
        if (MPISHMEM_DEBUG_ON)
            mpishmem_fatal(routine, "config_mask 0x%lx has unknown bits", mask);
        return -1;
    }
    if ((mask & SHMEM_TEAM_NUM_CONTEXTS) && (config == NULL || config->num_contexts < 0)) {
        if (MPISHMEM_DEBUG_ON)
            mpishmem_fatal(routine, config == NULL ? "config_mask asks for num_contexts but "
                                                     "config is NULL"
                                                   : "num_contexts is negative");
        return -1;
    }
    return 0;
}

/* Split parent: this PE joins the team `color` (MPI_UNDEFINED: none) at
 * position `key`.  *out is the new team or SHMEM_TEAM_INVALID. */
static int split(shmem_team_t parent, int color, int key, const shmem_team_config_t *config,
                 long mask, shmem_team_t *out)
{
    MPI_Comm comm;
    *out = SHMEM_TEAM_INVALID;
    mpishmem_meet_before_blocking(parent->comm);
    if (MPI_Comm_split(parent->comm, color, key, &comm) != MPI_SUCCESS)
        return -1;
    if (comm == MPI_COMM_NULL)
        return 0;
    *out = mpishmem_team_from_comm(comm, parent, config, mask);
    if (*out == NULL) {
        MPISHMEM_MPI(MPI_Comm_free(&comm));
        *out = SHMEM_TEAM_INVALID;
        return -1;
    }
    return 0;
}

int shmem_team_split_strided(shmem_team_t parent, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team)
{
    static const char routine[] = "shmem_team_split_strided";
    *new_team = SHMEM_TEAM_INVALID;
    if (parent == SHMEM_TEAM_INVALID)
        return -1;
    mpishmem_check_team(routine, parent);
    if (MPISHMEM_DEBUG_ON) {
        int args[3] = {start, stride, size};
        check_same_args(routine, parent->comm, args, 3);
    }
    /* Valid triplet: size >= 1, every member in [0, N), stride 0 only with
     * size 1; a negative stride lists the PEs in decreasing order. */
    long long last = (long long)start + (long long)stride * (size - 1);
    int n = parent->n_pes;
    int valid = size >= 1 && start >= 0 && start < n && last >= 0 && last < n &&
                (stride != 0 || size == 1) && check_config(routine, config, config_mask) == 0;
    if (!valid) {
        if (MPISHMEM_DEBUG_ON)
            mpishmem_fatal(routine, "invalid PE triplet (start %d, stride %d, size %d) for a "
                           "parent team of %d PEs", start, stride, size, n);
        return -1;
    }
    int me = parent->my_pe, color = MPI_UNDEFINED, key = 0;
    long long d = (long long)me - start;
    if (stride == 0 ? d == 0 : (d % stride == 0 && d / stride >= 0 && d / stride < size)) {
        color = 0;
        key = stride == 0 ? 0 : (int)(d / stride);
    }
    return split(parent, color, key, config, config_mask, new_team);
}

int shmem_team_split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t *xconfig,
                        long xmask, shmem_team_t *xteam, const shmem_team_config_t *yconfig,
                        long ymask, shmem_team_t *yteam)
{
    static const char routine[] = "shmem_team_split_2d";
    *xteam = *yteam = SHMEM_TEAM_INVALID;
    if (parent == SHMEM_TEAM_INVALID)
        return -1;
    mpishmem_check_team(routine, parent);
    if (MPISHMEM_DEBUG_ON) {
        check_same_args(routine, parent->comm, &xrange, 1);
    }
    if (xrange <= 0) {
        if (MPISHMEM_DEBUG_ON)
            mpishmem_fatal(routine, "xrange must be positive (got %d)", xrange);
        return -1;
    }
    /* A bad config on some PEs must fail everywhere: agree on it. */
    int ok = check_config(routine, xconfig, xmask) == 0 && check_config(routine, yconfig, ymask) == 0;
    int all_ok;
    mpishmem_allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, parent->comm);
    if (!all_ok)
        return -1;
    int me = parent->my_pe;
    int rx = split(parent, me / xrange, me % xrange, xconfig, xmask, xteam);
    int ry = split(parent, me % xrange, me / xrange, yconfig, ymask, yteam);
    return rx != 0 || ry != 0 ? -1 : 0;
}

int shmemx_team_get_mpi_comm(shmem_team_t team, MPI_Comm *comm)
{
    if (team == SHMEM_TEAM_INVALID || comm == NULL)
        return -1;
    mpishmem_check_team("shmemx_team_get_mpi_comm", team);
    *comm = team->comm;
    return 0;
}

int shmemx_team_create_from_comm(MPI_Comm comm, shmem_team_t *team)
{
    static const char routine[] = "shmemx_team_create_from_comm";
    mpishmem_check_running(routine);
    *team = SHMEM_TEAM_INVALID;
    if (comm == MPI_COMM_NULL)
        return -1;
    int inter = 0;
    MPISHMEM_MPI(MPI_Comm_test_inter(comm, &inter));
    if (inter)
        mpishmem_fatal(routine, "an intercommunicator cannot back a team");
    /* Every member must be a PE of this job: translate to the world. */
    MPI_Group g, wg;
    MPISHMEM_MPI(MPI_Comm_group(comm, &g));
    MPISHMEM_MPI(MPI_Comm_group(mpishmem_rt.world, &wg));
    int me_in_comm, me_in_world;
    MPISHMEM_MPI(MPI_Comm_rank(comm, &me_in_comm));
    MPISHMEM_MPI(MPI_Group_translate_ranks(g, 1, &me_in_comm, wg, &me_in_world));
    MPISHMEM_MPI(MPI_Group_free(&g));
    MPISHMEM_MPI(MPI_Group_free(&wg));
    int ok = me_in_world != MPI_UNDEFINED, all_ok;
    mpishmem_allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, comm);
    if (!all_ok)
        return -1;
    MPI_Comm dup;
    if (mpishmem_comm_dup(comm, &dup) != MPI_SUCCESS)
        return -1;
    *team = mpishmem_team_from_comm(dup, NULL, NULL, 0);
    if (*team == NULL) {
        MPISHMEM_MPI(MPI_Comm_free(&dup));
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    return 0;
}
