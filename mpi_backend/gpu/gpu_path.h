/*
 * mpishmem: the data path where device memory is involved (docs/spaces.md,
 * "GPU memory").
 *
 * Rule: the library never loads or stores device memory from the CPU.
 *   - Every segment knows its memory kind: s->gpu is NULL for host memory,
 *     else the device segment's state below.
 *   - A local buffer (the source of a put, the destination of a get, the
 *     ivars of a wait) is classified by the runtime's pointer attributes,
 *     the answer cached per thread by address range (gpu_kind.c).
 *   - mpishmem_gpu_on is 0 until device memory can exist (the CUDA runtime
 *     found a GPU): until then every RMA pays one predictable branch and
 *     nothing else; every AMO tests s->gpu, in a line it already reads.
 * Device memory then moves by the runtime's copies (on one node, peers'
 * device memory is opened with IPC handles: device-to-device copies, the
 * GPU counterpart of the load/store path), by a GPU-aware MPI when one is
 * detected, or else through the target PE's agent (gpu_agent.c), which
 * serves requests from pinned host buffers while its PE is inside the
 * library.  Every AMO on device memory is applied by the PE that owns it,
 * so they are atomic with respect to each other.  Operations that do not
 * go through MPI RMA complete before they return, nbi forms included, so
 * quiet and fence need nothing for them.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_GPU_PATH_H
#define MPISHMEM_GPU_PATH_H

#include <stddef.h>
#include <shmem.h>
#include "runtime.h"
#include "segment.h"

/* Device memory may exist: classify local buffers. */
extern int mpishmem_gpu_on;

typedef struct mpishmem_gpu_seg {
    int gpu;        /* CUDA device of this PE's memory */
    int id;         /* the same on every member: how agents name the segment */
    int aware;      /* MPI reads and writes this memory itself (GPU-aware, probed) */
    char **ipc;     /* [n_pes]: each PE's memory opened here (self: base), or NULL */
    MPI_Comm comm;  /* the members (not owned) */
} mpishmem_gpu_seg_t;

/* Bumped when device segments come or go: clears the cached answers. */
extern unsigned mpishmem_gpu_kind_generation;

/* Device ordinal of the memory at [p, p+n), or -1 for host memory.  Only
 * valid while mpishmem_gpu_on. */
int mpishmem_gpu_local_dev(const void *p, size_t n);

static inline int mpishmem_gpu_is_device(const void *p, size_t n)
{
    return MPISHMEM_UNLIKELY(mpishmem_gpu_on) && mpishmem_gpu_local_dev(p, n) >= 0;
}

/* The GPU cases of mpishmem_put_bytes / get_bytes / strided (rma_path.h),
 * called once the target segment s and its offset are known: 1 when done
 * here, 0 when both sides are host memory (or MPI can take them as they
 * are) and the host path goes on. */
int mpishmem_gpu_put(const char *routine, shmem_ctx_t ctx, mpishmem_segment_t *s, size_t off,
                     const void *src, size_t n, int pe, int blocking);
int mpishmem_gpu_get(const char *routine, shmem_ctx_t ctx, mpishmem_segment_t *s, size_t off,
                     void *dest, size_t n, int pe, int blocking);
int mpishmem_gpu_strided(const char *routine, shmem_ctx_t ctx, int is_put,
                         mpishmem_segment_t *s, size_t off, char *local, ptrdiff_t tst,
                         ptrdiff_t lst, size_t elem, size_t bsize, size_t nblocks, int pe);
/* An AMO on device memory (s->gpu set): applied by its owner. */
void mpishmem_gpu_amo(const char *routine, shmem_ctx_t ctx, mpishmem_segment_t *s, int op,
                      size_t off, size_t size, const void *value, const void *cond,
                      void *result, int pe);

/* Copies between any two buffers, each host or device memory, complete on
 * return (a plain memmove when neither is device memory).  The waits,
 * collectives and realloc use them. */
void mpishmem_gpu_copy(void *dst, const void *src, size_t n);
void mpishmem_gpu_zero(void *dst, size_t n);

/* Device segments (gpu_seg.c): set up a segment over device memory at
 * s->base whose windows exist, collective over comm; 0 or -1.  `aware`:
 * MPI may be GPU-aware (0: never; 1: must be, checked; -1: check and
 * decide).  Teardown is collective over comm too. */
int mpishmem_gpu_seg_create(mpishmem_segment_t *s, int gpu, MPI_Comm comm, int aware);
void mpishmem_gpu_seg_destroy(mpishmem_segment_t *s);
/* Whether MPI passed the check on device windows (for local device
 * buffers whose target is host memory); 0 until a device segment exists. */
extern int mpishmem_gpu_mpi_aware;

#endif
