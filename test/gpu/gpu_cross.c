/*
 * Issue 18, defect 2: RMA between spaces on one node (the load/store
 * route) must not copy device memory with the CPU: a device source into a
 * CPU-space or default-heap target, a get from them into device memory,
 * and the same with a GPU-space target and a host source or destination.
 * Before the fix the stand-in stopped the first such put.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu_common.h"

enum { N = 4096 };

static void check(const char *what, const void *buf, int who)
{
    unsigned char h[N];
    if (gpu_device_of(buf) >= 0)
        from_dev(h, buf, N);
    else
        memcpy(h, buf, N);
    size_t w = first_wrong(h, who, N);
    EXPECT(w == N, "%s: byte %zu of PE %d's data is wrong", what, w, who);
}

int main(void)
{
    int me, npes, right, left;
    gpu_start(&me, &npes, &right, &left);
    unsigned char *gpu_buf = shmem_space_malloc(SHMEM_SPACE_GPU, N);
    unsigned char *cpu_buf = shmem_space_malloc(SHMEM_SPACE_CPU, N);
    unsigned char *heap = shmem_malloc(N);
    unsigned char *user = gpu_alloc(N), h[N];
    EXPECT(gpu_device_of(gpu_buf) >= 0 && gpu_device_of(cpu_buf) < 0, "memory kinds");
    fill(h, me, N);
    to_dev(gpu_buf, h, N);
    to_dev(user, h, N);
    shmem_barrier_all();
    /* Device sources into host targets. */
    shmem_putmem(cpu_buf, gpu_buf, N, right);
    shmem_putmem(heap, user, N, right);
    shmem_barrier_all();
    check("GPU space -> CPU space", cpu_buf, left);
    check("cudaMalloc -> default heap", heap, left);
    /* Gets from host memory into device destinations. */
    memset(h, 0, N);
    to_dev(user, h, N);
    shmem_barrier_all();
    shmem_getmem(user, cpu_buf, N, right); /* the right one holds mine */
    check("CPU space -> cudaMalloc (get)", user, me);
    shmem_getmem(gpu_buf, heap, N, right);
    check("default heap -> GPU space (get)", gpu_buf, me);
    shmem_barrier_all();
    /* Host memory into the GPU space, and back. */
    fill(h, me + 50, N);
    shmem_putmem(gpu_buf, h, N, right);
    shmem_barrier_all();
    check("host -> GPU space", gpu_buf, left + 50);
    memset(h, 0, N);
    shmem_getmem(h, gpu_buf, N, right);
    check("GPU space -> host (get)", h, me + 50);
    shmem_barrier_all();
    gpu.free_(user);
    shmem_free(heap);
    shmem_space_free(SHMEM_SPACE_CPU, cpu_buf);
    shmem_space_free(SHMEM_SPACE_GPU, gpu_buf);
    return gpu_finish("gpu_cross");
}
