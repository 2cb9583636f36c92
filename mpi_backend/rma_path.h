/*
 * mpishmem: the data path of every put and get.
 *
 * put(dest, src, n, pe):
 *   1. find dest's segment (O(1) for the heap) -> offset;
 *   2. if PE pe's copy is mapped here (same node, MPISHMEM_SHM on), memcpy
 *      into it: complete once a later fence/quiet issues a memory barrier;
 *   3. else MPI_Put on the segment's world window at displacement offset,
 *      mark pe dirty, and for a blocking put wait for local completion
 *      (MPI_Win_flush_local) so the source buffer is reusable.
 * get is the mirror image; a blocking get first flushes the target if it
 * has puts in flight, so a get observes this PE's earlier puts.
 *
 * Everything here is static inline so each typed routine compiles to a
 * straight path with the element size folded in.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_RMA_PATH_H
#define MPISHMEM_RMA_PATH_H

#include <limits.h>
#include <string.h>
#include <shmem.h>
#include "segment.h"
#include "../lib/error.h"

/* MPI counts are int: move larger transfers in chunks of this many bytes. */
#define MPISHMEM_MPI_CHUNK ((size_t)1 << 30)

/* The segment holding [addr, addr+len), or a fatal error naming routine. */
static inline mpishmem_segment_t *mpishmem_rma_segment(const char *routine, const void *addr,
                                                       size_t len, int pe)
{
    mpishmem_segment_t *s = mpishmem_segment_find(addr);
    if (MPISHMEM_UNLIKELY(s == NULL))
        mpishmem_fatal_address(routine, addr, len, pe);
    if (MPISHMEM_DEBUG_ON && !mpishmem_segment_holds_range(s, addr, len))
        mpishmem_fatal_address(routine, addr, len, pe);
    if (MPISHMEM_UNLIKELY(s->rank_of_pe != NULL && s->rank_of_pe[pe] < 0))
        mpishmem_fatal_target(routine, s, pe); /* pe is outside the space's team */
    return s;
}

/* Argument checks shared by every RMA routine. */
static inline void mpishmem_rma_enter(const char *routine, shmem_ctx_t ctx, int pe)
{
    if (MPISHMEM_DEBUG_ON) {
        mpishmem_check_running(routine);
        if (ctx == SHMEM_CTX_INVALID)
            mpishmem_fatal(routine, "context is SHMEM_CTX_INVALID");
    }
    mpishmem_check_pe(routine, pe);
}

void mpishmem_mpi_put_bytes(mpishmem_segment_t *s, const void *src, size_t n, int pe,
                            size_t off);
void mpishmem_mpi_get_bytes(mpishmem_segment_t *s, void *dst, size_t n, int pe, size_t off);

static inline void mpishmem_put_bytes(const char *routine, shmem_ctx_t ctx, void *dest,
                                      const void *src, size_t n, int pe, int blocking)
{
    mpishmem_rma_enter(routine, ctx, pe);
    if (MPISHMEM_UNLIKELY(n == 0) || MPISHMEM_UNLIKELY(ctx == SHMEM_CTX_INVALID))
        return;
    mpishmem_segment_t *s = mpishmem_rma_segment(routine, dest, n, pe);
    size_t off = (size_t)((char *)dest - s->base);
    char *peer = s->peer[pe];
    if (MPISHMEM_LIKELY(peer != NULL)) {
        memcpy(peer + off, src, n);
        return;
    }
    mpishmem_mpi_put_bytes(s, src, n, pe, off);
    if (blocking)
        MPI_Win_flush_local(mpishmem_segment_rank(s, pe), s->win);
    mpishmem_segment_mark(s, pe);
}

static inline void mpishmem_get_bytes(const char *routine, shmem_ctx_t ctx, void *dest,
                                      const void *src, size_t n, int pe, int blocking)
{
    mpishmem_rma_enter(routine, ctx, pe);
    if (MPISHMEM_UNLIKELY(n == 0) || MPISHMEM_UNLIKELY(ctx == SHMEM_CTX_INVALID))
        return;
    mpishmem_segment_t *s = mpishmem_rma_segment(routine, src, n, pe);
    size_t off = (size_t)((const char *)src - s->base);
    const char *peer = s->peer[pe];
    if (MPISHMEM_LIKELY(peer != NULL)) {
        memcpy(dest, peer + off, n);
        return;
    }
    if (blocking) {
        if (mpishmem_segment_dirty(s, pe))
            mpishmem_segment_flush_pe(s, pe);
        mpishmem_mpi_get_bytes(s, dest, n, pe, off);
        MPI_Win_flush_local(mpishmem_segment_rank(s, pe), s->win);
        return;
    }
    mpishmem_mpi_get_bytes(s, dest, n, pe, off);
    mpishmem_segment_mark(s, pe);
}

/* Strided transfers: nblocks blocks of bsize elements of `elem` bytes; block
 * i starts at element i*tst of the target and i*lst of the local buffer. */
void mpishmem_mpi_strided(mpishmem_segment_t *s, int is_put, char *local, size_t off,
                          ptrdiff_t tst, ptrdiff_t lst, size_t elem, size_t bsize,
                          size_t nblocks, int pe);

static inline void mpishmem_strided(const char *routine, shmem_ctx_t ctx, int is_put,
                                    char *target, char *local, ptrdiff_t tst, ptrdiff_t lst,
                                    size_t elem, size_t bsize, size_t nblocks, int pe)
{
    mpishmem_rma_enter(routine, ctx, pe);
    if (MPISHMEM_DEBUG_ON && (tst < 1 || lst < 1))
        mpishmem_fatal(routine, "strides must be >= 1 (dest stride %td, source stride %td)",
                       is_put ? tst : lst, is_put ? lst : tst);
    if (MPISHMEM_UNLIKELY(bsize == 0 || nblocks == 0) || ctx == SHMEM_CTX_INVALID)
        return;
    /* Extent touched on the target, for the segment check. */
    size_t span = mpishmem_checked_bytes(routine, (nblocks - 1) * (size_t)(tst < 0 ? -tst : tst)
                                         + bsize, elem);
    char *first = tst < 0 ? target + (ptrdiff_t)(nblocks - 1) * tst * (ptrdiff_t)elem : target;
    mpishmem_segment_t *s = mpishmem_rma_segment(routine, first, span, pe);
    size_t off = (size_t)(target - s->base);
    char *peer = s->peer[pe];
    if (MPISHMEM_LIKELY(peer != NULL)) {
        char *remote = peer + off;
        size_t bbytes = bsize * elem;
        for (size_t i = 0; i < nblocks; i++) {
            char *r = remote + (ptrdiff_t)i * tst * (ptrdiff_t)elem;
            char *l = local + (ptrdiff_t)i * lst * (ptrdiff_t)elem;
            if (is_put)
                memcpy(r, l, bbytes);
            else
                memcpy(l, r, bbytes);
        }
        return;
    }
    if (!is_put && mpishmem_segment_dirty(s, pe))
        mpishmem_segment_flush_pe(s, pe);
    mpishmem_mpi_strided(s, is_put, local, off, tst, lst, elem, bsize, nblocks, pe);
    MPI_Win_flush_local(mpishmem_segment_rank(s, pe), s->win);
    if (is_put)
        mpishmem_segment_mark(s, pe);
}

#endif
