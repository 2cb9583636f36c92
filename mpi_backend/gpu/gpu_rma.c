/*
 * mpishmem: puts, gets and AMOs where device memory is involved
 * (gpu_path.h).  Target memory x local buffer:
 *
 *   target        local   route
 *   host, mapped  device  one runtime copy into/out of the peer's mapping
 *   host, MPI     device  GPU-aware MPI: MPI on the device buffer;
 *                         else staged: chunks through two page-locked
 *                         buffers, each chunk's device copy overlapping the
 *                         previous chunk's MPI_Rput/MPI_Rget
 *   device, IPC   any     one runtime copy (device to device, or host)
 *   device, MPI   host    GPU-aware MPI: the host path as it is
 *   device, MPI   device  GPU-aware MPI: MPI on the device buffer
 *   device        any     not GPU-aware, no IPC: the owner's agent
 * A PE's own device memory is always reached by a copy.  Everything but
 * MPI RMA completes before it returns; MPI RMA on a device buffer takes the
 * host path's completion (mpishmem_mpi_put_route / get_route, rma_path.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "amo_path.h"
#include "cuda_rt.h"
#include "gpu_agent.h"
#include "request_service.h"
#include "error.h"

/* The IPC mapping (or own memory) through which pe's copy of device
 * segment s is reached, or NULL. */
static char *ipc_of(const mpishmem_segment_t *s, int pe)
{
    return s->gpu->ipc ? s->gpu->ipc[pe] : NULL;
}

/* ---- staged MPI RMA: a device buffer, host memory at the target ---------- */

