/*
 * mpishmem: the data path of every put and get.
 *
 * put(dest, src, n, pe):
 *   1. find dest's segment (O(1) for the heap) -> offset;
 *   (device memory on either side: gpu_path.h, one predictable branch here
 *   while no GPU exists);
 *   2. if PE pe's copy is mapped here (same node, MPISHMEM_SHM on), copy
 *      into it storing each byte once (mpishmem_store_once): complete once
 *      a later fence/quiet issues a memory barrier;
 *   3. else MPI_Put on the segment's world window at displacement offset,
 *      mark pe dirty, and for a blocking put make the source reusable: small
 *      puts copy it into a bounce buffer, larger ones wait for local
 *      completion (MPI_Win_flush_local).
 * get is the mirror image (step 2: memcpy from the peer's copy, or a vector
 * copy where 4 KiB aliasing would slow memcpy down: mpishmem_load_copy); a
 * blocking MPI get first flushes the target if it has puts in flight, so a
 * get observes this PE's earlier puts.
 *
 * The common case of steps 1-2 is tested inline in each public routine
 * (mpishmem_rma_direct), the copy inline too; the rest runs out of line
 * (mpishmem_put_bytes_any, rma_mpi.c) with every check.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_RMA_PATH_H
#define MPISHMEM_RMA_PATH_H

#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <shmem.h>
#include "segment.h"
#include "lane_ctx.h"
#include "error.h"
#include "gpu_path.h"
#include "local_copy.h"
#include "progress.h"
#include "route_plan.h"

/* MPI counts are int: move larger transfers in chunks of this many bytes. */
#define MPISHMEM_MPI_CHUNK ((size_t)1 << 30)

/* SHMEM_DEBUG: [addr, addr+len) must lie in its segment and, in a heap,
 * inside the one live allocation where it starts (a transfer that runs on
 * into the next block is caught here, before either data path). */
static __attribute__((noinline, cold, unused)) void
mpishmem_rma_debug_bounds(const char *routine, const mpishmem_segment_t *s, const void *addr,
                          size_t len, int pe)
{
    if (!mpishmem_segment_holds_range(s, addr, len))
        mpishmem_fatal_address(routine, addr, len, pe);
    size_t off = (size_t)((const char *)addr - s->base), start, size;
    if (s->block_of == NULL)
        return;
    if (!s->block_of(s, off, &start, &size))
        mpishmem_fatal(routine, "address %p (%zu bytes, target PE %d) is not inside a live "
                       "allocation of the %s (freed, or never allocated)", addr, len, pe,
                       s->name);
    if (len > start + size - off)
        mpishmem_fatal(routine, "%zu bytes at %p (target PE %d) run %zu bytes past the end of "
                       "their allocation (%p, %zu bytes) in the %s", len, addr, pe,
                       len - (start + size - off), (void *)(s->base + start), size, s->name);
}

/* The segment holding [addr, addr+len), or a fatal error naming routine. */
static inline mpishmem_segment_t *mpishmem_rma_segment(const char *routine, const void *addr,
                                                       size_t len, int pe)
{
    mpishmem_segment_t *s = mpishmem_segment_find(addr);
    if (MPISHMEM_UNLIKELY(s == NULL))
        mpishmem_fatal_address(routine, addr, len, pe);
    if (MPISHMEM_DEBUG_ON)
        mpishmem_rma_debug_bounds(routine, s, addr, len, pe);
    if (MPISHMEM_UNLIKELY(s->ranks != NULL && mpishmem_pe_map_index(s->ranks, pe) < 0))
        mpishmem_fatal_target(routine, s, pe); /* pe is outside the space's team */
    return s;
}

/* Argument checks shared by every RMA and AMO routine.  Returns the world
 * PE that `pe` names in ctx's team, or -1 for SHMEM_CTX_INVALID (whose
 * operations do nothing, as the spec says). */
static inline int mpishmem_rma_enter(const char *routine, shmem_ctx_t ctx, int pe)
{
    if (MPISHMEM_DEBUG_ON) {
        mpishmem_check_running(routine);
        if (ctx != SHMEM_CTX_INVALID)
            mpishmem_check_ctx(routine, ctx);
    }
    if (MPISHMEM_UNLIKELY(ctx == SHMEM_CTX_INVALID))
        return -1;
    if (MPISHMEM_LIKELY(ctx->pe_map == NULL)) {
        mpishmem_check_pe(routine, pe);
        return pe;
    }
    if (MPISHMEM_UNLIKELY((unsigned)pe >= (unsigned)ctx->n_pes))
        mpishmem_fatal_ctx_pe(routine, ctx, pe);
    return mpishmem_pe_map_world(ctx->pe_map, pe);
}

