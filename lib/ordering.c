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
#include "context.h"
#include "error.h"
#include "runtime.h"
#include "../mpi_backend/progress.h"
#include "../mpi_backend/rma_path.h"

static int ctx_usable(const char *routine, shmem_ctx_t ctx)
{
    if (MPISHMEM_DEBUG_ON) {
        mpishmem_check_running(routine);
        if (ctx != SHMEM_CTX_INVALID)
            mpishmem_check_ctx(routine, ctx);
    }
    return ctx != SHMEM_CTX_INVALID;
}

/* A context's quiet and fence complete its own lane (and the AMO lane if
 * it issued MPI AMOs), never other contexts' lanes. */
void shmem_ctx_quiet(shmem_ctx_t ctx)
{
    if (ctx_usable("shmem_ctx_quiet", ctx))
        mpishmem_ctx_complete(ctx);
}

void shmem_quiet(void)
{
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
}

void shmem_ctx_fence(shmem_ctx_t ctx)
{
    if (ctx_usable("shmem_ctx_fence", ctx))
        mpishmem_ctx_complete(ctx);
}

void shmem_fence(void)
{
    shmem_ctx_fence(SHMEM_CTX_DEFAULT);
}

void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes)
{
    if (!ctx_usable("shmem_ctx_pe_quiet", ctx))
        return;
    int amo = ctx->amo_pending || ctx->lane == 0;
    for (size_t i = 0; i < npes; i++) {
        int pe = target_pes[i];
        if (ctx->pe_map == NULL)
            mpishmem_check_pe("shmem_pe_quiet", pe);
        else if ((unsigned)pe >= (unsigned)ctx->n_pes)
            mpishmem_fatal_ctx_pe("shmem_ctx_pe_quiet", ctx, pe);
        else
            pe = ctx->pe_map[pe];
        mpishmem_complete_pe(ctx->lane, amo, pe);
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
    mpishmem_complete_all();
    mpishmem_barrier_comm(mpishmem_rt.world);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void shmem_sync_all(void)
{
    mpishmem_check_running("shmem_sync_all");
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    mpishmem_barrier_comm(mpishmem_rt.world);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
