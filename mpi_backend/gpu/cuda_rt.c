/*
 * mpishmem: the CUDA runtime, loaded at run time.
 *
 * dlopen keeps CUDA out of the link: programs build with `-lmpishmem` alone
 * and run where no CUDA (or no GPU) exists; the GPU space is then simply
 * unavailable.  With -Dcuda=enabled (or auto with the toolkit present) the
 * real <cuda_runtime_api.h> checks that every pointer we load has the
 * runtime's own type; otherwise the declarations of cuda_api.h stand in.
 * -Dcuda=disabled (MPISHMEM_GPU_SUPPORT 0) never loads the runtime, so
 * nothing below it can be reached.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_api.h"
#include "cuda_rt.h"
#include "error.h"
#include "env_read.h"

#define DECLARE_PTR(name, ret, args) static ret(*p_##name) args;
MPISHMEM_CUDA_FUNCS(DECLARE_PTR)
_Static_assert(sizeof(cudaIpcMemHandle_t) == MPISHMEM_CUDA_IPC_BYTES, "IPC handle size");

#if MPISHMEM_CUDA_HEADERS
/* Our pointer types must be the runtime's own.  (cudaMemcpyAsync and
 * cudaMemsetAsync may be macros for their per-thread-stream variants: the
 * plain exported names are what dlsym finds, and they share the
 * signature.) */
