/*
 * mpishmem: arrays of handle slots (teams, contexts).
 *
 * Handles the library gives out point at slots of one array mapped once
 * (address space only until a slot is used) and never unmapped, so a
 * destroyed or garbage handle can be told from a live one by looking at
 * the slot, without reading through a wild pointer.  A freed slot is reused
 * only after every other has been used once, and then the one after the
 * last reused: a destroyed handle stays recognizable as long as can be.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_SLOT_ARRAY_H
#define MPISHMEM_SLOT_ARRAY_H

#include <stddef.h>
#include <stdint.h>

typedef struct mpishmem_slot_array {
    char *base;                      /* mapped at the first take */
    size_t elem, count;              /* bytes per slot, slots */
    size_t used;                     /* slots handed out at least once */
    size_t cursor;                   /* where the search for a free slot resumes */
    int (*in_use)(const void *slot); /* a slot that may not be handed out */
} mpishmem_slot_array_t;

/* A zeroed free slot, or NULL when none is left or mapping failed.  The
 * caller serializes takes. */
void *mpishmem_slot_take(mpishmem_slot_array_t *a);

/* Whether p is the start of one of the first `limit` slots of `elem`
 * bytes (a->elem).  Callers on a fast path pass elem as a constant: the
 * remainder by a->elem is a 64-bit division (about 0.7 ns on a created
 * context's put+quiet). */
static inline int mpishmem_slot_start_of(const mpishmem_slot_array_t *a, const void *p,
                                         size_t limit, size_t elem)
{
    size_t d = (size_t)((uintptr_t)p - (uintptr_t)a->base);
    return a->base != NULL && d < limit * elem && d % elem == 0;
}

static inline int mpishmem_slot_start(const mpishmem_slot_array_t *a, const void *p,
                                      size_t limit)
{
    return mpishmem_slot_start_of(a, p, limit, a->elem);
}

#endif
