/*
 * mpishmem: a team's routes, decided when it is made (team_plan.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>
#include "team_plan.h"
#include "../mpi_backend/runtime/error.h"
#include "../mpi_backend/progress/progress.h"
#include "../mpi_backend/runtime/route_plan.h"
#include "../mpi_backend/runtime/runtime.h"

int mpishmem_team_plan_info;

/* Every member of map shares this PE's node (local: the node's PE map). */
static int all_on_node(const mpishmem_pe_map_t *map)
{
    if (map == NULL || map->n > mpishmem_rt.node_size)
        return 0;
    for (int i = 0; i < map->n; i++)
        if (mpishmem_node_rank_of(mpishmem_pe_map_world(map, i)) < 0)
            return 0;
    return 1;
}

int mpishmem_team_plan_decide(MPI_Comm comm, const mpishmem_pe_map_t *map, int ok,
                              mpishmem_team_plan_t *tp)
{
    /* The algorithm of the plan (MPISHMEM_BARRIER, made final in
     * shmem_init); a member whose setting differs would wait on flags no
     * one raises, so its minimum and maximum are agreed on too.  One
     * allreduce: the maximum is minus the minimum of the negatives. */
    int algo = mpishmem_plan.barrier;
    int mine[5] = {ok, ok && !mpishmem_rt.yield, ok && all_on_node(map), algo, -algo};
    int all[5];
    mpishmem_allreduce(mine, all, 5, MPI_INT, MPI_MIN, comm);
    memset(tp, 0, sizeof *tp);
    MPISHMEM_MPI(MPI_Comm_rank(comm, &tp->me));
    MPISHMEM_MPI(MPI_Comm_size(comm, &tp->n));
    tp->map = map;
    /* Blocking MPI collectives only where no member yields its core:
     * MPI never matches a blocking collective with a non-blocking one. */
    tp->may_block = all[1];
    tp->why = !mpishmem_plan.shm         ? MPISHMEM_TEAM_SHM_OFF
              : all[3] != -all[4]        ? MPISHMEM_TEAM_DIFFER
              : algo == MPISHMEM_BARRIER_MPI ? MPISHMEM_TEAM_SETTING
              : !all[2]                  ? MPISHMEM_TEAM_NODES
                                         : MPISHMEM_TEAM_FLAGS;
    tp->barrier = tp->why == MPISHMEM_TEAM_FLAGS ? algo : MPISHMEM_BARRIER_MPI;
    return all[0];
}

void mpishmem_team_plan_unmapped(mpishmem_team_plan_t *tp)
{
    tp->barrier = MPISHMEM_BARRIER_MPI;
    tp->why = MPISHMEM_TEAM_UNMAPPED;
    if (mpishmem_team_plan_info && tp->me == 0) {
        mpishmem_team_plan_line(stdout, tp);
        fflush(stdout);
    }
}

/* The members as world PEs: "world PE 3", "world PEs 0..6 step 2",
 * "world PEs 0, 3, 5" (the first few, then how many). */
static void members(char *buf, size_t len, const mpishmem_pe_map_t *m)
{
    if (m == NULL || m->n < 1) {
        snprintf(buf, len, "?");
    } else if (m->n == 1) {
        snprintf(buf, len, "world PE %d", mpishmem_pe_map_world(m, 0));
    } else if (m->world == NULL) {
        int last = mpishmem_pe_map_world(m, m->n - 1);
        if (m->stride == 1)
            snprintf(buf, len, "world PEs %d..%d", m->start, last);
        else
            snprintf(buf, len, "world PEs %d..%d step %d", m->start, last, m->stride);
    } else {
        size_t at = (size_t)snprintf(buf, len, "world PEs");
        for (int i = 0; i < m->n && i < 6 && at < len; i++)
            at += (size_t)snprintf(buf + at, len - at, "%s %d", i ? "," : "", m->world[i]);
        if (m->n > 6 && at < len)
            snprintf(buf + at, len - at, ", ... (%d)", m->n);
    }
}

void mpishmem_team_plan_line(FILE *out, const mpishmem_team_plan_t *tp)
{
    static const char *const why[] = {"", " (MPISHMEM_SHM=0)", " (MPISHMEM_BARRIER=mpi)",
                                      " (members on several nodes)",
                                      " (MPISHMEM_BARRIER differs between members)",
                                      " (the flags could not be mapped)"};
    char name[128];
    if (tp->name != NULL)
        snprintf(name, sizeof name, "%s", tp->name);
    else
        members(name, sizeof name, tp->map);
    int flags = tp->barrier != MPISHMEM_BARRIER_MPI;
    fprintf(out, "mpishmem: plan: team '%s': barrier = %s%s, small collectives = %s, "
                 "mpi collectives = %s, pes = %d\n",
            name, mpishmem_barrier_name(tp->barrier),
            tp->why >= 0 && tp->why <= MPISHMEM_TEAM_UNMAPPED ? why[tp->why] : "",
            flags && tp->n > 1 ? "node slots" : "mpi", tp->may_block ? "blocking" : "polled",
            tp->n);
}
