/*
 * mpishmem: team objects and their registry.
 *
 * SHMEM_TEAM_SHARED holds exactly the PEs whose symmetric heap this PE can
 * load and store, so it agrees with shmem_ptr: the node's PEs, or only this
 * PE when MPISHMEM_SHM=0.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "team.h"
#include "../mpi_backend/runtime/runtime.h"
#include "../mpi_backend/progress/progress.h"
#include "../mpi_backend/runtime/error.h"

struct mpishmem_team mpishmem_team_world_object = {.comm = MPI_COMM_NULL};
struct mpishmem_team mpishmem_team_shared_object = {.comm = MPI_COMM_NULL};

static int team_in_use(const void *slot)
{
    return ((const struct mpishmem_team *)slot)->magic == MPISHMEM_TEAM_MAGIC;
}

/* Every created team object is a slot of this array (slot_array.h, team.h). */
mpishmem_slot_array_t mpishmem_team_slots = {
    .elem = sizeof(struct mpishmem_team), .count = MPISHMEM_TEAM_SLOTS, .in_use = team_in_use};
/* Threads may create and destroy teams at once (SHMEM_THREAD_MULTIPLE). */
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;

static struct mpishmem_team *slot_take(void)
{
    pthread_mutex_lock(&slot_lock);
    struct mpishmem_team *t = mpishmem_slot_take(&mpishmem_team_slots);
    pthread_mutex_unlock(&slot_lock);
    return t;
}

static void slot_give(struct mpishmem_team *t)
{
    pthread_mutex_lock(&slot_lock);
    memset(t, 0, sizeof *t);
    pthread_mutex_unlock(&slot_lock);
}

/* Live teams, newest first.  Team creation is rare and collective, so a
 * list is enough; validation walks it only in debug and is_valid paths.
 * Under SHMEM_THREAD_MULTIPLE threads may create, destroy and validate
 * teams at once: the list and the parents' child counts are guarded by
 * registry_lock, which no data path takes. */
static struct mpishmem_team *live_head;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

static void registry_add(struct mpishmem_team *t)
{
    t->prev_live = NULL;
    t->next_live = live_head;
    if (live_head)
        live_head->prev_live = t;
    live_head = t;
}

static void registry_remove(struct mpishmem_team *t)
{
    if (t->prev_live)
        t->prev_live->next_live = t->next_live;
    else if (live_head == t)
        live_head = t->next_live;
    if (t->next_live)
        t->next_live->prev_live = t->prev_live;
    t->prev_live = t->next_live = NULL;
}

int mpishmem_team_is_live(shmem_team_t team)
{
    int found = 0;
    pthread_mutex_lock(&registry_lock);
    for (struct mpishmem_team *t = live_head; t && !found; t = t->next_live)
        found = t == team;
    pthread_mutex_unlock(&registry_lock);
    return found;
}

