/*
 * Stand-in CUDA runtime: the runtime API entry points (those of
 * mpi_backend/gpu/cuda_api.h, plus cudaMemcpy/cudaMemset/cudaDeviceSynchronize
 * for programs) and the test controls (standin_control.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>
#include "standin.h"
#include "standin_control.h"

static __thread cudaError_t last_error;

static cudaError_t note(cudaError_t e)
{
    if (e != cudaSuccess)
        last_error = e;
    return e;
}

cudaError_t cudaGetDeviceCount(int *n)
{
    *n = standin_device_count();
    return note(*n == 0 ? cudaErrorNoDevice : cudaSuccess);
}

cudaError_t cudaMalloc(void **p, size_t n)
{
    if (standin_device_count() == 0)
        return note(cudaErrorNoDevice);
    return note(standin_alloc_device(p, n, standin_current_device()));
}

cudaError_t cudaFree(void *p)
{
    return note(standin_free_device(p));
}

cudaError_t cudaMallocHost(void **p, size_t n)
{
    return note(standin_alloc_pinned(p, n));
}

cudaError_t cudaFreeHost(void *p)
{
    return note(standin_free_pinned(p));
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    return note(standin_enqueue_copy(NULL, dst, src, n, kind, 1));
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
                            cudaStream_t s)
{
    return note(standin_enqueue_copy(s, dst, src, n, kind, 0));
}

cudaError_t cudaMemset(void *p, int value, size_t n)
{
    return note(standin_enqueue_set(NULL, p, value, n));
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t s)
{
    return note(standin_enqueue_set(s, p, value, n));
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags)
{
    return note(standin_stream_create(s, flags));
}

cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    return note(standin_stream_destroy(s));
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    return note(standin_stream_sync(s));
}

cudaError_t cudaDeviceSynchronize(void)
{
    standin_device_sync(standin_current_device());
    return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p)
{
    __atomic_fetch_add(&standin_n_pointer_queries, 1, __ATOMIC_RELAXED);
    memset(a, 0, sizeof *a);
    region_t *r = standin_find(p);
    if (r == NULL) {
        a->type = cudaMemoryTypeUnregistered;
        a->device = -2;
        return cudaSuccess;
    }
    a->device = r->device;
    a->devicePointer = (void *)p;
    if (r->kind == REGION_PINNED) {
        a->type = cudaMemoryTypeHost;
        a->hostPointer = (void *)p;
    } else {
        a->type = cudaMemoryTypeDevice;
    }
    return cudaSuccess;
}

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *h, void *p)
{
    return note(standin_ipc_get(h, p));
}

cudaError_t cudaIpcOpenMemHandle(void **p, cudaIpcMemHandle_t h, unsigned int flags)
{
    (void)flags;
    return note(standin_ipc_open(p, &h, standin_current_device()));
}

cudaError_t cudaIpcCloseMemHandle(void *p)
{
    return note(standin_ipc_close(p));
}

cudaError_t cudaDeviceGetPCIBusId(char *busid, int len, int device)
{
    if (device < 0 || device >= standin_device_count())
        return note(cudaErrorInvalidDevice);
    snprintf(busid, (size_t)len, "0000:%02x:00.0", 0x10 + device);
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total)
{
    if (standin_device_count() == 0)
        return note(cudaErrorNoDevice);
    *total = standin_device_memory();
    *free_b = *total - standin_allocated(standin_current_device());
    return cudaSuccess;
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    return e;
}

const char *cudaGetErrorString(cudaError_t e)
{
    switch ((int)e) {
    case 0: return "no error (stand-in)";
    case 1: return "invalid argument (stand-in: a wrong memcpy kind or a range past its "
                   "allocation)";
    case 2: return "out of memory (stand-in)";
    case 100: return "no CUDA-capable device is detected (stand-in: STANDIN_CUDA_DEVICES=0)";
    case 101: return "invalid device ordinal (stand-in)";
    case 400: return "invalid resource handle (stand-in: a stream used while another device "
                     "is current)";
    default: return "unknown error (stand-in)";
    }
}

/* ---- test controls -------------------------------------------------------- */

void *standin_shadow(const void *p)
{
    char *s = standin_shadow_range(p, 0);
    return s == (char *)-1 ? NULL : s;
}

unsigned long standin_counter(const char *name)
{
    if (!strcmp(name, "pointer_queries"))
        return __atomic_load_n(&standin_n_pointer_queries, __ATOMIC_RELAXED);
    if (!strcmp(name, "set_device"))
        return __atomic_load_n(&standin_n_set_device, __ATOMIC_RELAXED);
    if (!strcmp(name, "ipc_opens"))
        return __atomic_load_n(&standin_n_ipc_opens, __ATOMIC_RELAXED);
    if (!strcmp(name, "copies"))
        return __atomic_load_n(&standin_n_copies, __ATOMIC_RELAXED);
    return 0;
}

void standin_program_access(int allowed)
{
    standin_set_access(allowed);
}
