/*
 * Stand-in CUDA runtime: device memory, pinned host memory, IPC mappings.
 *
 * Device addresses are carved from one reserved range (2 MiB granules), so
 * device and host memory never share a page, as under CUDA's unified
 * addressing.  A device allocation is a memfd mapped twice: with no access
 * at its device address, read/write at its shadow.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "standin.h"

region_t standin_regions[STANDIN_MAX_REGIONS];
pthread_mutex_t standin_lock = PTHREAD_MUTEX_INITIALIZER;

#define GRANULE ((size_t)2 << 20)
#define RESERVED ((size_t)64 << 30)
#define IPC_MAGIC 0x55444953u /* "SIDU" */

typedef struct {
    uint32_t magic;
    int32_t pid, fd, device;
    uint64_t size, id;
} ipc_handle_t;
_Static_assert(sizeof(ipc_handle_t) <= sizeof(cudaIpcMemHandle_t), "handle size");

static char *va_base;                /* the reserved device address range */
static struct { size_t off, len; } va_free[STANDIN_MAX_REGIONS];
static int va_nfree;
static uint64_t next_id = 1;
static int access_allowed;

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

static int va_init(void)
{
    if (va_base)
        return 0;
    void *r = mmap(NULL, RESERVED + GRANULE, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED)
        return -1;
    va_base = (char *)round_up((uintptr_t)r, GRANULE);
    va_free[0].off = 0;
    va_free[0].len = RESERVED;
    va_nfree = 1;
    return 0;
}

/* First fit; NULL when the range is exhausted. */
static char *va_take(size_t len)
{
    for (int i = 0; i < va_nfree; i++) {
        if (va_free[i].len < len)
            continue;
        char *p = va_base + va_free[i].off;
        va_free[i].off += len;
        va_free[i].len -= len;
        if (va_free[i].len == 0)
            va_free[i] = va_free[--va_nfree];
        return p;
    }
    return NULL;
}

