/*
 * mpishmem: the context object as the data path sees it.
 *
 * A context carries the team its PE numbers are relative to (pe_map is
 * that team's team -> world table, NULL for the world) and the lane it
 * issues MPI operations on (segment.h): lane 0 for the default context,
 * one of the extra lanes for created contexts, so that quiet on one
 * context does not wait for another's transfers.  The data path
 * (rma_path.h, amo_path.h) reads it here; creating, destroying and
 * querying contexts is the API's job (lib/context.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_LANE_CTX_H
#define MPISHMEM_LANE_CTX_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <shmem.h>
#include "segment.h"
#include "slot_array.h"

#define MPISHMEM_CTX_MAGIC 0x6374784cu      /* "ctxL": a live context */
#define MPISHMEM_CTX_DEAD 0xdeadc7c7u       /* destroyed: its slot awaits reuse */
#define MPISHMEM_CTX_DYING 0xd1e5c7c7u      /* being destroyed */

struct mpishmem_ctx {
    unsigned magic;      /* MPISHMEM_CTX_MAGIC while live */
    int lane;            /* lane of every segment this context uses */
    const mpishmem_pe_map_t *pe_map; /* its team's PEs (team PE -> world PE), or NULL
                                      * (world numbering) */
    int n_pes;           /* PEs addressable through this context */
    mpishmem_pending_t pending; /* what its quiet waits for (segment.h) */
    shmem_team_t team;   /* PE numbers passed with this context are in this team
                          * (NULL for SHMEM_CTX_DEFAULT: the world) */
    long options;        /* SHMEM_CTX_* creation options */
    int from_team;       /* made by shmem_team_create_ctx */
    pthread_t owner;     /* creating thread (SHMEM_CTX_PRIVATE checks) */
    long session_options;
    size_t session_total_ops;
    struct mpishmem_batch *batch; /* SHMEM_CTX_SESSION_BATCH staging, or NULL */
    struct mpishmem_ctx *prev_live, *next_live; /* lib/context.c's registry */
};

/* Staging for SHMEM_CTX_SESSION_BATCH (see mpishmem_batch_stage). */
#define MPISHMEM_BATCH_BYTES ((size_t)256 << 10)
struct mpishmem_batch {
    size_t used;
    _Alignas(16) char buf[MPISHMEM_BATCH_BYTES];
};

/* World PE of ctx's PE number pe, already range-checked. */
static inline int mpishmem_ctx_world_pe(shmem_ctx_t ctx, int pe)
{
    return ctx->pe_map ? mpishmem_pe_map_world(ctx->pe_map, pe) : pe;
}

/* Handle validation without reading through a garbage pointer, as for
 * teams (teams/team.h): every created context is a slot of one array
 * mapped once (lane_ctx.c) and never unmapped, so a handle is valid when it
 * is SHMEM_CTX_DEFAULT, or the start of a slot whose magic says live.  A
 * destroyed context keeps MPISHMEM_CTX_DEAD until its slot is reused, which
 * happens only after every other slot has been used once. */
#define MPISHMEM_CTX_SLOTS 262144
extern mpishmem_slot_array_t mpishmem_ctx_slots;

static inline int mpishmem_ctx_handle_ok(shmem_ctx_t ctx)
{
    return ctx == SHMEM_CTX_DEFAULT ||
           (mpishmem_slot_start_of(&mpishmem_ctx_slots, ctx, MPISHMEM_CTX_SLOTS,
                                   sizeof *ctx) &&
            ctx->magic == MPISHMEM_CTX_MAGIC);
}

/* Says what is wrong with a handle mpishmem_ctx_handle_ok refused. */
void mpishmem_fatal_ctx(const char *routine, shmem_ctx_t ctx) __attribute__((noreturn, cold));

/* Always on, for the shmem_ctx_* routines that are not data transfers:
 * stop unless ctx is a live handle (SHMEM_CTX_INVALID: callers test first). */
static inline void mpishmem_check_ctx_handle(const char *routine, shmem_ctx_t ctx)
{
    if (__builtin_expect(!mpishmem_ctx_handle_ok(ctx), 0))
        mpishmem_fatal_ctx(routine, ctx);
}

/* SHMEM_DEBUG: the above, and a SHMEM_CTX_PRIVATE context is used only by
 * the thread that created it. */
void mpishmem_check_ctx(const char *routine, shmem_ctx_t ctx);

/* A slot for a new context (zeroed), or NULL when every slot is live; the
 * caller serializes calls.  mpishmem_ctx_slot_retire marks a context
 * destroyed: its fields are set so that the data path's PE range check
 * (rma_path.h) fails, and mpishmem_fatal_ctx_pe then names the cause, so
 * transfers on a destroyed context cost no extra compare. */
struct mpishmem_ctx *mpishmem_ctx_slot_take(void);
void mpishmem_ctx_slot_retire(struct mpishmem_ctx *ctx);

/* Stops: pe is outside the range of ctx's team (or ctx was destroyed). */
void mpishmem_fatal_ctx_pe(const char *routine, shmem_ctx_t ctx, int pe)
    __attribute__((noreturn, cold));

/* Complete every operation issued through ctx (its quiet): the slow path
 * of mpishmem_ctx_quiet. */
void mpishmem_ctx_complete(shmem_ctx_t ctx);

/* SHMEM_CTX_SESSION_BATCH: stage a small blocking put so it needs no local
 * completion wait.  Returns the staged copy of src. */
#define MPISHMEM_BATCH_MAX_PUT 4096
const void *mpishmem_batch_stage(shmem_ctx_t ctx, const void *src, size_t n);

/* Whether a quiet on ctx has anything to do: direct stores by this thread
 * (or shmem_ptr in use), or MPI operations of ctx not known complete. */
static inline int mpishmem_ctx_busy(shmem_ctx_t ctx)
{
    return (mpishmem_stored | __atomic_load_n(&mpishmem_stores_unseen, __ATOMIC_RELAXED) |
            mpishmem_pending_any(&ctx->pending, ctx->lane)) != 0;
}

#endif
