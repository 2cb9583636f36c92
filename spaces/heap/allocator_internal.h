/*
 * The TLSF allocator's descriptors and state (allocator.c), shared with
 * the treap of live blocks (allocator_live.c).  Private to those two.
 */
#ifndef MPISHMEM_ALLOCATOR_INTERNAL_H
#define MPISHMEM_ALLOCATOR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "allocator.h"

#define GRAN_SHIFT 6
#define GRAN ((size_t)1 << GRAN_SHIFT)
#define SL_BITS 5
#define SL_COUNT (1u << SL_BITS)
#define FL_COUNT 64 /* more than enough first-level classes for 64-bit size_t */
#define NIL UINT32_MAX
/* How many entries of the exact-size list to inspect when the good-fit
 * search fails; keeps alloc O(1) while still finding e.g. a whole-heap block. */
#define FALLBACK_SCAN 16

typedef struct {
    size_t off, size;
    uint32_t prev_phys, next_phys; /* physical neighbours, NIL at the ends */
    uint32_t prev_free, next_free; /* free list; next_free also chains spares */
    uint32_t left, right;          /* treap children while live */
    uint32_t prio;                 /* treap priority while live */
    unsigned char is_free;
} blk_t;

struct mpishmem_allocator {
    size_t capacity, bytes_used, live_blocks, free_blocks;
    blk_t *b;                   /* descriptor pool, indexed by uint32_t */
    uint32_t nb, cap_b;         /* pool slots ever used / allocated */
    uint32_t spare, nspare;     /* recycled descriptors (LIFO) */
    uint32_t root;              /* treap of live blocks */
    uint64_t fl_map;            /* bit fl set <=> sl_map[fl] != 0 */
    uint32_t sl_map[FL_COUNT];  /* bit sl set <=> heads[fl][sl] != NIL */
    uint32_t heads[FL_COUNT][SL_COUNT];
};

/* The treap of live blocks, keyed by offset (allocator_live.c). */
uint32_t mpishmem_alloc_prio_of(size_t off);
uint32_t mpishmem_alloc_tr_insert(blk_t *b, uint32_t t, uint32_t n);
/* Removes the node with key off, which must be present. */
uint32_t mpishmem_alloc_tr_remove(blk_t *b, uint32_t t, size_t off);
/* Live block with the greatest offset <= off, or NIL. */
uint32_t mpishmem_alloc_tr_floor(const mpishmem_allocator_t *a, size_t off);
/* The live block at exactly off, or NIL. */
uint32_t mpishmem_alloc_tr_find(const mpishmem_allocator_t *a, size_t off);

#endif
