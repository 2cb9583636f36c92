/*
 * mpishmem: symmetric heaps.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "heap.h"
#include "devices.h"
#include "../../mpi_backend/gpu/cuda_rt.h"
#include "../../mpi_backend/gpu/gpu_path.h"
#include "../../mpi_backend/runtime/runtime.h"
#include "../../mpi_backend/runtime/mpi_cvar.h"
#include "../../mpi_backend/memory/window.h"
#include "../../mpi_backend/progress/progress.h"
#include "../../mpi_backend/runtime/route_plan.h"

mpishmem_heap_t mpishmem_default_heap;
mpishmem_heap_t *mpishmem_user_heap = &mpishmem_default_heap;

/* Where the allocator's offset 0 lies: the heap's aligned start, which is
 * seg.base unless the window's memory has a header (seg.lead). */
static char *heap_origin(const mpishmem_heap_t *h)
{
    return h->seg.base + h->seg.lead;
}

/* The segment's SHMEM_DEBUG hook: the allocation holding an offset. */
static int heap_block_of(const mpishmem_segment_t *s, size_t off, size_t *start, size_t *len)
{
    const mpishmem_heap_t *h =
        (const mpishmem_heap_t *)((const char *)s - offsetof(mpishmem_heap_t, seg));
    if (off < s->lead || !mpishmem_allocator_block_of(h->alloc, off - s->lead, start, len))
        return 0;
    *start += s->lead;
    return 1;
}

/* The allocator and registry entry of a heap whose segment exists. */
static int heap_finish(mpishmem_heap_t *h, size_t size)
{
    h->capacity = size;
    h->exhausted_once = 0;
    h->seg.block_of = heap_block_of;
    h->seg.explain_target = mpishmem_space_explain_target;
    h->alloc = mpishmem_allocator_create(size);
    if (h->alloc == NULL || mpishmem_segment_register(&h->seg) != 0) {
        mpishmem_allocator_destroy(h->alloc);
        h->alloc = NULL;
        mpishmem_window_destroy(&h->seg);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

/* One number from /proc/meminfo ("Name:  123 kB"), in bytes; 0 if absent. */
static unsigned long long meminfo_bytes(const char *text, const char *name)
{
    const char *p = strstr(text, name);
    unsigned long long kib = 0;
    if (p == NULL || sscanf(p + strlen(name), " %llu", &kib) != 1)
        return 0;
    return kib * 1024ull;
}

/* A cgroup memory limit file, or 0 when absent or unlimited ("max"). */
static unsigned long long cgroup_limit(const char *path)
{
    unsigned long long v = 0;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    if (fscanf(f, "%llu", &v) != 1)
        v = 0;
    fclose(f);
    return v;
}

unsigned long long mpishmem_heap_node_memory(const char **what)
{
    char text[8192];
    size_t n = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f == NULL)
        return 0;
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    unsigned long long have = meminfo_bytes(text, "MemTotal:") + meminfo_bytes(text, "SwapTotal:");
    *what = "RAM + swap";
    unsigned long long lim = cgroup_limit("/sys/fs/cgroup/memory.max");
    if (lim == 0)
        lim = cgroup_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    if (lim > 0 && lim < have) {
        have = lim;
        *what = "the job's cgroup memory limit";
    }
    return have;
}

int mpishmem_heap_create(mpishmem_heap_t *h, const char *name, size_t size)
{
    return mpishmem_heap_create_on(h, name, size, mpishmem_rt.world, mpishmem_rt.node);
}

int mpishmem_heap_create_on(mpishmem_heap_t *h, const char *name, size_t size, MPI_Comm comm,
                            MPI_Comm shm_comm)
{
    h->comm = comm;
    h->gpu = -1;
    /* MPICH (ch4) tries to map a shared window at one address on every
     * process, checking each candidate range with one msync per page and a
     * collective vote per try: about 1.9 s per GiB of heap, and far more
     * when PEs outnumber cores.  We never need equal addresses (peer[]
     * holds each PE's own mapping), so we turn the tries off for our heap
     * windows only (docs/performance-waiting.md). */
    mpishmem_cvar_override_t no_symheap;
    mpishmem_cvar_override(&no_symheap, "MPIR_CVAR_SHM_SYMHEAP_RETRY", 0);
    /* Nobody maps it without MPISHMEM_SHM: memory MPI allocates, if planned. */
    h->seg.mpi_memory = mpishmem_plan.win_allocate && !mpishmem_rt.shm_enabled;
    h->seg.mpi_memory_why = NULL;
    h->seg.lead = 0;
    int rc = mpishmem_window_create_heap_on(&h->seg, name, size, comm, shm_comm);
    mpishmem_cvar_restore(&no_symheap);
    if (rc != MPI_SUCCESS)
        return rc;
    return heap_finish(h, size);
}

void mpishmem_heap_destroy(mpishmem_heap_t *h)
{
    if (h->alloc == NULL)
        return;
    mpishmem_segment_unregister(&h->seg);
    mpishmem_allocator_destroy(h->alloc);
    h->alloc = NULL;
    void *device_base = h->gpu >= 0 ? h->seg.base : NULL;
    mpishmem_gpu_seg_destroy(&h->seg);
    mpishmem_window_destroy(&h->seg);
    if (device_base)
        mpishmem_gpu_free(h->gpu, device_base);
}

int mpishmem_heap_create_gpu(mpishmem_heap_t *h, const char *name, size_t size, MPI_Comm comm,
                             int gpu, int aware)
{
    h->comm = comm;
    h->gpu = gpu;
    h->seg.win = h->seg.shm_win = MPI_WIN_NULL;
    h->seg.mpi_memory = 0; /* device memory: its own */
    h->seg.lead = 0;
    /* Every member must get its memory before any creates the window. */
    void *base = mpishmem_gpu_alloc(gpu, size == 0 ? 1 : size);
    int ok = base != NULL, all_ok = 0;
    mpishmem_allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, comm);
    if (!all_ok) {
        if (base)
            mpishmem_gpu_free(gpu, base);
        return MPI_ERR_NO_MEM;
    }
    /* The window shows MPI the device memory only if MPI may be GPU-aware
     * (an MPI that is not could touch it from the CPU); else it has no
     * bytes and the data goes through IPC copies and the agents. */
    int rc = mpishmem_window_create_device(&h->seg, name, base, size, comm, aware != 0);
    if (rc != MPI_SUCCESS) {
        mpishmem_gpu_free(gpu, base);
        return rc;
    }
    if (mpishmem_gpu_seg_create(&h->seg, gpu, comm, aware) != 0) {
        mpishmem_window_destroy(&h->seg);
        mpishmem_gpu_free(gpu, base);
        return MPI_ERR_NO_MEM;
    }
    struct mpishmem_gpu_seg *g = h->seg.gpu;
    rc = heap_finish(h, size);
    if (rc != MPI_SUCCESS) { /* heap_finish cleared the segment */
        h->seg.gpu = g;
        mpishmem_gpu_seg_destroy(&h->seg);
        mpishmem_gpu_free(gpu, base);
    }
    return rc;
}

