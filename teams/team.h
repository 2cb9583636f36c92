/*
 * mpishmem: team objects.  A team is a group of PEs backed by an MPI
 * communicator; team PE numbers are ranks in that communicator.
 *
 * Every live team (predefined or created) is on one registry list, so a
 * handle can be validated (shmem_team_is_valid, SHMEM_DEBUG checks) and
 * everything still live can be released at shmem_finalize.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_TEAM_H
#define MPISHMEM_TEAM_H

#include <stdint.h>
#include <mpi.h>
#include <shmem.h>
#include "../mpi_backend/runtime/runtime.h"
#include "../mpi_backend/runtime/slot_array.h"
#include "team_plan.h"

struct mpishmem_team {
    unsigned magic;      /* MPISHMEM_TEAM_MAGIC while the team is live */
    MPI_Comm comm;       /* MPI_COMM_NULL when the team is not set up */
    int my_pe;           /* rank of this PE in comm */
    int n_pes;
    mpishmem_pe_map_t map; /* team PE <-> world PE: computed for the world, a
                            * node of consecutive PEs and strided teams */
    int predefined;      /* WORLD, SHARED, space teams: never destroyed by the user */
    shmem_team_config_t config;
    long config_mask;
    struct mpishmem_team *parent;  /* team this one was split from, or NULL */
    int n_children;      /* live teams split from this one */
    int n_contexts;      /* live contexts created from this team */
    mpishmem_team_plan_t plan; /* its routes, decided when it is made (team_plan.h) */
    void *coll;          /* state owned by the collectives layer (lazily made) */
    void (*coll_free)(void *coll);
    /* Called when the team is released (spaces/ forgets a space team the
     * user destroyed). */
    void (*on_release)(struct mpishmem_team *team);
    void *owner;         /* for on_release: the space this team belongs to */
    struct mpishmem_team *prev_live, *next_live;
};

/* Build SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED (collective over the world). */
int mpishmem_teams_init(void);
/* Free every team still live, predefined ones last. */
void mpishmem_teams_finalize(void);

/* Make a team over `comm`, which the team takes over (freed on destroy).
 * parent may be NULL.  Collective over comm (every member calls it): the
 * team's plan is decided here (team_plan.h).  Returns NULL, on every
 * member alike, when out of memory on any; comm is then the caller's. */
shmem_team_t mpishmem_team_from_comm(MPI_Comm comm, shmem_team_t parent,
                                     const shmem_team_config_t *config, long config_mask);
/* Release a team made by mpishmem_team_from_comm (local). */
void mpishmem_team_release(shmem_team_t team);

/* Is `team` a live team handle?  O(number of live teams); debug paths and
 * shmem_team_is_valid only. */
int mpishmem_team_is_live(shmem_team_t team);

/* World PE number of team PE `pe`, or -1 if pe is not in the team. */
static inline int mpishmem_team_world_pe(shmem_team_t team, int pe)
{
    if ((unsigned)pe >= (unsigned)team->n_pes)
        return -1;
    return mpishmem_pe_map_world(&team->map, pe);
}

/* Team PE number of world PE `world`, or -1 if it is not a member: O(1)
 * for strided teams, O(log n) otherwise. */
static inline int mpishmem_team_pe_of_world(shmem_team_t team, int world)
{
    return mpishmem_pe_map_index(&team->map, world);
}

/* Handle validation without reading through a garbage pointer: every team
 * object except SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED lives in one array
 * of slots reserved at start-up (team.c), so a handle is valid when it is a
 * predefined one, or points at the start of a slot whose magic says live.
 * Catches handles never created and destroyed ones (a slot is reused only
 * after every other slot has been used, MPISHMEM_TEAM_SLOTS teams later). */
#define MPISHMEM_TEAM_MAGIC 0x7ea3c0deu
#define MPISHMEM_TEAM_SLOTS 65536
extern mpishmem_slot_array_t mpishmem_team_slots;

static inline int mpishmem_team_handle_ok(shmem_team_t team)
{
    if (team == SHMEM_TEAM_WORLD || team == SHMEM_TEAM_SHARED)
        return team->magic == MPISHMEM_TEAM_MAGIC;
    return mpishmem_slot_start(&mpishmem_team_slots, team, MPISHMEM_TEAM_SLOTS) &&
           team->magic == MPISHMEM_TEAM_MAGIC;
}

/* Stops with "mpishmem: <routine>: ..." (team_query.c). */
void mpishmem_fatal_team(const char *routine, shmem_team_t team)
    __attribute__((noreturn, cold));

/* Always on, a few compares: stop unless the library runs and `team` is a
 * live team handle (SHMEM_TEAM_INVALID included: callers that accept it
 * test for it first). */
static inline void mpishmem_check_team(const char *routine, shmem_team_t team)
{
    if (__builtin_expect(mpishmem_rt.state != MPISHMEM_RUNNING ||
                         !mpishmem_team_handle_ok(team), 0))
        mpishmem_fatal_team(routine, team);
}

#endif