static void staged_put(mpishmem_lane_t *l, int rank, size_t off, const char *src, size_t n)
{
    MPI_Request q[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    mpishmem_requests_lock();
    for (size_t done = 0, k = 0; done < n; k++) {
        size_t c = n - done < MPISHMEM_GPU_CHUNK ? n - done : MPISHMEM_GPU_CHUNK;
        char *buf = mpishmem_gpu_stage_buffer(k % 2);
        mpishmem_gpu_wait_serving(&q[k % 2]);
        mpishmem_cuda_copy(buf, 0, src + done, 1, c);
        MPISHMEM_MPI(MPI_Rput(buf, (int)c, MPI_BYTE, rank, (MPI_Aint)(off + done), (int)c,
                              MPI_BYTE, l->win, &q[k % 2]));
        done += c;
    }
    mpishmem_gpu_wait_serving(&q[0]);
    mpishmem_gpu_wait_serving(&q[1]);
    mpishmem_requests_unlock();
}

static void staged_get(mpishmem_lane_t *l, int rank, size_t off, char *dest, size_t n)
{
    size_t chunks = (n + MPISHMEM_GPU_CHUNK - 1) / MPISHMEM_GPU_CHUNK;
    MPI_Request q[2];
    mpishmem_requests_lock();
#define AT(k) ((k) * MPISHMEM_GPU_CHUNK)
#define LEN(k) (n - AT(k) < MPISHMEM_GPU_CHUNK ? n - AT(k) : MPISHMEM_GPU_CHUNK)
#define POST(k)                                                                              \
    MPISHMEM_MPI(MPI_Rget(mpishmem_gpu_stage_buffer((k) % 2), (int)LEN(k), MPI_BYTE, rank,  \
                          (MPI_Aint)(off + AT(k)), (int)LEN(k), MPI_BYTE, l->win,          \
                          &q[(k) % 2]))
    for (size_t k = 0; k < chunks && k < 2; k++)
        POST(k);
    for (size_t k = 0; k < chunks; k++) {
        mpishmem_gpu_wait_serving(&q[k % 2]);
        mpishmem_cuda_copy(dest + AT(k), 1, mpishmem_gpu_stage_buffer(k % 2), 0, LEN(k));
        if (k + 2 < chunks)
            POST(k + 2);
    }
#undef POST
#undef LEN
#undef AT
    mpishmem_requests_unlock();
}

/* ---- the routes ------------------------------------------------------------- */

int mpishmem_gpu_put(const char *routine, shmem_ctx_t ctx, mpishmem_segment_t *s, size_t off,
                     const void *src, size_t n, int pe, int blocking)
{
    (void)routine;
    int src_dev = mpishmem_gpu_local_dev(src, n) >= 0;
    mpishmem_lane_t *l = mpishmem_segment_lane(s, ctx->lane);
    int rank = mpishmem_segment_rank(s, pe);
    if (s->gpu == NULL) {
        if (!src_dev)
            return 0;
        if (mpishmem_segment_peer(s, pe) != NULL) {
            mpishmem_cuda_copy(mpishmem_segment_peer(s, pe) + off, 0, src, 1, n);
            mpishmem_note_store();
        } else if (mpishmem_gpu_mpi_aware) {
            mpishmem_mpi_put_route(ctx, s, l, rank, off, src, n, pe, blocking);
        } else {
            staged_put(l, rank, off, src, n);
            mpishmem_lane_mark(&ctx->pending, s, l, pe);
        }
        return 1;
    }
    char *ipc = ipc_of(s, pe);
    if (ipc != NULL)
        mpishmem_cuda_copy(ipc + off, 1, src, src_dev, n);
    else if (s->gpu->aware && !src_dev)
        return 0; /* MPI takes a host source into device memory: the host path */
    else if (s->gpu->aware)
        mpishmem_mpi_put_route(ctx, s, l, rank, off, src, n, pe, blocking);
    else
        mpishmem_gpu_agent_put(s, pe, off, src, src_dev, n);
    return 1;
}

int mpishmem_gpu_get(const char *routine, shmem_ctx_t ctx, mpishmem_segment_t *s, size_t off,
                     void *dest, size_t n, int pe, int blocking)
{
    (void)routine;
    int dest_dev = mpishmem_gpu_local_dev(dest, n) >= 0;
    mpishmem_lane_t *l = mpishmem_segment_lane(s, ctx->lane);
    int rank = mpishmem_segment_rank(s, pe);
    if (s->gpu == NULL) {
        if (!dest_dev)
            return 0;
        if (mpishmem_segment_peer(s, pe) != NULL) {
            mpishmem_cuda_copy(dest, 1, mpishmem_segment_peer(s, pe) + off, 0, n);
            return 1;
        }
        if (mpishmem_gpu_mpi_aware) {
            mpishmem_mpi_get_route(ctx, s, l, off, dest, n, pe, blocking);
        } else {
            /* Observe this context's earlier puts and AMOs to pe, as
             * mpishmem_mpi_get_route does. */
            mpishmem_segment_flush_pe(&ctx->pending, s, ctx->lane, pe);
            staged_get(l, rank, off, dest, n);
        }
        return 1;
    }
    char *ipc = ipc_of(s, pe);
    if (ipc != NULL) {
        mpishmem_cuda_copy(dest, dest_dev, ipc + off, 1, n);
    } else if (s->gpu->aware) {
        if (!dest_dev)
            return 0;
        mpishmem_mpi_get_route(ctx, s, l, off, dest, n, pe, blocking);
    } else {
        mpishmem_gpu_agent_get(s, pe, off, dest, dest_dev, n);
    }
    return 1;
}

/* Strided transfers touching device memory go one block at a time through
 * the routes above (the route is the same for every block). */
int mpishmem_gpu_strided(const char *routine, shmem_ctx_t ctx, int is_put,
                         mpishmem_segment_t *s, size_t off, char *local, ptrdiff_t tst,
                         ptrdiff_t lst, size_t elem, size_t bsize, size_t nblocks, int pe)
{
    size_t bbytes = bsize * elem;
    int local_dev = mpishmem_gpu_local_dev(local, bbytes) >= 0;
    if (!local_dev && (s->gpu == NULL || (s->gpu->aware && ipc_of(s, pe) == NULL)))
        return 0; /* host memory, or a GPU-aware MPI: the host path's one strided op */
    for (size_t i = 0; i < nblocks; i++) {
        size_t o = off + (size_t)((ptrdiff_t)i * tst * (ptrdiff_t)elem);
        char *b = local + (ptrdiff_t)i * lst * (ptrdiff_t)elem;
        if (is_put)
            mpishmem_gpu_put(routine, ctx, s, o, b, bbytes, pe, 1);
        else
            mpishmem_gpu_get(routine, ctx, s, o, b, bbytes, pe, 1);
    }
    return 1;
}

void mpishmem_gpu_amo(const char *routine, shmem_ctx_t ctx, mpishmem_segment_t *s, int op,
                      size_t off, size_t size, const void *value, const void *cond,
                      void *result, int pe)
{
    (void)routine;
    uint64_t v = 0, c = 0, old;
    if (value)
        memcpy(&v, value, size);
    if (cond)
        memcpy(&c, cond, size);
    if (pe == mpishmem_rt.my_pe) {
        mpishmem_requests_lock();
        old = mpishmem_gpu_amo_apply(s, op, off, size, v, c);
        mpishmem_requests_unlock();
    } else {
        /* A GPU-aware MPI's puts to pe must land before the AMO does. */
        if (s->gpu->aware && ipc_of(s, pe) == NULL)
            mpishmem_segment_flush_pe(&ctx->pending, s, ctx->lane, pe);
        old = mpishmem_gpu_agent_amo(s, pe, op, off, size, v, c);
    }
    if (result) /* an nbi fetch may name device memory; little-endian: low bytes */
        mpishmem_gpu_copy(result, &old, size);
}

/* ---- local copies ------------------------------------------------------------ */

void mpishmem_gpu_copy(void *dst, const void *src, size_t n)
{
    if (n == 0)
        return;
    int dd = mpishmem_gpu_is_device(dst, n), sd = mpishmem_gpu_is_device(src, n);
    uintptr_t d = (uintptr_t)dst, r = (uintptr_t)src;
    if (!dd && !sd) {
        memmove(dst, src, n);
    } else if (dd && sd && d < r + n && r < d + n) {
        /* Overlapping device ranges: CUDA copies need disjoint ones. */
        void *tmp = malloc(n);
        if (tmp == NULL)
            mpishmem_fatal("mpishmem_gpu_copy", "out of memory for %zu bytes", n);
        mpishmem_cuda_copy(tmp, 0, src, 1, n);
        mpishmem_cuda_copy(dst, 1, tmp, 0, n);
        free(tmp);
    } else {
        mpishmem_cuda_copy(dst, dd, src, sd, n);
    }
}

void mpishmem_gpu_zero(void *dst, size_t n)
{
    if (n == 0)
        return;
    if (mpishmem_gpu_is_device(dst, n))
        mpishmem_cuda_set(dst, 0, n);
    else
        memset(dst, 0, n);
}
