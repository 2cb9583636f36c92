/*
 * mpishmem: the live spaces of this PE.
 *
 * Spaces are few and made collectively, so a list is enough: handles are
 * validated against it only in SHMEM_DEBUG mode and in queries.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "space.h"
#include "../../mpi_backend/runtime/error.h"

mpishmem_space_t *mpishmem_spaces_head;
mpishmem_space_counts_t mpishmem_space_counts;

void mpishmem_space_link(mpishmem_space_t *sp)
{
    /* Oldest first: shmem_finalize releases spaces in creation order, the
     * same order on every PE, so the collective frees cannot cross. */
    mpishmem_space_t **at = &mpishmem_spaces_head;
    while (*at)
        at = &(*at)->next;
    sp->next = NULL;
    *at = sp;
    mpishmem_space_counts.spaces++;
}

void mpishmem_space_unlink(mpishmem_space_t *sp)
{
    for (mpishmem_space_t **at = &mpishmem_spaces_head; *at; at = &(*at)->next)
        if (*at == sp) {
            *at = sp->next;
            mpishmem_space_counts.spaces--;
            return;
        }
}

int mpishmem_space_is_live(const mpishmem_space_t *sp)
{
    for (const mpishmem_space_t *s = mpishmem_spaces_head; s; s = s->next)
        if (s == sp)
            return 1;
    return 0;
}

mpishmem_space_t *mpishmem_space_of_segment(const mpishmem_segment_t *seg)
{
    for (mpishmem_space_t *s = mpishmem_spaces_head; s; s = s->next)
        if (&s->heap->seg == seg)
            return s;
    return NULL;
}

void mpishmem_check_space(const char *routine, shmem_space_t space)
{
    mpishmem_check_running(routine);
    if (!mpishmem_space_is_live(space))
        mpishmem_fatal(routine, "space handle %p is not a live space on this PE (destroyed, "
                       "never created, or this PE is not a member of its team)", space);
}
