/*
 * Issue 18, defect 4: shmem_realloc on device memory that moves the block
 * copies it on the device; the copy must be complete before realloc's
 * closing synchronization lets other PEs write into the new block.  A
 * device-to-device cudaMemcpy returns before it is done (the stand-in
 * runs it only when something synchronizes), so without a synchronization
 * the late copy overwrote the neighbour's put with the old contents.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu_common.h"

enum { N = 256 };

int main(void)
{
    int me, npes, right, left;
    gpu_start(&me, &npes, &right, &left);
    long *a = shmem_malloc(N * sizeof(long)), h[2 * N];
    long *fence_block = shmem_malloc(64); /* a realloc in place is impossible */
    for (int i = 0; i < N; i++)
        h[i] = -1 - i;
    to_dev(a, h, N * sizeof(long));
    shmem_barrier_all();
    long *b = shmem_realloc(a, 2 * N * sizeof(long));
    EXPECT(b != NULL && b != a, "realloc did not move the block");
    /* The neighbour overwrites the moved contents at once. */
    long mine[N];
    for (int i = 0; i < N; i++)
        mine[i] = me * 10000 + i;
    shmem_long_put(b, mine, N, right);
    shmem_barrier_all();
    from_dev(h, b, 2 * N * sizeof(long));
    for (int i = 0; i < N; i++)
        EXPECT(h[i] == left * 10000 + i, "element %d: %ld, not the neighbour's %ld", i, h[i],
               (long)(left * 10000 + i));
    shmem_free(fence_block);
    shmem_free(b);
    return gpu_finish("gpu_realloc");
}
