/*
 * mpishmem: what the data path does with a context (lane_ctx.h): check
 * it, complete it, stage a batched put.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <string.h>
#include "lane_ctx.h"
#include "error.h"

/* SHMEM_CTX_DEFAULT: here, with the slots, as handle checks compare with
 * it.  Its team (NULL here) is SHMEM_TEAM_WORLD: lib/context.c answers for
 * it, as this layer knows no teams. */
struct mpishmem_ctx mpishmem_ctx_default_object = {
    .magic = MPISHMEM_CTX_MAGIC,
    .lane = 0,
    .pe_map = NULL,
    .team = NULL,
    .session_total_ops = SIZE_MAX,
};

/* Live, or being destroyed: not to be handed out. */
static int ctx_in_use(const void *slot)
{
    unsigned magic = ((const struct mpishmem_ctx *)slot)->magic;
    return magic == MPISHMEM_CTX_MAGIC || magic == MPISHMEM_CTX_DYING;
}

mpishmem_slot_array_t mpishmem_ctx_slots = {
    .elem = sizeof(struct mpishmem_ctx), .count = MPISHMEM_CTX_SLOTS, .in_use = ctx_in_use};

struct mpishmem_ctx *mpishmem_ctx_slot_take(void)
{
    return mpishmem_slot_take(&mpishmem_ctx_slots);
}

/* What a destroyed context's transfers read: a team of no PEs. */
static const mpishmem_pe_map_t dead_map;

void mpishmem_ctx_slot_retire(struct mpishmem_ctx *ctx)
{
    ctx->magic = MPISHMEM_CTX_DEAD;
    ctx->pe_map = &dead_map;
    ctx->n_pes = 0;
    ctx->batch = NULL;
    ctx->session_options = 0;
}

void mpishmem_fatal_ctx(const char *routine, shmem_ctx_t ctx)
{
    int slot = mpishmem_slot_start(&mpishmem_ctx_slots, ctx, mpishmem_ctx_slots.used);
    if (mpishmem_rt.state != MPISHMEM_RUNNING)
        mpishmem_fatal_state(routine);
    if (slot && (ctx->magic == MPISHMEM_CTX_DEAD || ctx->magic == MPISHMEM_CTX_DYING))
        mpishmem_fatal(routine, "context %p was destroyed", (void *)ctx);
    mpishmem_fatal(routine, "context handle %p is not a live context (never created, or "
                   "garbage)", (void *)ctx);
}

void mpishmem_check_ctx(const char *routine, shmem_ctx_t ctx)
{
    mpishmem_check_ctx_handle(routine, ctx);
    if ((ctx->options & SHMEM_CTX_PRIVATE) && !pthread_equal(ctx->owner, pthread_self()))
        mpishmem_fatal(routine, "context %p was created SHMEM_CTX_PRIVATE by another thread",
                       (void *)ctx);
}

void mpishmem_fatal_ctx_pe(const char *routine, shmem_ctx_t ctx, int pe)
{
    if (!mpishmem_ctx_handle_ok(ctx))
        mpishmem_fatal_ctx(routine, ctx);
    mpishmem_fatal(routine, "PE %d is out of range [0, %d) of the context's team", pe,
                   ctx->n_pes);
}

void mpishmem_ctx_complete(shmem_ctx_t ctx)
{
    /* Direct stores first: the barrier orders only this thread's stores,
     * which is all this thread's quiet answers for. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    mpishmem_stored = 0;
    /* MPI operations: their completion before what follows.  After direct
     * stores alone the one fence above is all (a second cost 8 ns:
     * put + quiet 19.8 ns against a 7.8 ns store + fence floor). */
    if (mpishmem_pending_any(&ctx->pending, ctx->lane)) {
        mpishmem_complete_pending(&ctx->pending, ctx->lane);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    if (ctx->batch)
        ctx->batch->used = 0;
}

const void *mpishmem_batch_stage(shmem_ctx_t ctx, const void *src, size_t n)
{
    struct mpishmem_batch *b = ctx->batch;
    size_t at = (b->used + 15) & ~(size_t)15;
    if (at + n > MPISHMEM_BATCH_BYTES) {
        /* Full: complete what the staged copies feed, then reuse them. */
        mpishmem_ctx_complete(ctx);
        at = 0;
    }
    memcpy(b->buf + at, src, n);
    b->used = at + n;
    return b->buf + at;
}