/* Blocking MPI puts up to this size return without waiting for local
 * completion: the source is copied into a per-thread bounce buffer, and the
 * buffer is recycled (MPI_Win_flush_local of the targets it served) only when
 * it is full.  A flush_local per put costs a round trip on Open MPI's osc/ucx
 * and a few microseconds on MPICH; the copy costs nanoseconds
 * (bench/mpi_routes, docs/performance.md). */
#define MPISHMEM_BOUNCE_MAX 1024
const void *mpishmem_bounce_stage(MPI_Win win, int rank, const void *src, size_t n);

void mpishmem_mpi_put_bytes(MPI_Win win, const void *src, size_t n, int pe, size_t off);
void mpishmem_mpi_get_bytes(MPI_Win win, void *dst, size_t n, int pe, size_t off);
/* The same, returning once the data has arrived. */
void mpishmem_mpi_get_bytes_wait(MPI_Win win, void *dst, size_t n, int pe, size_t off);

/* The MPI route of a put and of a get once the buffers are ready for MPI:
 * the one completion rule, for host buffers (below) and device buffers
 * that MPI takes itself (gpu_rma.c).  A blocking put waits for local
 * completion (host sources up to MPISHMEM_BOUNCE_MAX were bounced before,
 * and arrive here non-blocking); a blocking get first makes this
 * context's earlier puts and AMOs to pe complete, so it observes them. */
static inline void mpishmem_mpi_put_route(shmem_ctx_t ctx, mpishmem_segment_t *s,
                                          mpishmem_lane_t *l, int rank, size_t off,
                                          const void *src, size_t n, int pe, int blocking)
{
    mpishmem_mpi_put_bytes(l->win, src, n, rank, off);
    if (blocking) {
        mpishmem_blocking_mpi_enter();
        MPISHMEM_MPI(MPI_Win_flush_local(rank, l->win));
        mpishmem_blocking_mpi_leave();
    }
    mpishmem_lane_mark(&ctx->pending, s, l, pe);
}

static inline void mpishmem_mpi_get_route(shmem_ctx_t ctx, mpishmem_segment_t *s,
                                          mpishmem_lane_t *l, size_t off, void *dest,
                                          size_t n, int pe, int blocking)
{
    int rank = mpishmem_segment_rank(s, pe);
    if (blocking) {
        mpishmem_segment_flush_pe(&ctx->pending, s, ctx->lane, pe);
        /* To another node on MPICH, too: there a get's own request
         * completes in one round trip and MPI_Win_flush_local takes two
         * over TCP (10 us against 18).  Open MPI's flush_local takes one,
         * as fast as its request or 1 us faster (4.1.4: 18.2-19.7 us
         * against 19.1-20.5; bench/cluster_bench.sh). */
        if (MPISHMEM_UNLIKELY(mpishmem_rt.thread_level == SHMEM_THREAD_MULTIPLE ||
                              mpishmem_rt.wait_by_request ||
                              (mpishmem_node_rank_of(pe) < 0 && mpishmem_plan.mpi_family != 'o'))) {
            mpishmem_mpi_get_bytes_wait(l->win, dest, n, rank, off);
        } else {
            mpishmem_mpi_get_bytes(l->win, dest, n, rank, off);
            mpishmem_blocking_mpi_enter();
            MPISHMEM_MPI(MPI_Win_flush_local(rank, l->win));
            mpishmem_blocking_mpi_leave();
        }
        return;
    }
    mpishmem_mpi_get_bytes(l->win, dest, n, rank, off);
    mpishmem_lane_mark(&ctx->pending, s, l, pe);
}

/* Every case of a put and of a get (rma_mpi.c): whatever the direct route
 * below does not take, with the checks in full; blocking and _nbi apart,
 * so six arguments pass in registers and the call is a tail call. */
void mpishmem_put_bytes_any(const char *routine, shmem_ctx_t ctx, void *dest, const void *src,
                            size_t n, int pe);
void mpishmem_put_bytes_any_nbi(const char *routine, shmem_ctx_t ctx, void *dest,
                                const void *src, size_t n, int pe);
void mpishmem_get_bytes_any(const char *routine, shmem_ctx_t ctx, void *dest, const void *src,
                            size_t n, int pe);