void mpishmem_heap_zero(const mpishmem_heap_t *h, void *p, size_t n)
{
    if (h->gpu >= 0)
        mpishmem_cuda_set(p, 0, n);
    else
        memset(p, 0, n);
}

/* realloc's move: an explicit device-to-device copy, complete before the
 * closing synchronization lets other PEs write to the new block. */
void mpishmem_heap_copy(const mpishmem_heap_t *h, void *dst, const void *src, size_t n)
{
    if (h->gpu >= 0)
        mpishmem_cuda_copy(dst, 1, src, 1, n);
    else
        memcpy(dst, src, n);
}

void *mpishmem_heap_alloc(mpishmem_heap_t *h, size_t size, size_t align)
{
    size_t off = mpishmem_allocator_alloc(h->alloc, size, align);
    return off == MPISHMEM_ALLOC_FAIL ? NULL : heap_origin(h) + off;
}

int mpishmem_heap_holds(const mpishmem_heap_t *h, const void *ptr)
{
    return h->alloc != NULL && (uintptr_t)ptr - (uintptr_t)heap_origin(h) < h->capacity;
}

int mpishmem_heap_free(mpishmem_heap_t *h, void *ptr)
{
    if (!mpishmem_heap_holds(h, ptr))
        return -1;
    return mpishmem_allocator_free(h->alloc, (size_t)((char *)ptr - heap_origin(h)));
}

int mpishmem_heap_resize(mpishmem_heap_t *h, void *ptr, size_t size)
{
    if (!mpishmem_heap_holds(h, ptr))
        return -1;
    return mpishmem_allocator_resize_in_place(h->alloc, (size_t)((char *)ptr - heap_origin(h)),
                                              size);
}

size_t mpishmem_heap_usable_size(mpishmem_heap_t *h, const void *ptr)
{
    if (!mpishmem_heap_holds(h, ptr))
        return 0;
    return mpishmem_allocator_usable_size(h->alloc,
                                          (size_t)((const char *)ptr - heap_origin(h)));
}
