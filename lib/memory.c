/*
 * mpishmem: symmetric memory management on the default heap.
 *
 * Allocation is collective.  Each PE runs its own copy of the
 * deterministic allocator, then the PEs agree on the result in one
 * allreduce, which is also the barrier the spec requires on exit:
 *   - all succeeded at the same offset -> return it;
 *   - some PE failed -> every PE undoes its part and returns NULL, so
 *     exhaustion is reported everywhere and the heap stays consistent;
 *   - different offsets -> the PEs made different calls: stop with a message.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <shmem.h>
#include "error.h"
#include "runtime.h"
#include "../mpi_backend/progress.h"
#include "../mpi_backend/segment.h"
#include "../mpi_backend/window.h"
#include "../spaces/heap.h"

#define NO_OFFSET UINT64_MAX

static mpishmem_heap_t *const heap = &mpishmem_default_heap;

static void enter(const char *routine)
{
    mpishmem_check_running(routine);
}

/* Quiet, then the barrier every PE enters before memory changes hands. */
static void barrier(void)
{
    mpishmem_complete_all();
    mpishmem_barrier_comm(mpishmem_rt.world);
}

static uint64_t offset_of(const void *p)
{
    return p ? (uint64_t)((const char *)p - heap->seg.base) : NO_OFFSET;
}

/* Agree on an allocation result (see the top of this file).  `undo` is run
 * when this PE succeeded but another failed. */
static void *agree(const char *routine, void *mine, size_t size, void (*undo)(void *))
{
    mpishmem_complete_all();
    uint64_t v[2] = {offset_of(mine), ~offset_of(mine)}, r[2];
    MPI_Request req;
    MPI_Iallreduce(v, r, 2, MPI_UINT64_T, MPI_MIN, mpishmem_rt.world, &req);
    mpishmem_wait_request(&req);
    uint64_t lo = r[0], hi = ~r[1];
    if (lo == hi)
        return mine;
    if (hi == NO_OFFSET) {
        if (mine && undo)
            undo(mine);
        if (MPISHMEM_DEBUG_ON && mpishmem_rt.my_pe == 0)
            fprintf(stderr, "mpishmem: %s: warning: symmetric heap exhausted: %zu bytes "
                    "requested, heap is %zu bytes (raise SHMEM_SYMMETRIC_SIZE); returning "
                    "NULL on every PE\n", routine, size, heap->capacity);
        return NULL;
    }
    mpishmem_fatal(routine, "PEs got different symmetric offsets (%llu here, from %llu to "
                   "%llu across PEs): every PE must make the same allocation calls with the "
                   "same arguments", (unsigned long long)offset_of(mine),
                   (unsigned long long)lo, (unsigned long long)hi);
}

static void undo_alloc(void *p)
{
    mpishmem_heap_free(heap, p);
}

static void *alloc_collective(const char *routine, size_t size, size_t align)
{
    enter(routine);
    if (size == 0)
        return NULL;
    return agree(routine, mpishmem_heap_alloc(heap, size, align), size, undo_alloc);
}

void *shmem_malloc(size_t size)
{
    return alloc_collective("shmem_malloc", size, 0);
}

void *shmem_malloc_with_hints(size_t size, long hints)
{
    const long known = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE;
    if (MPISHMEM_DEBUG_ON && (hints & ~known))
        mpishmem_fatal("shmem_malloc_with_hints", "unknown hint bits 0x%lx", hints & ~known);
    /* Every heap already serves remote atomics and signals at full speed. */
    return alloc_collective("shmem_malloc_with_hints", size, 0);
}

void *shmem_calloc(size_t count, size_t size)
{
    size_t bytes;
    enter("shmem_calloc");
    if (__builtin_mul_overflow(count, size, &bytes))
        return agree("shmem_calloc", NULL, SIZE_MAX, undo_alloc);
    if (bytes == 0)
        return NULL;
    void *p = mpishmem_heap_alloc(heap, bytes, 0);
    if (p)
        memset(p, 0, bytes);
    return agree("shmem_calloc", p, bytes, undo_alloc);
}

void *shmem_align(size_t alignment, size_t size)
{
    enter("shmem_align");
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 ||
        alignment > MPISHMEM_HEAP_ALIGN) {
        if (MPISHMEM_DEBUG_ON)
            mpishmem_fatal("shmem_align", "alignment %zu is not a power of two of at most "
                           "%zu", alignment, MPISHMEM_HEAP_ALIGN);
        return NULL;
    }
    return alloc_collective("shmem_align", size, alignment);
}

void shmem_free(void *ptr)
{
    enter("shmem_free");
    if (ptr == NULL)
        return;
    barrier();
    if (mpishmem_heap_free(heap, ptr) != 0)
        mpishmem_fatal("shmem_free", "%p was not returned by shmem_malloc or is already "
                       "freed", ptr);
}

/* State for undoing a realloc that moved: put the old block back in place. */
static void *realloc_new_block;

static void undo_realloc(void *p)
{
    (void)p;
    mpishmem_heap_free(heap, realloc_new_block);
}

void *shmem_realloc(void *ptr, size_t size)
{
    enter("shmem_realloc");
    if (ptr == NULL)
        return alloc_collective("shmem_realloc", size, 0);
    if (size == 0) {
        shmem_free(ptr);
        return NULL;
    }
    size_t old = mpishmem_heap_usable_size(heap, ptr);
    if (old == 0)
        mpishmem_fatal("shmem_realloc", "%p was not returned by shmem_malloc or is already "
                       "freed", ptr);
    barrier(); /* no PE may still be writing to the old block */
    if (mpishmem_heap_resize(heap, ptr, size) == 0)
        return agree("shmem_realloc", ptr, size, NULL);
    /* Move: allocate first so a failure leaves the old block untouched.
     * The allocator is deterministic, so every PE moves or fails alike. */
    void *p = mpishmem_heap_alloc(heap, size, 0);
    if (p == NULL)
        return agree("shmem_realloc", NULL, size, NULL);
    memcpy(p, ptr, old < size ? old : size);
    realloc_new_block = p;
    void *r = agree("shmem_realloc", p, size, undo_realloc);
    if (r != NULL)
        mpishmem_heap_free(heap, ptr);
    return r;
}

/* Deprecated names. */
void *shmalloc(size_t size)
{
    return alloc_collective("shmalloc", size, 0);
}

void shfree(void *ptr)
{
    shmem_free(ptr);
}

void *shrealloc(void *ptr, size_t size)
{
    return shmem_realloc(ptr, size);
}

void *shmemalign(size_t alignment, size_t size)
{
    return shmem_align(alignment, size);
}

void *shmalign(size_t alignment, size_t size)
{
    return shmem_align(alignment, size);
}