void mpishmem_get_bytes_any_nbi(const char *routine, shmem_ctx_t ctx, void *dest,
                                const void *src, size_t n, int pe);

/* The common case in few instructions: a context without a team map, an
 * address in the default heap, no device memory, no SHMEM_DEBUG, and pe's
 * heap mapped here.  Returns where pe's copy of addr lies, or NULL for
 * mpishmem_*_bytes_any.  No check of pe is lost: the peer span lies inside
 * [0, npes), and pe outside it goes the long way, which checks it. */
static inline __attribute__((always_inline)) char *
mpishmem_rma_direct(shmem_ctx_t ctx, const void *addr, int pe)
{
    const mpishmem_segment_t *h = mpishmem_segments.heap;
    if (MPISHMEM_DEBUG_ON || MPISHMEM_UNLIKELY(ctx == SHMEM_CTX_INVALID) ||
        ctx->pe_map != NULL || MPISHMEM_UNLIKELY(h == NULL) ||
        !mpishmem_segment_holds(h, addr) || h->ranks != NULL ||
        MPISHMEM_UNLIKELY(mpishmem_gpu_on))
        return NULL;
    unsigned d = (unsigned)pe - (unsigned)h->peer_lo;
    if (MPISHMEM_UNLIKELY(d >= h->peer_span))
        return NULL;
    char *peer = h->peer[d];
    return peer ? peer + ((const char *)addr - h->base) : NULL;
}

/* Put and get: the direct route inline, anything else out of line, so the
 * public routine keeps no stack frame on its fast path. */
static inline __attribute__((always_inline)) void
mpishmem_put_bytes(const char *routine, shmem_ctx_t ctx, void *dest,
                                      const void *src, size_t n, int pe, int blocking)
{
    char *to = mpishmem_rma_direct(ctx, dest, pe);
    if (MPISHMEM_LIKELY(to != NULL)) {
        mpishmem_store_once(to, src, n);
        mpishmem_note_store();
        return;
    }
    if (blocking)
        mpishmem_put_bytes_any(routine, ctx, dest, src, n, pe);
    else
        mpishmem_put_bytes_any_nbi(routine, ctx, dest, src, n, pe);
}

static inline __attribute__((always_inline)) void
mpishmem_get_bytes(const char *routine, shmem_ctx_t ctx, void *dest,
                                      const void *src, size_t n, int pe, int blocking)
{
    const char *from = mpishmem_rma_direct(ctx, src, pe);
    if (MPISHMEM_LIKELY(from != NULL)) {
        mpishmem_load_copy(dest, from, n);
        return;
    }
    if (blocking)
        mpishmem_get_bytes_any(routine, ctx, dest, src, n, pe);
    else
        mpishmem_get_bytes_any_nbi(routine, ctx, dest, src, n, pe);
}

static inline void mpishmem_put_bytes_full(const char *routine, shmem_ctx_t ctx, void *dest,
                                           const void *src, size_t n, int pe, int blocking)
{
    pe = mpishmem_rma_enter(routine, ctx, pe);
    if (MPISHMEM_UNLIKELY(n == 0) || MPISHMEM_UNLIKELY(pe < 0))
        return;
    mpishmem_segment_t *s = mpishmem_rma_segment(routine, dest, n, pe);
    size_t off = (size_t)((char *)dest - s->base);
    if (MPISHMEM_UNLIKELY(mpishmem_gpu_on) &&
        mpishmem_gpu_put(routine, ctx, s, off, src, n, pe, blocking))
        return;
    char *peer = mpishmem_segment_peer(s, pe);
    if (MPISHMEM_LIKELY(peer != NULL)) {
        mpishmem_store_once(peer + off, src, n);
        mpishmem_note_store();
        return;
    }
    mpishmem_lane_t *l = mpishmem_segment_lane(s, ctx->lane);
    if (blocking && MPISHMEM_UNLIKELY(ctx->batch != NULL) && n <= MPISHMEM_BATCH_MAX_PUT) {
        src = mpishmem_batch_stage(ctx, src, n);
        blocking = 0;
    }
    int rank = mpishmem_segment_rank(s, pe);
    if (blocking && n <= MPISHMEM_BOUNCE_MAX) {
        src = mpishmem_bounce_stage(l->win, rank, src, n);
        blocking = 0;
    }
    mpishmem_mpi_put_route(ctx, s, l, rank, off, src, n, pe, blocking);
}

