/*
 * mpishmem: the registry of symmetric segments, sorted by base address.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>
#include "segment.h"
#include "error.h"

mpishmem_segment_table_t mpishmem_segments;

/* Returns 0, or -1 if the table is full or s overlaps a registered segment. */
int mpishmem_segment_register(mpishmem_segment_t *s)
{
    mpishmem_segment_table_t *t = &mpishmem_segments;
    if (t->count == MPISHMEM_MAX_SEGMENTS)
        return -1;
    int at = 0;
    while (at < t->count && (uintptr_t)t->sorted[at]->base < (uintptr_t)s->base)
        at++;
    if (at > 0 && (uintptr_t)t->sorted[at - 1]->base + t->sorted[at - 1]->size >
                      (uintptr_t)s->base)
        return -1;
    if (at < t->count && s->size > 0 &&
        (uintptr_t)s->base + s->size > (uintptr_t)t->sorted[at]->base)
        return -1;
    memmove(&t->sorted[at + 1], &t->sorted[at], (size_t)(t->count - at) * sizeof s);
    t->sorted[at] = s;
    t->count++;
    t->any_separate |= s->separate_model;
    return 0;
}

void mpishmem_segment_unregister(mpishmem_segment_t *s)
{
    mpishmem_segment_table_t *t = &mpishmem_segments;
    for (int i = 0; i < t->count; i++) {
        if (t->sorted[i] == s) {
            memmove(&t->sorted[i], &t->sorted[i + 1], (size_t)(t->count - i - 1) * sizeof s);
            t->count--;
            break;
        }
    }
    if (t->heap == s)
        t->heap = NULL;
}

void mpishmem_fatal_target(const char *routine, const mpishmem_segment_t *s, int pe)
{
    if (s->explain_target)
        s->explain_target(routine, s, pe);
    if (s->rank_of_pe && s->rank_of_pe[pe] < 0)
        mpishmem_fatal(routine, "target PE %d has no copy of this address in the %s", pe,
                       s->name);
    mpishmem_fatal(routine, "the %s does not support atomics", s->name);
}
