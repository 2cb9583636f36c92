/*
 * mpishmem: the data path of every atomic memory operation.
 *
 * Atomicity rule.  CPU atomics on the memory and MPI accumulate operations
 * are not atomic with respect to each other, so every location uses one
 * mechanism, chosen per segment when it is set up and the same on every PE:
 *   - `amo_cpu`: CPU atomics, when every PE of the job maps every other
 *     PE's copy (one node, MPISHMEM_SHM on);
 *   - `amo_am` (heap and global data, where MPI atomics cost more than a
 *     message exchange and a progress thread serves, or MPISHMEM_AMO_AM=1):
 *     CPU atomics as well, made by a PE that maps the target's copy or, on
 *     request, by the target itself (amo_am.c);
 *   - otherwise MPI atomics, for every target including the calling PE.
 * MPI atomics all use one datatype per width (MPI_UINT32_T / MPI_UINT64_T,
 * two's complement makes SUM right for signed types and the bitwise ops and
 * swaps are bit moves), because MPI only promises atomicity between
 * accumulates of the same datatype.  The windows carry the
 * `which_accumulate_ops` hint with exactly the ops we use.
 *
 * Operands of MPI atomics live in a per-thread ring ("stash") so a
 * non-fetching AMO returns without waiting for MPI; a slot is reused once
 * the operation that read it is complete (by its sequence number).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_AMO_PATH_H
#define MPISHMEM_AMO_PATH_H

#include <stdint.h>
#include <string.h>
#include "rma_path.h"
#include "amo_am.h"

enum mpishmem_amo_op {
    MPISHMEM_AMO_FETCH,
    MPISHMEM_AMO_SET,
    MPISHMEM_AMO_SWAP,
    MPISHMEM_AMO_CSWAP,
    MPISHMEM_AMO_ADD,
    MPISHMEM_AMO_AND,
    MPISHMEM_AMO_OR,
    MPISHMEM_AMO_XOR,
};

/* CPU atomics on one word of width W bits. */
#define MPISHMEM_AMO_CPU(W)                                                                  \
    static inline uint##W##_t mpishmem_amo_cpu##W(int op, uint##W##_t *p, uint##W##_t v,    \
                                                  uint##W##_t cond)                         \
    {                                                                                      \
        switch (op) {                                                                      \
        case MPISHMEM_AMO_FETCH: return __atomic_load_n(p, __ATOMIC_SEQ_CST);              \
        case MPISHMEM_AMO_SET: __atomic_store_n(p, v, __ATOMIC_SEQ_CST); return 0;         \
        case MPISHMEM_AMO_SWAP: return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);        \
        case MPISHMEM_AMO_CSWAP:                                                           \
            __atomic_compare_exchange_n(p, &cond, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
            return cond;                                                                   \
        case MPISHMEM_AMO_ADD: return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);          \
        case MPISHMEM_AMO_AND: return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);          \
        case MPISHMEM_AMO_OR: return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);            \
        default: return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);                        \
        }                                                                                  \
    }
MPISHMEM_AMO_CPU(32)
MPISHMEM_AMO_CPU(64)

/* The MPI side (amo_mpi.c). */
void mpishmem_amo_mpi(mpishmem_pending_t *p, mpishmem_segment_t *s, int op, size_t off, size_t size,
                      const void *value, const void *cond, void *result, int pe, int blocking);

/* op on the `size`-byte (4 or 8) word at dest on pe.  value/cond point to
 * operands of that width; result (NULL for non-fetching ops) receives the
 * old value: before return when blocking, by the next quiet otherwise. */
static inline void mpishmem_amo(const char *routine, shmem_ctx_t ctx, int op, void *dest,
                                size_t size, const void *value, const void *cond,
                                void *result, int pe, int blocking)
{
    pe = mpishmem_rma_enter(routine, ctx, pe);
    if (MPISHMEM_UNLIKELY(pe < 0)) {
        if (result)
            memset(result, 0, size);
        return;
    }
    mpishmem_segment_t *s = mpishmem_rma_segment(routine, dest, size, pe);
    size_t off = (size_t)((char *)dest - s->base);
    if (MPISHMEM_UNLIKELY(s->no_amo))
        mpishmem_fatal_target(routine, s, pe); /* a space without atomics */
    if (MPISHMEM_DEBUG_ON && ((uintptr_t)dest % size) != 0)
        mpishmem_fatal(routine, "AMO target %p is not aligned to its %zu-byte size", dest,
                       size);
    if (MPISHMEM_UNLIKELY(s->gpu != NULL)) { /* device memory: its owner applies it */
        mpishmem_gpu_amo(routine, ctx, s, op, off, size, value, cond, result, pe);
        return;
    }
    char *peer = mpishmem_segment_peer(s, pe);
    if (MPISHMEM_LIKELY(s->amo_cpu && peer != NULL)) {
        if (size == 8) {
            uint64_t v = 0, c = 0, r;
            if (value) memcpy(&v, value, 8);
            if (cond) memcpy(&c, cond, 8);
            r = mpishmem_amo_cpu64(op, (uint64_t *)(peer + off), v, c);
            if (result) memcpy(result, &r, 8);
        } else {
            uint32_t v = 0, c = 0, r;
            if (value) memcpy(&v, value, 4);
            if (cond) memcpy(&c, cond, 4);
            r = mpishmem_amo_cpu32(op, (uint32_t *)(peer + off), v, c);
            if (result) memcpy(result, &r, 4);
        }
        return;
    }
    if (s->amo_am) { /* CPU atomics where mapped, else a request its owner applies */
        mpishmem_amo_am(&ctx->pending, s, op, off, size, value, cond, result, pe);
        return;
    }
    /* Every MPI AMO goes through lane 0 (atomicity is per window); the
     * context's pending numbers make its quiet complete that lane too. */
    mpishmem_amo_mpi(&ctx->pending, s, op, off, size, value, cond, result, pe, blocking);
}

#endif
