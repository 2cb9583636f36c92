/*
 * mpishmem: communication contexts and sessions.
 *
 * The default context addresses world PEs on lane 0.  A created context
 * takes the least-used extra lane (MPISHMEM_CTX_LANES of them, see
 * mpi_backend/memory/segment.h), so its quiet flushes only its own window handle:
 * threads with private contexts complete independently.  When there are
 * more contexts than lanes, contexts share lanes: still correct, but a
 * quiet may then also wait for a lane-mate's transfers.  Creation fails
 * (nonzero, no crash) only when every context slot is live (262144 of
 * them, lane_ctx.h) or a team's SHMEM_TEAM_NUM_CONTEXTS budget is used up.
 *
 * Handles are checked always, as team handles are: destroying a context
 * twice, or passing a destroyed or made-up one, stops the job naming the
 * routine (lane_ctx.h says how, at no cost to transfers).
 *
 * Contexts are on a registry (for team destruction and finalize); it, the
 * slots and the lane counts are the only shared state, guarded by one
 * mutex that the data path never takes.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>
#include "context.h"
#include "../mpi_backend/runtime/error.h"
#include "../mpi_backend/runtime/runtime.h"
#include "../mpi_backend/progress/progress.h"
#include "../mpi_backend/memory/segment.h"
#include "../teams/team.h"

/* Live created contexts, newest first.  Contexts live in slots
 * (mpishmem_ctx_slot_take, lane_ctx.h) so that a destroyed or garbage
 * handle is reported, never read through freed memory. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mpishmem_ctx *live;
static int lane_users[MPISHMEM_MAX_LANES];

/* Make a context for `team` (NULL: world numbering).  0 or nonzero. */
static int ctx_new(const char *routine, shmem_team_t team, long options, shmem_ctx_t *out)
{
    const long known = SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE;
    if (options & ~known) {
        if (MPISHMEM_DEBUG_ON)
            mpishmem_fatal(routine, "options 0x%lx has unknown bits", options);
        return -1;
    }
    pthread_mutex_lock(&registry_lock);
    struct mpishmem_ctx *c = NULL;
    if (!(team && (team->config_mask & SHMEM_TEAM_NUM_CONTEXTS) &&
          team->n_contexts >= team->config.num_contexts))
        c = mpishmem_ctx_slot_take();
    if (c == NULL) {
        pthread_mutex_unlock(&registry_lock);
        return -1;
    }
    c->options = options;
    c->owner = pthread_self();
    c->session_total_ops = SIZE_MAX;
    c->team = team ? team : SHMEM_TEAM_WORLD;
    c->from_team = team != NULL;
    if (team && team != SHMEM_TEAM_WORLD) {
        c->pe_map = &team->map;
        c->n_pes = team->n_pes;
    }
    /* The least-used extra lane; lane 0 when there are none. */
    int best = 0;
    for (int k = 1; k <= mpishmem_rt.ctx_lanes; k++)
        if (best == 0 || lane_users[k] < lane_users[best])
            best = k;
    c->lane = best;
    lane_users[best]++;
    c->team->n_contexts++;
    c->next_live = live;
    if (live)
        live->prev_live = c;
    live = c;
    c->magic = MPISHMEM_CTX_MAGIC; /* last: the slot is not reused under us */
    pthread_mutex_unlock(&registry_lock);
    *out = c;
    return 0;
}

static void ctx_free(shmem_ctx_t ctx)
{
    mpishmem_ctx_complete(ctx);
    struct mpishmem_batch *batch = ctx->batch;
    pthread_mutex_lock(&registry_lock);
    if (ctx->prev_live)
        ctx->prev_live->next_live = ctx->next_live;
    else
        live = ctx->next_live;
    if (ctx->next_live)
        ctx->next_live->prev_live = ctx->prev_live;
    lane_users[ctx->lane]--;
    ctx->team->n_contexts--;
    mpishmem_ctx_slot_retire(ctx); /* later use is reported, not undefined */
    pthread_mutex_unlock(&registry_lock);
    free(batch);
}

int shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    mpishmem_check_running("shmem_ctx_create");
    if (ctx == NULL)
        return -1;
    return ctx_new("shmem_ctx_create", NULL, options, ctx); /* failure: *ctx untouched */
}

/* Not collective (OpenSHMEM 1.6): PEs create contexts on a team when they
 * like, or never.  The team's SHMEM_TEAM_NUM_CONTEXTS budget counts this
 * PE's live contexts on the team (docs/contexts.md). */
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    static const char routine[] = "shmem_team_create_ctx";
    mpishmem_check_running(routine);
    if (ctx == NULL) {
        if (MPISHMEM_DEBUG_ON)
            mpishmem_fatal(routine, "ctx is NULL");
        return -1;
    }
    *ctx = SHMEM_CTX_INVALID;
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    mpishmem_check_team(routine, team);
    return ctx_new(routine, team, options, ctx);
}

