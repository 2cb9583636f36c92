/*
 * mpishmem: the CUDA runtime, loaded at run time (cuda_rt.c), and the few
 * device-memory operations the library builds on it.
 *
 * Device rule: every call runs with the library's GPU current and puts
 * back the device the calling thread had (cudaSetDevice only when they
 * differ), so the application's current device never changes under it.
 * Copies run on the library's own non-blocking stream and return only
 * when complete: the data is then in place for every process, with no
 * ordering against the application's streams.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_CUDA_RT_H
#define MPISHMEM_CUDA_RT_H

#include <stddef.h>

/* Loads the runtime (MPISHMEM_CUDART, else libcudart.so and its versions,
 * else the configured toolkit's): 0, or -1 and the reason in why. */
int mpishmem_cuda_load(char *why, size_t why_len);
int mpishmem_cuda_device_count(char *why, size_t why_len);
int mpishmem_cuda_pci_bus_id(int gpu, char *busid, int len);
size_t mpishmem_cuda_total_memory(int gpu);

/* The calling thread's current device, or -1 (no runtime, no device). */
int mpishmem_cuda_current(void);
/* Make gpu current for good (only before MPI_Init, devices.c) and return
 * the device that was current, or -1. */
int mpishmem_cuda_select(int gpu);

/* The GPU every copy below runs on (the PE's: devices.c sets it). */
void mpishmem_cuda_use(int gpu);

/* Device memory of `gpu`: NULL on failure.  free stops on an error. */
void *mpishmem_gpu_alloc(int gpu, size_t bytes);
void mpishmem_gpu_free(int gpu, void *p);
/* Page-locked host memory for staging (NULL on failure). */
void *mpishmem_cuda_host_alloc(size_t bytes);
void mpishmem_cuda_host_free(void *p);

/* Copies of n bytes; *_dev says which sides are device memory (the kind
 * passed to CUDA is explicit).  copy returns when the bytes are in place;
 * copy_start queues it and cuda_wait waits for everything queued. */
void mpishmem_cuda_copy(void *dst, int dst_dev, const void *src, int src_dev, size_t n);
void mpishmem_cuda_copy_start(void *dst, int dst_dev, const void *src, int src_dev, size_t n);
void mpishmem_cuda_wait(void);
void mpishmem_cuda_set(void *p, int value, size_t n); /* device memory, complete on return */

/* The device whose memory p is (CUDA's pointer attributes), or -1 for
 * host memory (managed and page-locked memory count as host: the CPU may
 * touch them). */
int mpishmem_cuda_device_of(const void *p);

/* Inter-process handles (64 bytes): 0 or -1. */
#define MPISHMEM_CUDA_IPC_BYTES 64
int mpishmem_cuda_ipc_handle(void *p, void *handle);
void *mpishmem_cuda_ipc_open(const void *handle); /* NULL on failure */
void mpishmem_cuda_ipc_close(void *p);

#endif
