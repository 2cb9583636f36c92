/*
 * mpishmem: what the data path does with a context (lane_ctx.h): check
 * it, complete it, stage a batched put.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>
#include "lane_ctx.h"
#include "error.h"

void mpishmem_check_ctx(const char *routine, shmem_ctx_t ctx)
{
    if (ctx->magic == MPISHMEM_CTX_DEAD)
        mpishmem_fatal(routine, "context %p was destroyed", (void *)ctx);
    if (ctx->magic != MPISHMEM_CTX_MAGIC)
        mpishmem_fatal(routine, "%p is not a context handle", (void *)ctx);
    if ((ctx->options & SHMEM_CTX_PRIVATE) && !pthread_equal(ctx->owner, pthread_self()))
        mpishmem_fatal(routine, "context %p was created SHMEM_CTX_PRIVATE by another thread",
                       (void *)ctx);
}

void mpishmem_fatal_ctx_pe(const char *routine, shmem_ctx_t ctx, int pe)
{
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
