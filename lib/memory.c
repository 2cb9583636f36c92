/*
 * mpishmem: symmetric memory management on the default space.
 *
 * The collective mechanism (local deterministic allocator + one allreduce
 * that agrees on the offset and is the closing barrier) is in
 * spaces/heap/heap_collective.c; this file holds the OpenSHMEM entry points.
 * They allocate from the default space's heap, which is the host heap
 * unless SHMEM_DEFAULT_SPACE=GPU (docs/spaces.md).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <shmem.h>
#include "../mpi_backend/runtime/error.h"
#include "../mpi_backend/runtime/runtime.h"
#include "../mpi_backend/memory/window.h"
#include "../spaces/heap/heap.h"

#define heap (mpishmem_user_heap)

static void enter(const char *routine)
{
    mpishmem_check_running(routine);
}

static void *alloc_collective(const char *routine, size_t size, size_t align)
{
    enter(routine);
    return mpishmem_heap_coll_alloc(routine, heap, size, align);
}

void *shmem_malloc(size_t size)
{
    return alloc_collective("shmem_malloc", size, 0);
}

void *shmem_malloc_with_hints(size_t size, long hints)
{
    const long known = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE;
    static int warned;
    if (MPISHMEM_UNLIKELY(hints & ~known)) {
        /* Hints only advise, so the allocation goes ahead without them. */
        if (MPISHMEM_DEBUG_ON)
            mpishmem_fatal("shmem_malloc_with_hints", "unknown hint bits 0x%lx", hints & ~known);
        if (mpishmem_rt.my_pe == 0 && !warned++)
            fprintf(stderr, "mpishmem: shmem_malloc_with_hints: warning: unknown hint bits "
                    "0x%lx are ignored (reported once; SHMEM_DEBUG=1 stops instead)\n",
                    hints & ~known);
    }
    /* Every heap already serves remote atomics and signals at full speed. */
    return alloc_collective("shmem_malloc_with_hints", size, 0);
}

void *shmem_calloc(size_t count, size_t size)
{
    enter("shmem_calloc");
    return mpishmem_heap_coll_calloc("shmem_calloc", heap, count, size);
}

/* Bad arguments follow one rule (docs/checks.md): a warning and NULL (or no
 * operation) on every PE, a stop under SHMEM_DEBUG.  The PEs decide
 * together (spaces/heap/heap_collective.c), so none is left in a collective. */
static void *align_on(const char *routine, size_t alignment, size_t size)
{
    enter(routine);
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
        char bad[96];
        snprintf(bad, sizeof bad, "alignment %zu is not a power of two", alignment);
        return mpishmem_heap_coll_refuse(routine, heap, bad);
    }
    if (alignment > MPISHMEM_HEAP_ALIGN) {
        if (mpishmem_rt.my_pe == 0)
            fprintf(stderr, "mpishmem: %s: alignment %zu is larger than the largest "
                    "supported, %zu (the symmetric heap's base alignment); returning NULL "
                    "on every PE\n", mpishmem_api_name(routine), alignment,
                    MPISHMEM_HEAP_ALIGN);
        return NULL;
    }
    return alloc_collective(routine, size, alignment);
}

void *shmem_align(size_t alignment, size_t size)
{
    return align_on("shmem_align", alignment, size);
}

static void free_on(const char *routine, void *ptr)
{
    enter(routine);
    if (ptr == NULL)
        return;
    mpishmem_heap_coll_free(routine, heap, ptr);
}

void shmem_free(void *ptr)
{
    free_on("shmem_free", ptr);
}

/* State for undoing a realloc that moved: put the old block back in place. */
static void *realloc_new_block;

static void undo_realloc(mpishmem_heap_t *h, void *p)
{
    (void)p;
    mpishmem_heap_free(h, realloc_new_block);
}

static void *realloc_on(const char *routine, void *ptr, size_t size)
{
    enter(routine);
    if (ptr == NULL)
        return alloc_collective(routine, size, 0);
    if (size == 0) {
        free_on(routine, ptr);
        return NULL;
    }
    /* The agreement is also the barrier: no PE may still be writing to the
     * old block. */
    if (!mpishmem_heap_coll_live(routine, heap, ptr,
                                 "returning NULL on every PE, every block unchanged"))
        return NULL;
    size_t old = mpishmem_heap_usable_size(heap, ptr);
    if (mpishmem_heap_resize(heap, ptr, size) == 0)
        return mpishmem_heap_agree(routine, heap, ptr, size, NULL);
    /* Move: allocate first so a failure leaves the old block untouched.
     * The allocator is deterministic, so every PE moves or fails alike. */
    void *p = mpishmem_heap_alloc(heap, size, 0);
    if (p == NULL)
        return mpishmem_heap_agree(routine, heap, NULL, size, NULL);
    mpishmem_heap_copy(heap, p, ptr, old < size ? old : size);
    realloc_new_block = p;
    void *r = mpishmem_heap_agree(routine, heap, p, size, undo_realloc);
    if (r != NULL)
        mpishmem_heap_free(heap, ptr);
    return r;
}

void *shmem_realloc(void *ptr, size_t size)
{
    return realloc_on("shmem_realloc", ptr, size);
}

/* Deprecated names. */
void *shmalloc(size_t size)
{
    return alloc_collective("shmalloc", size, 0);
}

void shfree(void *ptr)
{
    free_on("shfree", ptr);
}

void *shrealloc(void *ptr, size_t size)
{
    return realloc_on("shrealloc", ptr, size);
}

void *shmemalign(size_t alignment, size_t size)
{
    return align_on("shmemalign", alignment, size);
}

void *shmalign(size_t alignment, size_t size)
{
    return align_on("shmalign", alignment, size);
}
