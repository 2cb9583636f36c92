/*
 * mpishmem: put-with-signal and the signal routines.
 *
 * put_signal delivers the data, makes it visible at the target, and only
 * then updates the signal with an AMO, so a PE that sees the signal sees
 * the data:
 *   - data stored directly: a memory barrier orders it before the signal;
 *   - data sent with MPI_Put: MPI_Win_flush completes it at the target
 *     first (MPI does not order a put before a later accumulate).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include "../mpi_backend/data_path/amo_path.h"
#include "../mpi_backend/progress/progress.h"
#include "trace.h"

static inline void put_signal(const char *routine, shmem_ctx_t ctx, void *dest,
                              const void *src, size_t bytes, uint64_t *sig_addr,
                              uint64_t signal, int sig_op, int pe)
{
    if (MPISHMEM_UNLIKELY(sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD))
        mpishmem_fatal(routine, "sig_op %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD",
                       sig_op);
    mpishmem_put_bytes(routine, ctx, dest, src, bytes, pe, 0);
    if (bytes > 0 && ctx != SHMEM_CTX_INVALID) {
        /* put_bytes validated pe; the signal must not pass the data. */
        int wpe = mpishmem_ctx_world_pe(ctx, pe);
        mpishmem_segment_t *s = mpishmem_segment_find(dest);
        if (mpishmem_segment_peer(s, wpe) == NULL)
            mpishmem_segment_flush_pe(&ctx->pending, s, ctx->lane, wpe);
        else
            __atomic_thread_fence(__ATOMIC_RELEASE);
    }
    mpishmem_amo(routine, ctx, sig_op == SHMEM_SIGNAL_SET ? MPISHMEM_AMO_SET : MPISHMEM_AMO_ADD,
                 sig_addr, sizeof *sig_addr, &signal, NULL, NULL, pe, 1);
    if (MPISHMEM_TRACE_ON) /* one signal operation: the data and the signal word */
        mpishmem_trace_op(routine, ctx, pe, MPISHMEM_TRACE_SIGNAL, bytes + sizeof *sig_addr);
}

/* The blocking and _nbi forms share one body: after the flush above the
 * source buffer is already reusable, which the blocking form requires and
 * the _nbi form permits. */
#define DEFINE_PUT_SIGNAL(PT, ELEM, NAME)                                                    \
    void shmem_##NAME(PT *dest, const PT *src, size_t n, uint64_t *sig, uint64_t signal,   \
                      int sig_op, int pe)                                                  \
    { put_signal(__func__, SHMEM_CTX_DEFAULT, dest, src, mpishmem_checked_bytes(__func__, n, ELEM), \
                 sig, signal, sig_op, pe); }                                               \
    void shmem_ctx_##NAME(shmem_ctx_t ctx, PT *dest, const PT *src, size_t n, uint64_t *sig, \
                          uint64_t signal, int sig_op, int pe)                             \
    { put_signal(__func__, ctx, dest, src, mpishmem_checked_bytes(__func__, n, ELEM), sig,  \
                 signal, sig_op, pe); }                                                    \
    void shmem_##NAME##_nbi(PT *dest, const PT *src, size_t n, uint64_t *sig,              \
                            uint64_t signal, int sig_op, int pe)                           \
    { put_signal(__func__, SHMEM_CTX_DEFAULT, dest, src, mpishmem_checked_bytes(__func__, n, ELEM), \
                 sig, signal, sig_op, pe); }                                               \
    void shmem_ctx_##NAME##_nbi(shmem_ctx_t ctx, PT *dest, const PT *src, size_t n,        \
                                uint64_t *sig, uint64_t signal, int sig_op, int pe)        \
    { put_signal(__func__, ctx, dest, src, mpishmem_checked_bytes(__func__, n, ELEM), sig,  \
                 signal, sig_op, pe); }

#define DEFINE_PUT_SIGNAL_TYPED(T, N, A) DEFINE_PUT_SIGNAL(T, sizeof(T), N##_put_signal)
#define DEFINE_PUT_SIGNAL_SIZED(BITS, ELEM, A) DEFINE_PUT_SIGNAL(void, ELEM, put##BITS##_signal)
MPISHMEM_RMA_TYPES(DEFINE_PUT_SIGNAL_TYPED, _)
MPISHMEM_RMA_SIZES(DEFINE_PUT_SIGNAL_SIZED, _)
DEFINE_PUT_SIGNAL(void, 1, putmem_signal)

/* Programs poll signal_fetch in a loop and may sleep between calls; on the
 * CPU-atomic path it would never enter MPI, so every call polls MPI, and
 * every 16th also gives the core away when PEs outnumber cores. */
static __thread unsigned fetch_calls, fetch_spins;

uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
    uint64_t v;
    mpishmem_amo(__func__, SHMEM_CTX_DEFAULT, MPISHMEM_AMO_FETCH, (void *)sig_addr,
                 sizeof v, NULL, NULL, &v, mpishmem_rt.my_pe, 1);
    if (MPISHMEM_UNLIKELY((++fetch_calls & 15) == 0))
        mpishmem_progress_test_failed(&fetch_spins);
    else
        mpishmem_progress_poke();
    return v;
}

void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    mpishmem_amo(__func__, ctx, MPISHMEM_AMO_ADD, sig_addr, sizeof signal, &signal, NULL,
                 NULL, pe, 1);
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_op(__func__, ctx, pe, MPISHMEM_TRACE_SIGNAL, sizeof signal);
}

void(shmem_signal_add)(uint64_t *sig_addr, uint64_t signal, int pe)
{
    mpishmem_amo("shmem_signal_add", SHMEM_CTX_DEFAULT, MPISHMEM_AMO_ADD, sig_addr,
                 sizeof signal, &signal, NULL, NULL, pe, 1);
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_op("shmem_signal_add", SHMEM_CTX_DEFAULT, pe, MPISHMEM_TRACE_SIGNAL,
                          sizeof signal);
}

void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    mpishmem_amo(__func__, ctx, MPISHMEM_AMO_SET, sig_addr, sizeof signal, &signal, NULL,
                 NULL, pe, 1);
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_op(__func__, ctx, pe, MPISHMEM_TRACE_SIGNAL, sizeof signal);
}

void(shmem_signal_set)(uint64_t *sig_addr, uint64_t signal, int pe)
{
    mpishmem_amo("shmem_signal_set", SHMEM_CTX_DEFAULT, MPISHMEM_AMO_SET, sig_addr,
                 sizeof signal, &signal, NULL, NULL, pe, 1);
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_op("shmem_signal_set", SHMEM_CTX_DEFAULT, pe, MPISHMEM_TRACE_SIGNAL,
                          sizeof signal);
}
