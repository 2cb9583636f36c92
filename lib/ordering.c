/*
 * mpishmem: ordering, completion and the world barrier.
 *
 * fence and quiet both complete outstanding MPI operations: MPI does not
 * order two puts to one target, so ordering them needs the first to be
 * complete.  Direct stores need only the memory barrier.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include "coll/coll.h"
#include "context.h"
#include "../mpi_backend/runtime/error.h"
#include "../mpi_backend/runtime/runtime.h"
#include "trace.h"
#include "../mpi_backend/progress/progress.h"
#include "../mpi_backend/data_path/rma_path.h"

static int ctx_usable(const char *routine, shmem_ctx_t ctx)
{
    if (ctx != SHMEM_CTX_INVALID)
        mpishmem_check_ctx_handle(routine, ctx);
    if (MPISHMEM_DEBUG_ON) {
        mpishmem_check_running(routine);
        if (ctx != SHMEM_CTX_INVALID)
            mpishmem_check_ctx(routine, ctx);
    }
    return ctx != SHMEM_CTX_INVALID;
}

/* A context's quiet and fence complete its own operations: its lane, and
 * lane 0 where it issued MPI AMOs, never other contexts' lanes.  With
 * nothing outstanding they cost one predictable branch.  A magic word other
 * than live's (a destroyed context) takes the slow path, which checks the
 * handle in full. */
static void __attribute__((noinline)) quiet_slow(const char *routine, shmem_ctx_t ctx)
{
    if (ctx_usable(routine, ctx))
        mpishmem_ctx_complete(ctx);
}

/* shmem_quiet's: SHMEM_CTX_DEFAULT is always a live handle, so only
 * SHMEM_DEBUG checks it.  Every put+quiet on a mapped peer comes here (its
 * stores need the barrier), where the handle check cost about 0.3 ns. */
static void __attribute__((noinline)) quiet_default_slow(void)
{
    if (MPISHMEM_DEBUG_ON)
        quiet_slow("shmem_quiet", SHMEM_CTX_DEFAULT);
    else
        mpishmem_ctx_complete(SHMEM_CTX_DEFAULT);
}

void shmem_ctx_quiet(shmem_ctx_t ctx)
{
    if (MPISHMEM_UNLIKELY(MPISHMEM_DEBUG_ON | (ctx == SHMEM_CTX_INVALID) ||
                          (ctx->magic != MPISHMEM_CTX_MAGIC) || mpishmem_ctx_busy(ctx)))
        quiet_slow("shmem_ctx_quiet", ctx);
}

void shmem_quiet(void)
{
    if (MPISHMEM_UNLIKELY(MPISHMEM_DEBUG_ON | mpishmem_ctx_busy(SHMEM_CTX_DEFAULT)))
        quiet_default_slow();
}

/* Fence orders delivery to each PE.  Direct stores need only store-store
 * order (a release barrier, free on x86); MPI operations are ordered by
 * completing them, as MPI does not order two puts to one target. */
static void __attribute__((noinline)) fence_slow(const char *routine, shmem_ctx_t ctx)
{
    if (ctx_usable(routine, ctx))
        mpishmem_complete_pending(&ctx->pending, ctx->lane);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void shmem_ctx_fence(shmem_ctx_t ctx)
{
    __atomic_thread_fence(__ATOMIC_RELEASE);
    if (MPISHMEM_UNLIKELY(MPISHMEM_DEBUG_ON | (ctx == SHMEM_CTX_INVALID) ||
                          (ctx->magic != MPISHMEM_CTX_MAGIC) ||
                          mpishmem_pending_any(&ctx->pending, ctx->lane)))
        fence_slow("shmem_ctx_fence", ctx);
}

void shmem_fence(void)
{
    __atomic_thread_fence(__ATOMIC_RELEASE);
    if (MPISHMEM_UNLIKELY(MPISHMEM_DEBUG_ON |
                          mpishmem_pending_any(&SHMEM_CTX_DEFAULT->pending, 0)))
        fence_slow("shmem_fence", SHMEM_CTX_DEFAULT);
}

void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes)
{
    if (!ctx_usable("shmem_ctx_pe_quiet", ctx))
        return;
    for (size_t i = 0; i < npes; i++) {
        int pe = target_pes[i];
        if (ctx->pe_map == NULL)
            mpishmem_check_pe("shmem_pe_quiet", pe);
        else if ((unsigned)pe >= (unsigned)ctx->n_pes)
            mpishmem_fatal_ctx_pe("shmem_ctx_pe_quiet", ctx, pe);
        else
            pe = mpishmem_ctx_world_pe(ctx, pe);
        mpishmem_complete_pe(&ctx->pending, ctx->lane, pe);
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void shmem_pe_quiet(const int *target_pes, size_t npes)
{
    shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, target_pes, npes);
}

void shmem_barrier_all(void)
{
    mpishmem_check_running("shmem_barrier_all");
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_coll(mpishmem_rt.world, -1, 0);
    mpishmem_complete_all();
    mpishmem_coll_sync_world("shmem_barrier_all");
}

void shmem_sync_all(void)
{
    mpishmem_check_running("shmem_sync_all");
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_coll(mpishmem_rt.world, -1, 0);
    mpishmem_coll_sync_world("shmem_sync_all");
}
