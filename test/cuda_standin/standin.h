/*
 * A stand-in CUDA runtime for the tests (libcudart_standin.so).
 *
 * The library loads it in place of libcudart through MPISHMEM_CUDART, so
 * every GPU path runs on machines without a GPU.  It is strict where a
 * real GPU would fail or race, so a test passes only if the library would
 * be right on one:
 *   - device memory is a memfd mapped with no access at the "device"
 *     address cudaMalloc returns: any load or store by the CPU faults, and
 *     the fault handler names the address and stops the process.  The
 *     stand-in itself reaches the pages through a second, private mapping
 *     (the shadow), only inside its copy and set routines;
 *   - device addresses come from one reserved range, as with CUDA's unified
 *     addressing: host and device memory never share a page;
 *   - work is deferred as on a GPU: device-to-device copies, memsets and
 *     copies on streams run only when something synchronizes with them
 *     (cudaStreamSynchronize, cudaDeviceSynchronize, a synchronous copy
 *     involving host memory, cudaFree); a copy from pageable host memory
 *     takes its snapshot at once, one from pinned memory reads it when it
 *     runs.  A missing synchronization is a stale value, every time;
 *   - memcpy kinds must match the memory (cudaMemcpyDefault excepted),
 *     streams must be used with their device current, device ranges must
 *     lie inside their allocation;
 *   - the current device is per thread; IPC handles open the owner's memfd
 *     through /proc/PID/fd in another process of the machine (never the
 *     owner itself, as in CUDA).
 *
 * Environment: STANDIN_CUDA_DEVICES (devices, default 1; 0 = none),
 * STANDIN_CUDA_MEM (bytes per device, default 16 GiB).  Test controls
 * are in standin_control.h.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef STANDIN_H
#define STANDIN_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "../../mpi_backend/gpu/cuda_api.h"

/* Without the toolkit's headers the runtime's functions are declared here,
 * from the library's list, so that callers of the stand-in (its self-test)
 * are checked against it (GCC 14 refuses implicit declarations). */
#if !MPISHMEM_CUDA_HEADERS
#define STANDIN_DECLARE(name, ret, params) ret name params;
MPISHMEM_CUDA_FUNCS(STANDIN_DECLARE)
#undef STANDIN_DECLARE
/* Beyond the library's list: the stand-in's synchronous calls. */
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void *p, int value, size_t n);
cudaError_t cudaDeviceSynchronize(void);
#endif

enum region_kind { REGION_FREE = 0, REGION_DEVICE, REGION_IPC, REGION_PINNED };

typedef struct region {
    char *dev;          /* the address the program sees */
    char *shadow;       /* the stand-in's own read/write view (= dev for pinned) */
    size_t size;        /* bytes mapped */
    size_t user_size;   /* bytes asked for */
    int kind;           /* enum region_kind; REGION_FREE: unused slot */
    int device;         /* CUDA device */
    int fd;             /* memfd of a device allocation (for IPC), else -1 */
    uint64_t id;        /* allocation number, in IPC handles */
} region_t;

#define STANDIN_MAX_REGIONS 1024
extern region_t standin_regions[STANDIN_MAX_REGIONS];
extern pthread_mutex_t standin_lock; /* regions and streams change under it */

/* The region holding p, or NULL.  Safe in a signal handler (no lock). */
region_t *standin_find(const void *p);
/* p's device memory as the stand-in sees it, after checking that
 * [p, p+n) lies inside its allocation; NULL if p is not device memory,
 * (void *)-1 if the range runs past the allocation. */
char *standin_shadow_range(const void *p, size_t n);

int standin_device_count(void);
size_t standin_device_memory(void);
int standin_current_device(void);

/* Device memory and its IPC mappings (standin_mem.c).  0 or a CUDA error. */
cudaError_t standin_alloc_device(void **p, size_t n, int device);
cudaError_t standin_free_device(void *p);
cudaError_t standin_alloc_pinned(void **p, size_t n);
cudaError_t standin_free_pinned(void *p);
cudaError_t standin_ipc_get(cudaIpcMemHandle_t *h, void *p);
cudaError_t standin_ipc_open(void **p, const cudaIpcMemHandle_t *h, int device);
cudaError_t standin_ipc_close(void *p);
size_t standin_allocated(int device);
/* Program access (standin_control.h): device pages readable/writable by
 * the CPU (allowed) or not. */
void standin_set_access(int allowed);
int standin_access_allowed(void);

/* Work queues (standin_queue.c).  stream NULL: the legacy stream of the
 * current device. */
cudaError_t standin_enqueue_copy(cudaStream_t s, void *dst, const void *src, size_t n,
                                 enum cudaMemcpyKind kind, int synchronous);
cudaError_t standin_enqueue_set(cudaStream_t s, void *dst, int value, size_t n);
cudaError_t standin_stream_create(cudaStream_t *s, unsigned flags);
cudaError_t standin_stream_destroy(cudaStream_t s);
cudaError_t standin_stream_sync(cudaStream_t s);
void standin_device_sync(int device);
void standin_sync_all(void);

/* The fault handler (standin_fault.c), installed with the first device
 * mapping. */
void standin_fault_install(void);

/* Counters for the tests (standin_control.h names them). */
extern unsigned long standin_n_pointer_queries, standin_n_set_device, standin_n_ipc_opens,
    standin_n_copies;

#endif