/* Fill my_pe, n_pes and the PE map of t from t->comm. */
static int team_setup(struct mpishmem_team *t, MPI_Comm comm)
{
    t->comm = comm;
    MPISHMEM_MPI(MPI_Comm_rank(comm, &t->my_pe));
    MPISHMEM_MPI(MPI_Comm_size(comm, &t->n_pes));
    return mpishmem_pe_map_of_comm(&t->map, comm) == 0 ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

static void team_teardown(struct mpishmem_team *t)
{
    if (t->coll && t->coll_free)
        t->coll_free(t->coll);
    t->coll = NULL;
    if (t->comm != MPI_COMM_NULL)
        MPISHMEM_MPI(MPI_Comm_free(&t->comm));
    mpishmem_pe_map_free(&t->map);
    t->n_pes = 0;
}

/* The plan of t (collective over comm, ok 0 where t could not be made):
 * whether every member made its team. */
static int team_plan(struct mpishmem_team *t, MPI_Comm comm, int ok, const char *name)
{
    mpishmem_team_plan_t plan;
    int all = mpishmem_team_plan_decide(comm, ok ? &t->map : NULL, ok, &plan);
    if (!all)
        return 0;
    plan.name = name;
    t->plan = plan;
    return 1;
}

shmem_team_t mpishmem_team_from_comm(MPI_Comm comm, shmem_team_t parent,
                                     const shmem_team_config_t *config, long config_mask)
{
    struct mpishmem_team *t = slot_take();
    int ok = t != NULL && team_setup(t, comm) == MPI_SUCCESS;
    if (!team_plan(t, comm, ok, NULL)) {
        if (t != NULL) {
            t->comm = MPI_COMM_NULL; /* the caller's again */
            team_teardown(t);
            slot_give(t);
        }
        return NULL;
    }
    t->magic = MPISHMEM_TEAM_MAGIC;
    if (config != NULL && (config_mask & SHMEM_TEAM_NUM_CONTEXTS)) {
        t->config.num_contexts = config->num_contexts;
        t->config_mask |= SHMEM_TEAM_NUM_CONTEXTS;
    }
    pthread_mutex_lock(&registry_lock);
    t->parent = parent;
    if (parent)
        parent->n_children++;
    registry_add(t);
    pthread_mutex_unlock(&registry_lock);
    /* Teams the program makes; the predefined ones print with the plan. */
    if (mpishmem_team_plan_info && t->my_pe == 0 && mpishmem_rt.state == MPISHMEM_RUNNING) {
        mpishmem_team_plan_line(stdout, &t->plan);
        fflush(stdout);
    }
    return t;
}

void mpishmem_team_release(shmem_team_t team)
{
    if (team->on_release)
        team->on_release(team);
    pthread_mutex_lock(&registry_lock);
    registry_remove(team);
    /* Its children now descend from its parent, so a space team still
     * counts every team made from it, however indirectly. */
    for (struct mpishmem_team *t = live_head; t; t = t->next_live)
        if (t->parent == team) {
            t->parent = team->parent;
            team->n_children--;
            if (team->parent)
                team->parent->n_children++;
        }
    if (team->parent)
        team->parent->n_children--;
    pthread_mutex_unlock(&registry_lock);
    team_teardown(team);
    slot_give(team); /* clears the magic: the handle is invalid from now on */
}

int mpishmem_teams_init(void)
{
    MPI_Comm world, shared;
    mpishmem_comm_dup(mpishmem_rt.world, &world);
    if (mpishmem_rt.shm_enabled)
        mpishmem_comm_dup(mpishmem_rt.node, &shared);
    else {
        MPISHMEM_MPI(MPI_Comm_dup(MPI_COMM_SELF, &shared));
        MPISHMEM_MPI(MPI_Comm_set_errhandler(shared, MPI_ERRORS_RETURN)); /* not SELF's */
    }
    live_head = NULL;
    int rc = team_setup(&mpishmem_team_world_object, world);
    if (rc == MPI_SUCCESS)
        rc = team_setup(&mpishmem_team_shared_object, shared);
    /* Their plans: collective over the world, then over each node's team. */
    int ok = team_plan(&mpishmem_team_world_object, world, rc == MPI_SUCCESS,
                       "SHMEM_TEAM_WORLD");
    if (!team_plan(&mpishmem_team_shared_object, shared, ok, "SHMEM_TEAM_SHARED") && rc == 0)
        rc = MPI_ERR_NO_MEM;
    mpishmem_team_world_object.magic = MPISHMEM_TEAM_MAGIC;
    mpishmem_team_shared_object.magic = MPISHMEM_TEAM_MAGIC;
    mpishmem_team_world_object.predefined = 1;
    mpishmem_team_shared_object.predefined = 1;
    mpishmem_team_shared_object.parent = &mpishmem_team_world_object;
    registry_add(&mpishmem_team_world_object);
    registry_add(&mpishmem_team_shared_object);
    return rc;
}

void mpishmem_teams_finalize(void)
{
    /* Teams the user did not destroy, and the predefined space teams:
     * children before parents (newest first is a valid order, since a
     * parent is older than its child). */
    struct mpishmem_team *t = live_head;
    while (t) {
        struct mpishmem_team *next = t->next_live;
        if (t != &mpishmem_team_world_object && t != &mpishmem_team_shared_object)
            mpishmem_team_release(t);
        t = next;
    }
    registry_remove(&mpishmem_team_shared_object);
    registry_remove(&mpishmem_team_world_object);
    team_teardown(&mpishmem_team_shared_object);
    team_teardown(&mpishmem_team_world_object);
    mpishmem_team_world_object.magic = mpishmem_team_shared_object.magic = 0;
    live_head = NULL;
}

/* Here, not in team_plan.c, which knows no team object. */
void mpishmem_teams_plan_print(FILE *out)
{
    mpishmem_team_plan_line(out, &mpishmem_team_world_object.plan);
    mpishmem_team_plan_line(out, &mpishmem_team_shared_object.plan);
}
