/*
 * mpishmem: the full path of a put or get (rma_path.h), out of line, so
 * the inline direct route of each public routine needs no stack frame
 * around the rest.  A file of its own: the full path calls the GPU path
 * (gpu_rma.c), which calls the MPI side (rma_mpi.c).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "rma_path.h"

void mpishmem_put_bytes_any(const char *routine, shmem_ctx_t ctx, void *dest, const void *src,
                            size_t n, int pe)
{
    mpishmem_put_bytes_full(routine, ctx, dest, src, n, pe, 1);
}

void mpishmem_put_bytes_any_nbi(const char *routine, shmem_ctx_t ctx, void *dest,
                                const void *src, size_t n, int pe)
{
    mpishmem_put_bytes_full(routine, ctx, dest, src, n, pe, 0);
}

void mpishmem_get_bytes_any(const char *routine, shmem_ctx_t ctx, void *dest, const void *src,
                            size_t n, int pe)
{
    mpishmem_get_bytes_full(routine, ctx, dest, src, n, pe, 1);
}

void mpishmem_get_bytes_any_nbi(const char *routine, shmem_ctx_t ctx, void *dest,
                                const void *src, size_t n, int pe)
{
    mpishmem_get_bytes_full(routine, ctx, dest, src, n, pe, 0);
}
