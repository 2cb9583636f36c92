/*
 * mpishmem: a symmetric heap = one segment (its MPI windows) + one
 * deterministic allocator that hands out offsets inside it.
 *
 * Because every PE runs the same allocator on the same sequence of
 * collective calls, an allocation has the same offset on every PE; the
 * collective routines in lib/memory.c verify that and keep it true.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_HEAP_H
#define MPISHMEM_HEAP_H

#include <stddef.h>
#include "allocator.h"
#include "../mpi_backend/segment.h"

typedef struct mpishmem_heap {
    mpishmem_segment_t seg;
    mpishmem_allocator_t *alloc;
    size_t capacity;          /* bytes the user asked for */
} mpishmem_heap_t;

extern mpishmem_heap_t mpishmem_default_heap;

/* Collective over the world.  Returns 0 or an MPI error code. */
int mpishmem_heap_create(mpishmem_heap_t *h, const char *name, size_t size);
void mpishmem_heap_destroy(mpishmem_heap_t *h);

/* Local (non-collective) allocator operations; NULL / -1 on failure. */
void *mpishmem_heap_alloc(mpishmem_heap_t *h, size_t size, size_t align);
int mpishmem_heap_free(mpishmem_heap_t *h, void *ptr);
int mpishmem_heap_resize(mpishmem_heap_t *h, void *ptr, size_t size);
size_t mpishmem_heap_usable_size(mpishmem_heap_t *h, const void *ptr);
int mpishmem_heap_holds(const mpishmem_heap_t *h, const void *ptr);

/* The program's .data and .bss as a symmetric segment (globals.c). */
int mpishmem_globals_create(void);
void mpishmem_globals_destroy(void);
extern mpishmem_segment_t mpishmem_globals_segment;

#endif
