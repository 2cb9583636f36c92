/*
 * Issue 18, defect 1: a blocking put of 1 KiB or less whose source is
 * device memory must not be staged with a CPU copy (the bounce buffer of
 * rma_mpi.c, and the batch staging of a SHMEM_CTX_SESSION_BATCH context).
 * Targets are host memory (the default heap) reached through MPI: run with
 * MPISHMEM_SHM=0 and on pretend nodes, that is the bounce-buffer route.
 * Before the fix the stand-in stopped the first put ("the CPU touched
 * device memory").
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu_common.h"

int main(void)
{
    int me, npes, right, left;
    gpu_start(&me, &npes, &right, &left);
    static const size_t sizes[] = {1, 8, 100, 512, 1024};
    unsigned char *dst = shmem_malloc(1024 * 5);
    unsigned char *sym_src = shmem_space_malloc(SHMEM_SPACE_GPU, 1024); /* symmetric */
    unsigned char *user_src = gpu_alloc(1024);                         /* the program's */
    unsigned char h[1024];
    fill(h, me, sizeof h);
    to_dev(sym_src, h, sizeof h);
    to_dev(user_src, h, sizeof h);
    shmem_ctx_t batch;
    EXPECT(shmem_ctx_create(0, &batch) == 0, "context");
    shmem_ctx_session_start(batch, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    for (int route = 0; route < 3; route++) {
        memset(dst, 0xee, 1024 * 5);
        shmem_barrier_all();
        size_t at = 0;
        for (int k = 0; k < 5; k++) {
            const void *src = route == 1 ? user_src : sym_src;
            if (route == 2)
                shmem_ctx_putmem(batch, dst + at, src, sizes[k], right);
            else
                shmem_putmem(dst + at, src, sizes[k], right);
            at += 1024;
        }
        shmem_ctx_quiet(batch);
        shmem_barrier_all();
        for (int k = 0; k < 5; k++) {
            size_t w = first_wrong(dst + 1024 * k, left, sizes[k]);
            EXPECT(w == sizes[k], "route %d: %zu-byte put: byte %zu wrong", route, sizes[k], w);
        }
        shmem_barrier_all();
    }
    shmem_ctx_session_stop(batch);
    shmem_ctx_destroy(batch);
    /* The typed form with an element count. */
    long *ldst = shmem_malloc(16 * sizeof(long)), lh[16];
    long *lsrc = gpu_alloc(16 * sizeof(long));
    for (int i = 0; i < 16; i++)
        lh[i] = me * 1000 + i;
    to_dev(lsrc, lh, sizeof lh);
    shmem_barrier_all();
    shmem_long_put(ldst, lsrc, 16, right);
    shmem_barrier_all();
    for (int i = 0; i < 16; i++)
        EXPECT(ldst[i] == left * 1000 + i, "long_put element %d: %ld", i, ldst[i]);
    shmem_barrier_all();
    gpu.free_(lsrc);
    gpu.free_(user_src);
    shmem_free(ldst);
    shmem_space_free(SHMEM_SPACE_GPU, sym_src);
    shmem_free(dst);
    return gpu_finish("gpu_bounce");
}
