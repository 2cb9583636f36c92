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
#include <shmem.h>
#include "segment.h"

#define MPISHMEM_CTX_MAGIC 0x6374784cu      /* "ctxL": a live context */
#define MPISHMEM_CTX_DEAD 0xdeadc7c7u       /* destroyed (kept in debug mode) */

struct mpishmem_ctx {
    unsigned magic;
    int lane;            /* lane of every segment this context uses */
    const mpishmem_pe_map_t *pe_map; /* its team's PEs (team PE -> world PE), or NULL
                                      * (world numbering) */
    int n_pes;           /* PEs addressable through this context */
    mpishmem_pending_t pending; /* what its quiet waits for (segment.h) */
    shmem_team_t team;   /* PE numbers passed with this context are in this team */
    long options;        /* SHMEM_CTX_* creation options */
    int from_team;       /* made by shmem_team_create_ctx */
    pthread_t owner;     /* creating thread (SHMEM_CTX_PRIVATE checks) */
    long session_options;
    size_t session_total_ops;
    struct mpishmem_batch *batch; /* SHMEM_CTX_SESSION_BATCH staging, or NULL */
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

/* SHMEM_DEBUG: stop unless ctx is live and usable by this thread. */
void mpishmem_check_ctx(const char *routine, shmem_ctx_t ctx);

/* Stops: pe is outside the range of ctx's team. */
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
