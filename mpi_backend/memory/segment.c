/*
 * mpishmem: the registry of symmetric segments, sorted by base address.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>
#include "segment.h"
#include "error.h"
#include "runtime.h"

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
    static unsigned serial;
    s->serial = serial++;
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
    if (mpishmem_segment_rank(s, pe) < 0)
        mpishmem_fatal(routine, "target PE %d has no copy of this address in the %s", pe,
                       s->name);
    mpishmem_fatal(routine, "the %s does not support atomics", s->name);
}

char *mpishmem_segment_peer_sparse(const mpishmem_segment_t *s, int pe)
{
    int nr = mpishmem_pe_map_index(&mpishmem_rt.node_map, pe);
    return nr >= 0 ? s->peer[nr] : NULL;
}

void mpishmem_segment_peers_ready(mpishmem_segment_t *s)
{
    const mpishmem_pe_map_t *node = &mpishmem_rt.node_map;
    s->peer_lo = 0;
    s->peer_span = 0;
    s->peer_sparse = 0;
    if (!mpishmem_rt.shm_enabled)
        return; /* every transfer through MPI, this PE's own included */
    if (node->world == NULL && node->stride == 1) {
        s->peer_lo = node->start;
        s->peer_span = (unsigned)node->n;
    } else {
        s->peer_sparse = 1;
    }
}