void shmem_ctx_destroy(shmem_ctx_t ctx)
{
    static const char routine[] = "shmem_ctx_destroy";
    if (ctx == SHMEM_CTX_INVALID)
        return;
    mpishmem_check_running(routine);
    if (ctx == SHMEM_CTX_DEFAULT)
        mpishmem_fatal(routine, "SHMEM_CTX_DEFAULT cannot be destroyed");
    if (MPISHMEM_DEBUG_ON)
        mpishmem_check_ctx(routine, ctx);
    /* Always, with the registry lock: two threads destroying one context
     * must not both get past the check. */
    pthread_mutex_lock(&registry_lock);
    int ok = mpishmem_ctx_handle_ok(ctx);
    if (ok)
        ctx->magic = MPISHMEM_CTX_DYING; /* claimed: ctx_free retires it */
    pthread_mutex_unlock(&registry_lock);
    if (!ok)
        mpishmem_fatal_ctx(routine, ctx);
    ctx_free(ctx);
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
    if (team == NULL)
        return -1;
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    mpishmem_check_ctx_handle("shmem_ctx_get_team", ctx);
    if (MPISHMEM_DEBUG_ON)
        mpishmem_check_ctx("shmem_ctx_get_team", ctx);
    *team = ctx == SHMEM_CTX_DEFAULT ? SHMEM_TEAM_WORLD : ctx->team;
    return 0;
}

void shmem_ctx_session_start(shmem_ctx_t ctx, long options,
                             const shmem_ctx_session_config_t *config, long config_mask)
{
    static const char routine[] = "shmem_ctx_session_start";
    if (ctx == SHMEM_CTX_INVALID)
        return;
    mpishmem_check_ctx_handle(routine, ctx);
    if (MPISHMEM_DEBUG_ON) {
        mpishmem_check_running(routine);
        mpishmem_check_ctx(routine, ctx);
        if (options & ~(SHMEM_CTX_SESSION_BATCH | SHMEM_CTX_SESSION_SAME_AMO))
            mpishmem_fatal(routine, "options 0x%lx has unknown bits", options);
        if (config_mask & ~SHMEM_CTX_SESSION_TOTAL_OPS)
            mpishmem_fatal(routine, "config_mask 0x%lx has unknown bits", config_mask);
    }
    ctx->session_options |= options;
    if (config && (config_mask & SHMEM_CTX_SESSION_TOTAL_OPS))
        ctx->session_total_ops = config->total_ops;
    /* Batching stages puts in a per-context buffer, so only a context one
     * thread at a time uses may batch. */
    int single_user = (ctx->options & (SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED)) ||
                      mpishmem_rt.thread_level != SHMEM_THREAD_MULTIPLE;
    if ((ctx->session_options & SHMEM_CTX_SESSION_BATCH) && single_user && !ctx->batch) {
        ctx->batch = malloc(sizeof *ctx->batch);
        if (ctx->batch)
            ctx->batch->used = 0;
    }
}

void shmem_ctx_session_stop(shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_INVALID)
        return;
    mpishmem_check_ctx_handle("shmem_ctx_session_stop", ctx);
    if (MPISHMEM_DEBUG_ON) {
        mpishmem_check_running("shmem_ctx_session_stop");
        mpishmem_check_ctx("shmem_ctx_session_stop", ctx);
    }
    if (ctx->batch) {
        /* Staged sources must be complete before the buffer goes away. */
        mpishmem_ctx_complete(ctx);
        free(ctx->batch);
        ctx->batch = NULL;
    }
    ctx->session_options = 0;
    ctx->session_total_ops = SIZE_MAX;
}

void mpishmem_ctx_release_team(shmem_team_t team)
{
    /* Shareable contexts of a dying team die with it; a private one must
     * be destroyed by its thread first. */
    pthread_mutex_lock(&registry_lock);
    struct mpishmem_ctx *c = live;
    pthread_mutex_unlock(&registry_lock);
    while (c) {
        struct mpishmem_ctx *next = c->next_live;
        if (c->team == team) {
            if (c->options & SHMEM_CTX_PRIVATE)
                mpishmem_fatal("shmem_team_destroy", "a SHMEM_CTX_PRIVATE context created from "
                               "this team is still live; its thread must destroy it first");
            ctx_free(c);
        }
        c = next;
    }
}

void mpishmem_contexts_finalize(void)
{
    while (live)
        ctx_free(live);
    if (mpishmem_ctx_default_object.batch) {
        free(mpishmem_ctx_default_object.batch);
        mpishmem_ctx_default_object.batch = NULL;
    }
    mpishmem_ctx_default_object.session_options = 0;
}