/* Give [p, p+len) back, reserved again with no access. */
static void va_give(char *p, size_t len)
{
    mmap(p, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    size_t off = (size_t)(p - va_base);
    for (int i = 0; i < va_nfree; i++) {
        if (va_free[i].off + va_free[i].len == off) {
            va_free[i].len += len;
            return;
        }
        if (off + len == va_free[i].off) {
            va_free[i].off = off;
            va_free[i].len += len;
            return;
        }
    }
    if (va_nfree < STANDIN_MAX_REGIONS) {
        va_free[va_nfree].off = off;
        va_free[va_nfree++].len = len;
    }
}

region_t *standin_find(const void *p)
{
    for (int i = 0; i < STANDIN_MAX_REGIONS; i++) {
        region_t *r = &standin_regions[i];
        if (__atomic_load_n(&r->kind, __ATOMIC_ACQUIRE) == REGION_FREE)
            continue;
        if ((uintptr_t)p - (uintptr_t)r->dev < r->size)
            return r;
    }
    return NULL;
}

char *standin_shadow_range(const void *p, size_t n)
{
    region_t *r = standin_find(p);
    if (r == NULL || r->kind == REGION_PINNED)
        return NULL;
    size_t off = (size_t)((const char *)p - r->dev);
    if (n > r->user_size || off > r->user_size - n)
        return (char *)-1;
    return r->shadow + off;
}

/* A free slot, filled and published (kind last); the caller holds the lock. */
static region_t *publish(region_t v)
{
    for (int i = 0; i < STANDIN_MAX_REGIONS; i++) {
        region_t *r = &standin_regions[i];
        if (r->kind != REGION_FREE)
            continue;
        int kind = v.kind;
        v.kind = REGION_FREE;
        *r = v;
        __atomic_store_n(&r->kind, kind, __ATOMIC_RELEASE);
        return r;
    }
    return NULL;
}

static void unpublish(region_t *r)
{
    __atomic_store_n(&r->kind, REGION_FREE, __ATOMIC_RELEASE);
}

/* Map fd at a fresh device address (no access unless program access is
 * on) and at a shadow; fills r. */
static cudaError_t map_device(int fd, size_t size, region_t *r)
{
    size_t len = round_up(size ? size : 1, GRANULE);
    if (va_init() != 0)
        return cudaErrorMemoryAllocation;
    char *dev = va_take(len);
    if (dev == NULL)
        return cudaErrorMemoryAllocation;
    int prot = access_allowed ? PROT_READ | PROT_WRITE : PROT_NONE;
    char *shadow = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (shadow == MAP_FAILED ||
        mmap(dev, len, prot, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
        if (shadow != MAP_FAILED)
            munmap(shadow, len);
        va_give(dev, len);
        return cudaErrorMemoryAllocation;
    }
    r->dev = dev;
    r->shadow = shadow;
    r->size = len;
    return cudaSuccess;
}

static void unmap_device(region_t *r)
{
    munmap(r->shadow, r->size);
    va_give(r->dev, r->size);
}

cudaError_t standin_alloc_device(void **p, size_t n, int device)
{
    if (n > standin_device_memory() - standin_allocated(device))
        return cudaErrorMemoryAllocation;
    int fd = memfd_create("standin-cuda-device", MFD_CLOEXEC);
    size_t len = round_up(n ? n : 1, GRANULE);
    if (fd < 0 || ftruncate(fd, (off_t)len) != 0) {
        if (fd >= 0)
            close(fd);
        return cudaErrorMemoryAllocation;
    }
    pthread_mutex_lock(&standin_lock);
    region_t v = {.kind = REGION_DEVICE, .device = device, .fd = fd, .user_size = n,
                  .id = next_id++};
    cudaError_t e = map_device(fd, n, &v);
    region_t *r = e == cudaSuccess ? publish(v) : NULL;
    if (e == cudaSuccess && r == NULL) {
        unmap_device(&v);
        e = cudaErrorMemoryAllocation;
    }
    pthread_mutex_unlock(&standin_lock);
    if (e != cudaSuccess) {
        close(fd);
        return e;
    }
    standin_fault_install();
    *p = r->dev;
    return cudaSuccess;
}

cudaError_t standin_free_device(void *p)
{
    if (p == NULL)
        return cudaSuccess;
    standin_sync_all(); /* cudaFree synchronizes the device */
    pthread_mutex_lock(&standin_lock);
    region_t *r = standin_find(p);
    cudaError_t e = cudaErrorInvalidValue;
    if (r && r->kind == REGION_DEVICE && r->dev == p) {
        region_t v = *r;
        unpublish(r);
        unmap_device(&v);
        close(v.fd);
        e = cudaSuccess;
    }
    pthread_mutex_unlock(&standin_lock);
    return e;
}

size_t standin_allocated(int device)
{
    size_t sum = 0;
    for (int i = 0; i < STANDIN_MAX_REGIONS; i++)
        if (standin_regions[i].kind == REGION_DEVICE && standin_regions[i].device == device)
            sum += standin_regions[i].user_size;
    return sum;
}

cudaError_t standin_alloc_pinned(void **p, size_t n)
{
    size_t len = round_up(n ? n : 1, 4096);
    char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return cudaErrorMemoryAllocation;
    pthread_mutex_lock(&standin_lock);
    region_t *r = publish((region_t){.kind = REGION_PINNED, .dev = m, .shadow = m,
                                     .size = len, .user_size = n, .fd = -1,
                                     .device = standin_current_device()});
    pthread_mutex_unlock(&standin_lock);
    if (r == NULL) {
        munmap(m, len);
        return cudaErrorMemoryAllocation;
    }
    *p = m;
    return cudaSuccess;
}

cudaError_t standin_free_pinned(void *p)
{
    if (p == NULL)
        return cudaSuccess;
    standin_sync_all(); /* queued copies may still read it */
    pthread_mutex_lock(&standin_lock);
    region_t *r = standin_find(p);
    cudaError_t e = cudaErrorInvalidValue;
    if (r && r->kind == REGION_PINNED && r->dev == p) {
        region_t v = *r;
        unpublish(r);
        munmap(v.dev, v.size);
        e = cudaSuccess;
    }
    pthread_mutex_unlock(&standin_lock);
    return e;
}

cudaError_t standin_ipc_get(cudaIpcMemHandle_t *h, void *p)
{
    region_t *r = standin_find(p);
    if (r == NULL || r->kind != REGION_DEVICE)
        return cudaErrorInvalidValue;
    ipc_handle_t v = {IPC_MAGIC, (int32_t)getpid(), r->fd, r->device, r->user_size, r->id};
    memset(h, 0, sizeof *h);
    memcpy(h, &v, sizeof v);
    return cudaSuccess;
}

cudaError_t standin_ipc_open(void **p, const cudaIpcMemHandle_t *h, int device)
{
    ipc_handle_t v;
    memcpy(&v, h, sizeof v);
    /* CUDA cannot open a handle in the process that made it either. */
    if (v.magic != IPC_MAGIC || v.pid == (int32_t)getpid())
        return cudaErrorInvalidValue;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)v.pid, (int)v.fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || (uint64_t)st.st_size < v.size) {
        if (fd >= 0)
            close(fd);
        return cudaErrorInvalidValue;
    }
    (void)device; /* the memory stays on the owner's device */
    pthread_mutex_lock(&standin_lock);
    region_t n = {.kind = REGION_IPC, .device = v.device, .fd = -1, .user_size = v.size,
                  .id = v.id};
    cudaError_t e = map_device(fd, v.size, &n);
    region_t *r = e == cudaSuccess ? publish(n) : NULL;
    if (e == cudaSuccess && r == NULL) {
        unmap_device(&n);
        e = cudaErrorMemoryAllocation;
    }
    pthread_mutex_unlock(&standin_lock);
    close(fd);
    if (e != cudaSuccess)
        return e;
    __atomic_fetch_add(&standin_n_ipc_opens, 1, __ATOMIC_RELAXED);
    standin_fault_install();
    *p = r->dev;
    return cudaSuccess;
}

cudaError_t standin_ipc_close(void *p)
{
    standin_sync_all();
    pthread_mutex_lock(&standin_lock);
    region_t *r = standin_find(p);
    cudaError_t e = cudaErrorInvalidValue;
    if (r && r->kind == REGION_IPC && r->dev == p) {
        region_t v = *r;
        unpublish(r);
        unmap_device(&v);
        e = cudaSuccess;
    }
    pthread_mutex_unlock(&standin_lock);
    return e;
}

void standin_set_access(int allowed)
{
    pthread_mutex_lock(&standin_lock);
    access_allowed = allowed;
    int prot = allowed ? PROT_READ | PROT_WRITE : PROT_NONE;
    for (int i = 0; i < STANDIN_MAX_REGIONS; i++) {
        region_t *r = &standin_regions[i];
        if (r->kind == REGION_DEVICE || r->kind == REGION_IPC)
            mprotect(r->dev, r->size, prot);
    }
    pthread_mutex_unlock(&standin_lock);
}

int standin_access_allowed(void)
{
    return __atomic_load_n(&access_allowed, __ATOMIC_RELAXED);
}
