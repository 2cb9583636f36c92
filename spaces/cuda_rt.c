/*
 * mpishmem: the CUDA runtime, loaded at run time.
 *
 * dlopen keeps CUDA out of the link: programs build with `-lmpishmem` alone
 * and run where no CUDA (or no GPU) exists; the GPU space is then simply
 * unavailable.  With -Dcuda=enabled (or auto with the toolkit present) the
 * real <cuda_runtime_api.h> checks that every pointer we load has the
 * runtime's own type; otherwise the few declarations below stand in.
 * -Dcuda=disabled compiles GPU support out (MPISHMEM_GPU_SUPPORT 0).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "devices.h"
#include "../mpi_backend/error.h"

#if MPISHMEM_GPU_SUPPORT

#if MPISHMEM_CUDA_HEADERS
#include <cuda_runtime_api.h>
typedef enum cudaMemcpyKind mpishmem_cuda_kind_t;
#define MEMCPY_DEFAULT cudaMemcpyDefault
#define CUDA_OK cudaSuccess
#else
/* The subset of the runtime API we call, as the CUDA documentation gives
 * it: error codes are an int-sized enum, cudaSuccess is 0 and
 * cudaMemcpyDefault (direction inferred from unified addressing) is 4. */
typedef int cudaError_t;
typedef int mpishmem_cuda_kind_t;
#define MEMCPY_DEFAULT 4
#define CUDA_OK 0
#endif

/* name, return type, parameter types */
#define CUDA_FUNCS(X)                                                                        \
    X(cudaGetDeviceCount, cudaError_t, (int *))                                              \
    X(cudaSetDevice, cudaError_t, (int))                                                     \
    X(cudaMalloc, cudaError_t, (void **, size_t))                                            \
    X(cudaFree, cudaError_t, (void *))                                                       \
    X(cudaMemset, cudaError_t, (void *, int, size_t))                                        \
    X(cudaMemcpy, cudaError_t, (void *, const void *, size_t, mpishmem_cuda_kind_t))         \
    X(cudaDeviceSynchronize, cudaError_t, (void))                                            \
    X(cudaDeviceGetPCIBusId, cudaError_t, (char *, int, int))                                \
    X(cudaMemGetInfo, cudaError_t, (size_t *, size_t *))                                     \
    X(cudaGetErrorString, const char *, (cudaError_t))

#define DECLARE_PTR(name, ret, args) static ret(*p_##name) args;
CUDA_FUNCS(DECLARE_PTR)

#if MPISHMEM_CUDA_HEADERS
/* Our pointer types must be the runtime's own.  (cudaMemcpy and cudaMemset
 * may be macros for their per-thread-stream variants: the plain exported
 * names are what dlsym finds, and they share the signature.) */
