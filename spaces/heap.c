/*
 * mpishmem: symmetric heaps.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include "heap.h"
#include "../mpi_backend/window.h"

mpishmem_heap_t mpishmem_default_heap;

int mpishmem_heap_create(mpishmem_heap_t *h, const char *name, size_t size)
{
    int rc = mpishmem_window_create_heap(&h->seg, name, size);
    if (rc != MPI_SUCCESS)
        return rc;
    h->capacity = size;
    h->alloc = mpishmem_allocator_create(size);
    if (h->alloc == NULL || mpishmem_segment_register(&h->seg) != 0) {
        mpishmem_allocator_destroy(h->alloc);
        h->alloc = NULL;
        mpishmem_window_destroy(&h->seg);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

void mpishmem_heap_destroy(mpishmem_heap_t *h)
{
    if (h->alloc == NULL)
        return;
    mpishmem_segment_unregister(&h->seg);
    mpishmem_allocator_destroy(h->alloc);
    h->alloc = NULL;
    mpishmem_window_destroy(&h->seg);
}

void *mpishmem_heap_alloc(mpishmem_heap_t *h, size_t size, size_t align)
{
    size_t off = mpishmem_allocator_alloc(h->alloc, size, align);
    return off == MPISHMEM_ALLOC_FAIL ? NULL : h->seg.base + off;
}

int mpishmem_heap_holds(const mpishmem_heap_t *h, const void *ptr)
{
    return h->alloc != NULL && (uintptr_t)ptr - (uintptr_t)h->seg.base < h->capacity;
}

int mpishmem_heap_free(mpishmem_heap_t *h, void *ptr)
{
    if (!mpishmem_heap_holds(h, ptr))
        return -1;
    return mpishmem_allocator_free(h->alloc, (size_t)((char *)ptr - h->seg.base));
}

int mpishmem_heap_resize(mpishmem_heap_t *h, void *ptr, size_t size)
{
    if (!mpishmem_heap_holds(h, ptr))
        return -1;
    return mpishmem_allocator_resize_in_place(h->alloc, (size_t)((char *)ptr - h->seg.base),
                                              size);
}

size_t mpishmem_heap_usable_size(mpishmem_heap_t *h, const void *ptr)
{
    if (!mpishmem_heap_holds(h, ptr))
        return 0;
    return mpishmem_allocator_usable_size(h->alloc,
                                          (size_t)((const char *)ptr - h->seg.base));
}