#define CHECK_TYPE(name, ret, args)                                                          \
    _Static_assert(__builtin_types_compatible_p(__typeof__(p_##name), ret(*) args),          \
                   #name " signature");
MPISHMEM_CUDA_FUNCS(CHECK_TYPE)
_Static_assert(__builtin_types_compatible_p(__typeof__(&cudaMalloc), __typeof__(p_cudaMalloc)),
               "cudaMalloc as declared by the toolkit");
_Static_assert(__builtin_types_compatible_p(__typeof__(&cudaPointerGetAttributes),
                                            __typeof__(p_cudaPointerGetAttributes)),
               "cudaPointerGetAttributes as declared by the toolkit");
#endif

static int load_state; /* 0 untried, 1 loaded, -1 failed */
static char load_why[200];

static void *open_runtime(void)
{
    const char *forced = mpishmem_env("MPISHMEM_CUDART");
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
#if !MPISHMEM_GPU_SUPPORT
    snprintf(load_why, sizeof load_why,
             "GPU support is compiled out of this build (-Dcuda=disabled)");
    load_state = -1;
#endif
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
            MPISHMEM_CUDA_FUNCS(LOAD)
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
    if (e != cudaSuccess) {
        snprintf(why, why_len, "the CUDA runtime finds no usable device: %s (error %d)",
                 p_cudaGetErrorString(e), (int)e);
        p_cudaGetLastError();
        return 0;
    }
    if (n == 0)
        snprintf(why, why_len, "the CUDA runtime reports 0 devices");
    return n;
}

static void check(const char *what, cudaError_t e)
{
    if (MPISHMEM_UNLIKELY(e != cudaSuccess))
        mpishmem_fatal(what, "CUDA error %d: %s", (int)e, p_cudaGetErrorString(e));
}

/* ---- the current device ----------------------------------------------------- */

int mpishmem_cuda_current(void)
{
    int d = -1;
    if (load_state != 1 || p_cudaGetDevice(&d) != cudaSuccess)
        return -1;
    return d;
}

int mpishmem_cuda_select(int gpu)
{
    int prev = mpishmem_cuda_current();
    if (prev != gpu)
        check("cudaSetDevice", p_cudaSetDevice(gpu));
    return prev;
}

/* Make gpu current for one operation; returns what to put back. */
static int enter(int gpu)
{
    int cur = mpishmem_cuda_current();
    if (cur != gpu)
        check("cudaSetDevice", p_cudaSetDevice(gpu));
    return cur;
}

static void leave(int gpu, int prev)
{
    if (prev >= 0 && prev != gpu)
        check("cudaSetDevice", p_cudaSetDevice(prev));
}

int mpishmem_cuda_pci_bus_id(int gpu, char *busid, int len)
{
    return p_cudaDeviceGetPCIBusId(busid, len, gpu) == cudaSuccess ? 0 : -1;
}

size_t mpishmem_cuda_total_memory(int gpu)
{
    size_t free_b = 0, total = 0;
    int prev = enter(gpu);
    if (p_cudaMemGetInfo(&free_b, &total) != cudaSuccess)
        total = 0;
    leave(gpu, prev);
    return total;
}

/* ---- memory ------------------------------------------------------------------ */

static int lib_gpu = -1;
static cudaStream_t lib_stream;
static pthread_mutex_t stream_lock = PTHREAD_MUTEX_INITIALIZER;

void mpishmem_cuda_use(int gpu)
{
    lib_gpu = gpu;
}

/* The library's stream on its GPU (which must be current), made once. */
static cudaStream_t stream(void)
{
    if (MPISHMEM_UNLIKELY(lib_stream == NULL)) {
        pthread_mutex_lock(&stream_lock);
        if (lib_stream == NULL) {
            cudaStream_t s;
            check("cudaStreamCreateWithFlags", p_cudaStreamCreateWithFlags(&s,
                                                                           cudaStreamNonBlocking));
            __atomic_store_n(&lib_stream, s, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&stream_lock);
    }
    return lib_stream;
}

void *mpishmem_gpu_alloc(int gpu, size_t bytes)
{
    void *p = NULL;
    int prev = enter(gpu);
    if (p_cudaMalloc(&p, bytes) != cudaSuccess) {
        p = NULL;
        p_cudaGetLastError();
    }
    leave(gpu, prev);
    return p;
}

void mpishmem_gpu_free(int gpu, void *p)
{
    int prev = enter(gpu);
    check("cudaFree", p_cudaFree(p));
    leave(gpu, prev);
}

void *mpishmem_cuda_host_alloc(size_t bytes)
{
    void *p = NULL;
    if (p_cudaMallocHost(&p, bytes) != cudaSuccess) {
        p_cudaGetLastError();
        return NULL;
    }
    return p;
}

void mpishmem_cuda_host_free(void *p)
{
    check("cudaFreeHost", p_cudaFreeHost(p));
}

static enum cudaMemcpyKind kind_of(int dst_dev, int src_dev)
{
    return dst_dev ? (src_dev ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                   : (src_dev ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
}

void mpishmem_cuda_copy_start(void *dst, int dst_dev, const void *src, int src_dev, size_t n)
{
    int prev = enter(lib_gpu);
    check("cudaMemcpyAsync", p_cudaMemcpyAsync(dst, src, n, kind_of(dst_dev, src_dev),
                                               stream()));
    leave(lib_gpu, prev);
}

void mpishmem_cuda_wait(void)
{
    int prev = enter(lib_gpu);
    check("cudaStreamSynchronize", p_cudaStreamSynchronize(stream()));
    leave(lib_gpu, prev);
}

void mpishmem_cuda_copy(void *dst, int dst_dev, const void *src, int src_dev, size_t n)
{
    int prev = enter(lib_gpu);
    cudaStream_t s = stream();
    check("cudaMemcpyAsync", p_cudaMemcpyAsync(dst, src, n, kind_of(dst_dev, src_dev), s));
    check("cudaStreamSynchronize", p_cudaStreamSynchronize(s));
    leave(lib_gpu, prev);
}

void mpishmem_cuda_set(void *p, int value, size_t n)
{
    int prev = enter(lib_gpu);
    cudaStream_t s = stream();
    check("cudaMemsetAsync", p_cudaMemsetAsync(p, value, n, s));
    check("cudaStreamSynchronize", p_cudaStreamSynchronize(s));
    leave(lib_gpu, prev);
}

int mpishmem_cuda_device_of(const void *p)
{
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    if (p_cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        p_cudaGetLastError(); /* old runtimes reject unregistered host memory */
        return -1;
    }
    return a.type == cudaMemoryTypeDevice ? a.device : -1;
}

int mpishmem_cuda_ipc_handle(void *p, void *handle)
{
    cudaIpcMemHandle_t h;
    if (p_cudaIpcGetMemHandle(&h, p) != cudaSuccess) {
        p_cudaGetLastError();
        return -1;
    }
    memcpy(handle, &h, sizeof h);
    return 0;
}

void *mpishmem_cuda_ipc_open(const void *handle)
{
    cudaIpcMemHandle_t h;
    memcpy(&h, handle, sizeof h);
    void *p = NULL;
    int prev = enter(lib_gpu);
    if (p_cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) {
        p_cudaGetLastError();
        p = NULL;
    }
    leave(lib_gpu, prev);
    return p;
}

void mpishmem_cuda_ipc_close(void *p)
{
    int prev = enter(lib_gpu);
    check("cudaIpcCloseMemHandle", p_cudaIpcCloseMemHandle(p));
    leave(lib_gpu, prev);
}
