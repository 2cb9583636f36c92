/*
 * mpishmem: a team's routes, its part of the plan of routes
 * (mpi_backend/runtime/route_plan.h).
 *
 * Decided once, when the team is made: in shmem_init for SHMEM_TEAM_WORLD
 * and SHMEM_TEAM_SHARED, in the split or creation call for the others, and
 * at the first call on an active set of the deprecated API, which is when
 * that set is made.  Each of those is collective over the members, and one
 * allreduce over them settles the plan from facts every member has then:
 * the plan's shm and barrier algorithm (MPISHMEM_SHM, MPISHMEM_BARRIER),
 * whether every member shares this node, and every member's waiting mode.
 * The collectives never choose again: the first barrier or small collective
 * only carries the plan out, mapping the flags when the plan names them
 * (allocation left lazy, so teams used only for addressing map nothing).
 * If that mapping fails, on any member, the team takes MPI's barrier on
 * every member alike: the fallback the plan names (docs/collectives.md).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_TEAM_PLAN_H
#define MPISHMEM_TEAM_PLAN_H

#include <stdio.h>
#include <mpi.h>
#include "../mpi_backend/runtime/pe_map.h"

/* Why a team's barrier is MPI's (0: it is not). */
enum mpishmem_team_why {
    MPISHMEM_TEAM_FLAGS = 0,
    MPISHMEM_TEAM_SHM_OFF,    /* MPISHMEM_SHM=0 */
    MPISHMEM_TEAM_SETTING,    /* MPISHMEM_BARRIER=mpi */
    MPISHMEM_TEAM_NODES,      /* a member is on another node */
    MPISHMEM_TEAM_DIFFER,     /* MPISHMEM_BARRIER differs between members */
    MPISHMEM_TEAM_UNMAPPED,   /* the flags could not be mapped at the first collective */
};

typedef struct mpishmem_team_plan {
    int barrier;   /* MPISHMEM_BARRIER_MPI, _CENTRAL or _DISSEMINATION (route_plan.h);
                    * small collectives go where the barrier goes */
    int why;       /* enum mpishmem_team_why */
    int may_block; /* MPI collectives: the blocking call (no member yields) or
                    * started and polled (mpishmem_coll_blocking) */
    int me, n;     /* this PE's rank, the members */
    const char *name;              /* a predefined team's name, or NULL */
    const mpishmem_pe_map_t *map;  /* the members, for the plan line */
} mpishmem_team_plan_t;

/* SHMEM_INFO: teams made after shmem_init print their plan line (from the
 * team's PE 0) as they are made.  Set by the plan in shmem_init. */
extern int mpishmem_team_plan_info;

/* Collective over comm, whose members are map's (in rank order): every
 * member calls it, with ok 0 where its team could not be made (map may
 * then be NULL).  Fills tp and returns whether ok is 1 on every member. */
int mpishmem_team_plan_decide(MPI_Comm comm, const mpishmem_pe_map_t *map, int ok,
                              mpishmem_team_plan_t *tp);

/* The flags tp names could not be mapped (every member alike): MPI's
 * barrier from now on, printed under SHMEM_INFO. */
void mpishmem_team_plan_unmapped(mpishmem_team_plan_t *tp);

/* "mpishmem: plan: team 'NAME': barrier = ..., small collectives = ...,
 * mpi collectives = ..., pes = N"; NAME is tp->name, or the members'
 * world PEs. */
void mpishmem_team_plan_line(FILE *out, const mpishmem_team_plan_t *tp);

/* The lines of SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED (after the plan's). */
void mpishmem_teams_plan_print(FILE *out);

#endif