#define CHECK_TYPE(name, ret, args)                                                          \
    _Static_assert(__builtin_types_compatible_p(__typeof__(p_##name), ret(*) args),          \
                   #name " signature");
CUDA_FUNCS(CHECK_TYPE)
_Static_assert(__builtin_types_compatible_p(__typeof__(&cudaMalloc), __typeof__(p_cudaMalloc)),
               "cudaMalloc as declared by the toolkit");
_Static_assert(__builtin_types_compatible_p(__typeof__(&cudaDeviceGetPCIBusId),
                                            __typeof__(p_cudaDeviceGetPCIBusId)),
               "cudaDeviceGetPCIBusId as declared by the toolkit");
#endif

static int load_state; /* 0 untried, 1 loaded, -1 failed */
static char load_why[200];

static void *open_runtime(void)
{
    const char *forced = getenv("MPISHMEM_CUDART");
    if (forced && *forced)
        return dlopen(forced, RTLD_NOW | RTLD_LOCAL);
    static const char *const names[] = {
        "libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0",
#ifdef MPISHMEM_CUDA_LIBDIR
        MPISHMEM_CUDA_LIBDIR "/libcudart.so",
#endif
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
    }
    return NULL;
}

int mpishmem_cuda_load(char *why, size_t why_len)
{
    if (load_state == 0) {
        void *h = open_runtime();
        load_state = -1;
        if (h == NULL) {
            const char *e = dlerror();
            snprintf(load_why, sizeof load_why, "the CUDA runtime (libcudart.so) could not be "
                     "loaded: %s", e ? e : "not found");
        } else {
            load_state = 1;
#define LOAD(name, ret, args)                                                                \
    if (load_state == 1 && (*(void **)&p_##name = dlsym(h, #name)) == NULL) {                \
        snprintf(load_why, sizeof load_why, "the CUDA runtime lacks %s", #name);             \
        load_state = -1;                                                                     \
    }
            CUDA_FUNCS(LOAD)
            if (load_state < 0)
                dlclose(h); /* an unusable runtime is not kept mapped */
        }
    }
    if (load_state < 0 && why)
        snprintf(why, why_len, "%s", load_why);
    return load_state == 1 ? 0 : -1;
}

int mpishmem_cuda_device_count(char *why, size_t why_len)
{
    if (mpishmem_cuda_load(why, why_len) != 0)
        return 0;
    int n = 0;
    cudaError_t e = p_cudaGetDeviceCount(&n);
    if (e != CUDA_OK) {
        snprintf(why, why_len, "the CUDA runtime finds no usable device: %s (error %d)",
                 p_cudaGetErrorString(e), (int)e);
        return 0;
    }
    if (n == 0)
        snprintf(why, why_len, "the CUDA runtime reports 0 devices");
    return n;
}

int mpishmem_cuda_pci_bus_id(int gpu, char *busid, int len)
{
    return p_cudaDeviceGetPCIBusId(busid, len, gpu) == CUDA_OK ? 0 : -1;
}

size_t mpishmem_cuda_total_memory(int gpu)
{
    size_t free_b = 0, total = 0;
    if (p_cudaSetDevice(gpu) != CUDA_OK || p_cudaMemGetInfo(&free_b, &total) != CUDA_OK)
        return 0;
    return total;
}

static void check(const char *what, cudaError_t e)
{
    if (e != CUDA_OK)
        mpishmem_fatal(what, "CUDA error %d: %s", (int)e, p_cudaGetErrorString(e));
}

void *mpishmem_gpu_alloc(int gpu, size_t bytes)
{
    void *p = NULL;
    if (p_cudaSetDevice(gpu) != CUDA_OK || p_cudaMalloc(&p, bytes) != CUDA_OK)
        return NULL;
    return p;
}

void mpishmem_gpu_free(int gpu, void *p)
{
    check("cudaSetDevice", p_cudaSetDevice(gpu));
    check("cudaFree", p_cudaFree(p));
}

void mpishmem_gpu_memset(int gpu, void *p, int value, size_t bytes)
{
    check("cudaSetDevice", p_cudaSetDevice(gpu));
    check("cudaMemset", p_cudaMemset(p, value, bytes));
    /* cudaMemset may return before the device is done: calloc's zeros must
     * be there when the closing barrier lets other PEs in. */
    check("cudaDeviceSynchronize", p_cudaDeviceSynchronize());
}

void mpishmem_gpu_memcpy(int gpu, void *dst, const void *src, size_t bytes)
{
    check("cudaSetDevice", p_cudaSetDevice(gpu));
    check("cudaMemcpy", p_cudaMemcpy(dst, src, bytes, MEMCPY_DEFAULT));
}

#else /* GPU support compiled out: the runtime is never loaded. */

int mpishmem_cuda_load(char *why, size_t why_len)
{
    snprintf(why, why_len, "GPU support is compiled out of this build (-Dcuda=disabled)");
    return -1;
}

int mpishmem_cuda_device_count(char *why, size_t why_len)
{
    mpishmem_cuda_load(why, why_len);
    return 0;
}

/* With no runtime there is never a GPU (mpishmem_devices.gpu stays -1), so
 * no space can reach the routines below; they refuse rather than pretend. */
int mpishmem_cuda_pci_bus_id(int gpu, char *busid, int len)
{
    (void)gpu, (void)busid, (void)len;
    return -1;
}

size_t mpishmem_cuda_total_memory(int gpu)
{
    (void)gpu;
    return 0;
}

void *mpishmem_gpu_alloc(int gpu, size_t bytes)
{
    (void)gpu, (void)bytes;
    return NULL;
}

static void __attribute__((noreturn)) compiled_out(const char *what)
{
    mpishmem_fatal(what, "GPU support is compiled out of this build (-Dcuda=disabled)");
}

void mpishmem_gpu_free(int gpu, void *p)
{
    (void)gpu, (void)p;
    compiled_out("cudaFree");
}

void mpishmem_gpu_memset(int gpu, void *p, int value, size_t bytes)
{
    (void)gpu, (void)p, (void)value, (void)bytes;
    compiled_out("cudaMemset");
}

void mpishmem_gpu_memcpy(int gpu, void *dst, const void *src, size_t bytes)
{
    (void)gpu, (void)dst, (void)src, (void)bytes;
    compiled_out("cudaMemcpy");
}

#endif
