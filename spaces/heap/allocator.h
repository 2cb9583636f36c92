/*
 * Symmetric-heap allocator: hands out offsets inside [0, capacity).
 *
 * The managed memory itself is never read or written (it is shared with
 * other processes); all bookkeeping lives in private malloc'd memory.
 * Results depend only on the sequence of calls, so every process that issues
 * the same requests obtains the same offsets.
 *
 * Design: TLSF (two-level segregated fit) free lists with bitmaps, immediate
 * coalescing, out-of-band block descriptors, and a treap of live blocks keyed
 * by offset for free/usable_size/contains lookups.  All offsets and usable
 * sizes are multiples of MPISHMEM_ALLOC_GRANULE.
 */
#ifndef MPISHMEM_ALLOCATOR_H
#define MPISHMEM_ALLOCATOR_H

#include <stddef.h>

#define MPISHMEM_ALLOC_FAIL ((size_t)-1)
/* One cache line, so two allocations never share a line. */
#define MPISHMEM_ALLOC_GRANULE ((size_t)64)

typedef struct mpishmem_allocator mpishmem_allocator_t;

/* capacity: bytes managed (rounded down to 64). Returns NULL on out-of-memory
 * for metadata. */
mpishmem_allocator_t *mpishmem_allocator_create(size_t capacity);
void mpishmem_allocator_destroy(mpishmem_allocator_t *a);

/* size > 0; align is 0 (means 64) or a power of two. Returns offset or
 * MPISHMEM_ALLOC_FAIL (exhaustion, or size/align overflow). */
size_t mpishmem_allocator_alloc(mpishmem_allocator_t *a, size_t size,
                                size_t align);

/* 0 on success, -1 if offset is not the start of a live allocation (double
 * free, bogus offset); the allocator state is unchanged in that case. */
int mpishmem_allocator_free(mpishmem_allocator_t *a, size_t offset);

/* Usable size of the live allocation starting at offset (>= requested size),
 * or 0 if none. */
size_t mpishmem_allocator_usable_size(const mpishmem_allocator_t *a,
                                      size_t offset);

/* Try to resize a live allocation in place (shrink always succeeds; grow
 * succeeds if the following physical block is free and large enough).
 * 0 on success, -1 otherwise (state unchanged). */
int mpishmem_allocator_resize_in_place(mpishmem_allocator_t *a, size_t offset,
                                       size_t new_size);

/* 1 if [offset, offset+len) lies entirely inside one live allocation (its
 * usable size), else 0.  len == 0 asks whether offset is inside one. */
int mpishmem_allocator_contains(const mpishmem_allocator_t *a, size_t offset,
                                size_t len);

/* The live allocation containing offset: returns 1 and sets *start and
 * *size (its usable size), or 0 when offset lies in no live allocation.
 * O(log n); the SHMEM_DEBUG bounds check of every transfer. */
int mpishmem_allocator_block_of(const mpishmem_allocator_t *a, size_t offset,
                                size_t *start, size_t *size);

typedef struct {
    size_t capacity, bytes_used, bytes_free, largest_free, live_blocks,
        free_blocks;
} mpishmem_allocator_stats_t;

void mpishmem_allocator_stats(const mpishmem_allocator_t *a,
                              mpishmem_allocator_stats_t *out);

#endif /* MPISHMEM_ALLOCATOR_H */
