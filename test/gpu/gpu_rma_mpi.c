/*
 * Issue 18, defect 6: RMA on a GPU space must not hinge on
 * MPIX_Query_cuda_support.  Run (a) with an ordinary MPI, which says no:
 * puts, gets and AMOs on another PE's device memory must still work
 * (before the fix the space offered no RMA at all and every put stopped);
 * and (b) with an MPI that says yes but whose one-sided operations miss
 * device memory (STANDIN_MPI_GPU_AWARE=broken-rma): the library must find
 * out and not trust it (before the fix the data was silently wrong).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu_common.h"

enum { N = 3000 };

int main(void)
{
    int me, npes, right, left;
    gpu_start(&me, &npes, &right, &left);
    shmem_space_cap_t caps = 0;
    shmem_space_get_caps(SHMEM_SPACE_GPU, &caps);
    EXPECT(caps & SHMEM_SPACE_CAP_RMA, "the GPU space does not offer RMA");
    unsigned char *src = shmem_space_malloc(SHMEM_SPACE_GPU, N);
    unsigned char *dst = shmem_space_malloc(SHMEM_SPACE_GPU, N);
    long *w = shmem_space_calloc(SHMEM_SPACE_GPU, 1, sizeof(long));
    unsigned char h[N];
    fill(h, me, N);
    to_dev(src, h, N);
    shmem_barrier_all();
    shmem_putmem(dst, src, N, right);
    shmem_barrier_all();
    from_dev(h, dst, N);
    size_t bad = first_wrong(h, left, N);
    EXPECT(bad == N, "put from PE %d: byte %zu wrong", left, bad);
    memset(h, 0, N);
    shmem_getmem(h, dst, N, right);
    bad = first_wrong(h, me, N);
    EXPECT(bad == N, "get: byte %zu wrong", bad);
    shmem_barrier_all();
    shmem_long_atomic_add(w, me + 1, right);
    shmem_barrier_all();
    EXPECT(shmem_long_atomic_fetch(w, me) == left + 1, "AMO from the left");
    shmem_barrier_all();
    shmem_space_free(SHMEM_SPACE_GPU, w);
    shmem_space_free(SHMEM_SPACE_GPU, dst);
    shmem_space_free(SHMEM_SPACE_GPU, src);
    return gpu_finish("gpu_rma_mpi");
}