static inline void mpishmem_get_bytes_full(const char *routine, shmem_ctx_t ctx, void *dest,
                                           const void *src, size_t n, int pe, int blocking)
{
    pe = mpishmem_rma_enter(routine, ctx, pe);
    if (MPISHMEM_UNLIKELY(n == 0) || MPISHMEM_UNLIKELY(pe < 0))
        return;
    mpishmem_segment_t *s = mpishmem_rma_segment(routine, src, n, pe);
    size_t off = (size_t)((const char *)src - s->base);
    if (MPISHMEM_UNLIKELY(mpishmem_gpu_on) &&
        mpishmem_gpu_get(routine, ctx, s, off, dest, n, pe, blocking))
        return;
    const char *peer = mpishmem_segment_peer(s, pe);
    if (MPISHMEM_LIKELY(peer != NULL)) {
        mpishmem_load_copy(dest, peer + off, n);
        return;
    }
    mpishmem_mpi_get_route(ctx, s, mpishmem_segment_lane(s, ctx->lane), off, dest, n, pe,
                           blocking);
}

/* Strided transfers: nblocks blocks of bsize elements of `elem` bytes; block
 * i starts at element i*tst of the target and i*lst of the local buffer. */
void mpishmem_mpi_strided(MPI_Win win, int is_put, char *local, size_t off,
                          ptrdiff_t tst, ptrdiff_t lst, size_t elem, size_t bsize,
                          size_t nblocks, int pe);

static inline void mpishmem_strided(const char *routine, shmem_ctx_t ctx, int is_put,
                                    char *target, char *local, ptrdiff_t tst, ptrdiff_t lst,
                                    size_t elem, size_t bsize, size_t nblocks, int pe)
{
    pe = mpishmem_rma_enter(routine, ctx, pe);
    if (MPISHMEM_DEBUG_ON && (tst < 1 || lst < 1))
        mpishmem_fatal(routine, "strides must be >= 1 (dest stride %td, source stride %td)",
                       is_put ? tst : lst, is_put ? lst : tst);
    if (MPISHMEM_UNLIKELY(bsize == 0 || nblocks == 0) || pe < 0)
        return;
    /* Extent touched on the target, for the segment check; neither array
     * may wrap the address space (one branch for all the checks). */
    int bad = 0;
    size_t span = mpishmem_strided_extent(nblocks, tst, bsize, elem, &bad);
    (void)mpishmem_strided_extent(nblocks, lst, bsize, elem, &bad);
    if (MPISHMEM_UNLIKELY(bad))
        mpishmem_fatal_strided(routine, is_put, tst, lst, elem, bsize, nblocks);
    char *first = tst < 0 ? target + (ptrdiff_t)(nblocks - 1) * tst * (ptrdiff_t)elem : target;
    mpishmem_segment_t *s = mpishmem_rma_segment(routine, first, span, pe);
    size_t off = (size_t)(target - s->base);
    if (MPISHMEM_UNLIKELY(mpishmem_gpu_on) &&
        mpishmem_gpu_strided(routine, ctx, is_put, s, off, local, tst, lst, elem, bsize,
                             nblocks, pe))
        return;
    char *peer = mpishmem_segment_peer(s, pe);
    if (MPISHMEM_LIKELY(peer != NULL)) {
        char *remote = peer + off;
        size_t bbytes = bsize * elem;
        for (size_t i = 0; i < nblocks; i++) {
            char *r = remote + (ptrdiff_t)i * tst * (ptrdiff_t)elem;
            char *l = local + (ptrdiff_t)i * lst * (ptrdiff_t)elem;
            if (is_put)
                mpishmem_store_once(r, l, bbytes);
            else
                mpishmem_load_copy(l, r, bbytes);
        }
        if (is_put)
            mpishmem_note_store();
        return;
    }
    mpishmem_lane_t *l = mpishmem_segment_lane(s, ctx->lane);
    if (!is_put)
        mpishmem_segment_flush_pe(&ctx->pending, s, ctx->lane, pe);
    mpishmem_mpi_strided(l->win, is_put, local, off, tst, lst, elem, bsize, nblocks,
                         mpishmem_segment_rank(s, pe));
    MPISHMEM_MPI(MPI_Win_flush_local(mpishmem_segment_rank(s, pe), l->win));
    if (is_put)
        mpishmem_lane_mark(&ctx->pending, s, l, pe);
}

#endif
