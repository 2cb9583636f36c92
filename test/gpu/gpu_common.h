/*
 * Helpers of the GPU-memory tests (docs/spaces.md, "Testing without a
 * GPU").
 *
 * The tests reach the CUDA runtime the library loaded: MPISHMEM_CUDART
 * names it (the stand-in of test/cuda_standin in CI; a real libcudart on a
 * GPU machine), else libcudart.so.  Device memory is only ever filled and
 * read with the runtime's copies.  A failed expectation is counted, the
 * test runs on to its last collective, and gpu_finish reports every PE's
 * count and sets the exit status.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_TEST_GPU_COMMON_H
#define MPISHMEM_TEST_GPU_COMMON_H

#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>

/* cudaMemcpyKind and cudaPointerAttributes as the runtime defines them. */
enum { H2D = 1, D2H = 2, D2D = 3 };
typedef struct {
    int type; /* 2: device memory */
    int device;
    void *device_pointer, *host_pointer;
    long reserved[8];
} gpu_attr_t;

static struct {
    void *handle;
    int (*malloc_)(void **, size_t);
    int (*free_)(void *);
    int (*memcpy_)(void *, const void *, size_t, int);
    int (*get_device)(int *);
    int (*set_device)(int);
    int (*device_count)(int *);
    int (*attributes)(gpu_attr_t *, const void *);
    int (*synchronize)(void);
    unsigned long (*counter)(const char *); /* the stand-in only */
} gpu;

static void gpu_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gpu test: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}

/* Loads the runtime (before or after shmem_init: one instance either way). */
static void gpu_load(void)
{
    if (gpu.handle)
        return;
    const char *path = getenv("MPISHMEM_CUDART");
    gpu.handle = dlopen(path && *path ? path : "libcudart.so", RTLD_NOW | RTLD_LOCAL);
    if (gpu.handle == NULL)
        gpu_die("cannot load the CUDA runtime: %s", dlerror());
#define GPU_SYM(field, name)                                                               \
    if ((*(void **)&gpu.field = dlsym(gpu.handle, name)) == NULL)                          \
        gpu_die("the CUDA runtime lacks %s", name);
    GPU_SYM(malloc_, "cudaMalloc")
    GPU_SYM(free_, "cudaFree")
    GPU_SYM(memcpy_, "cudaMemcpy")
    GPU_SYM(get_device, "cudaGetDevice")
    GPU_SYM(set_device, "cudaSetDevice")
    GPU_SYM(device_count, "cudaGetDeviceCount")
    GPU_SYM(attributes, "cudaPointerGetAttributes")
    GPU_SYM(synchronize, "cudaDeviceSynchronize")
#undef GPU_SYM
    *(void **)&gpu.counter = dlsym(gpu.handle, "standin_counter");
}

/* Every GPU test's start: shmem_init, the runtime, and this PE's ring
 * neighbours (right receives its puts, left sends to it). */
static void gpu_start(int *me, int *npes, int *right, int *left)
{
    shmem_init();
    gpu_load();
    *me = shmem_my_pe();
    *npes = shmem_n_pes();
    *right = (*me + 1) % *npes;
    *left = (*me + *npes - 1) % *npes;
}

static inline void *gpu_alloc(size_t n)
{
    void *p = NULL;
    gpu_load();
    if (gpu.malloc_(&p, n) != 0)
        gpu_die("cudaMalloc(%zu) failed", n);
    return p;
}

/* Host to device memory, complete on return: cudaMemcpy from pageable
 * memory may return before the data is in place, and the library copies
 * on a stream of its own, so the program synchronizes before handing the
 * buffer to OpenSHMEM (as on a GPU). */
static void to_dev(void *dev, const void *host, size_t n)
{
    if (gpu.memcpy_(dev, host, n, H2D) != 0 || gpu.synchronize() != 0)
        gpu_die("cudaMemcpy to the device failed");
}

static void from_dev(void *host, const void *dev, size_t n)
{
    if (gpu.memcpy_(host, dev, n, D2H) != 0)
        gpu_die("cudaMemcpy from the device failed");
}

/* The device of device memory p, or -1 for host memory. */
static int gpu_device_of(const void *p)
{
    gpu_attr_t a;
    memset(&a, 0, sizeof a);
    if (gpu.attributes(&a, p) != 0)
        return -1;
    return a.type == 2 ? a.device : -1;
}

static inline int gpu_current(void)
{
    int d = -1;
    gpu.get_device(&d);
    return d;
}

/* ---- expectations -------------------------------------------------------- */

static long gpu_errors;
static char gpu_first[400];

static void __attribute__((format(printf, 3, 4))) gpu_fail(const char *file, int line,
                                                           const char *fmt, ...)
{
    char msg[400];
    int n = snprintf(msg, sizeof msg, "%s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    if (gpu_errors++ == 0)
        memcpy(gpu_first, msg, sizeof msg);
    if (gpu_errors <= 3) /* at once too: a later stop must not hide it */
        fprintf(stderr, "gpu test: PE %d: %s\n", shmem_my_pe(), msg);
}

#define EXPECT(cond, ...)                                                                  \
    do {                                                                                   \
        if (!(cond))                                                                       \
            gpu_fail(__FILE__, __LINE__, __VA_ARGS__);                                     \
    } while (0)

/* Every PE's errors; finalizes; the exit status of main. */
static int gpu_finish(const char *name)
{
    static long mine, all;
    mine = gpu_errors;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &all, &mine, 1);
    if (gpu_errors)
        fprintf(stderr, "%s: PE %d: %ld failed expectation(s), first: %s\n", name,
                shmem_my_pe(), gpu_errors, gpu_first);
    if (shmem_my_pe() == 0)
        printf("%s: %s (%d PEs)\n", name, all ? "FAILED" : "passed", shmem_n_pes());
    shmem_finalize();
    return all ? 1 : 0;
}

/* Byte pattern of (who, i): every transfer is checked byte for byte. */
static inline unsigned char pattern(int who, size_t i)
{
    return (unsigned char)(who * 37 + i * 7 + (i >> 9));
}

static void fill(unsigned char *h, int who, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h[i] = pattern(who, i);
}

/* Index of the first byte of h that is not pattern(who, .), or n. */
static size_t first_wrong(const unsigned char *h, int who, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (h[i] != pattern(who, i))
            return i;
    return n;
}

#endif
