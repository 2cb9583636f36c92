/*
 * mpishmem: questions about spaces (local, not collective), and the
 * proposals' deferred routines as shmemx_ extensions.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmemx.h>
#include "space.h"
#include "../../mpi_backend/runtime/error.h"

/* NULL for SHMEM_SPACE_INVALID; in SHMEM_DEBUG mode stops on a dead handle. */
static mpishmem_space_t *look(const char *routine, shmem_space_t space)
{
    if (MPISHMEM_DEBUG_ON) {
        mpishmem_check_running(routine);
        if (space != SHMEM_SPACE_INVALID)
            mpishmem_check_space(routine, space);
    }
    return space;
}

int shmem_space_get_team(shmem_space_t space, shmem_team_t *team)
{
    mpishmem_space_t *sp = look("shmem_space_get_team", space);
    if (sp == NULL)
        return -1;
    *team = sp->team;
    /* A dynamic space whose team the user destroyed has no team any more. */
    return sp->team == SHMEM_TEAM_INVALID ? -1 : 0;
}

int shmem_space_get_device_type(shmem_space_t space, shmem_device_type_t *type)
{
    mpishmem_space_t *sp = look("shmem_space_get_device_type", space);
    if (sp == NULL)
        return -1;
    *type = sp->device;
    return 0;
}

int shmem_space_get_caps(shmem_space_t space, shmem_space_cap_t *caps)
{
    mpishmem_space_t *sp = look("shmem_space_get_caps", space);
    if (sp == NULL)
        return -1;
    *caps = sp->caps;
    return 0;
}

int shmem_space_is_available(shmem_space_t space)
{
    /* A handle is valid on this PE exactly when this PE can allocate in it
     * (unavailable predefined spaces read SHMEM_SPACE_INVALID). */
    return look("shmem_space_is_available", space) == NULL ? -1 : 0;
}

int shmemx_get_space(const void *ptr, shmem_space_t *space)
{
    if (MPISHMEM_DEBUG_ON)
        mpishmem_check_running("shmemx_get_space");
    if (ptr == NULL)
        return -1;
    const mpishmem_segment_t *s = mpishmem_segment_find(ptr);
    mpishmem_space_t *sp = s ? mpishmem_space_of_segment(s) : NULL;
    if (sp == NULL)
        return -1; /* global data or private memory: not from an allocation routine */
    *space = sp;
    return 0;
}

int shmemx_team_get_space(shmem_team_t team, shmem_space_t *space)
{
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    mpishmem_check_team("shmemx_team_get_space", team);
    /* A team belongs to the space it was made from: walk up to a space
     * team's anchor, or to SHMEM_TEAM_WORLD (the default space).  Teams
     * made from a user's communicator belong to no space. */
    for (shmem_team_t t = team; t != NULL; t = t->parent) {
        if (t == SHMEM_TEAM_WORLD) {
            *space = SHMEM_SPACE_DEFAULT;
            return 0;
        }
        for (mpishmem_space_t *sp = mpishmem_spaces_head; sp; sp = sp->next)
            if (t == &sp->anchor || (t == sp->team && sp->team != SHMEM_TEAM_INVALID)) {
                *space = sp;
                return 0;
            }
    }
    return -1;
}

void *shmemx_space_ptr(shmem_space_t space, const void *dest, int pe)
{
    mpishmem_space_t *sp = look("shmemx_space_ptr", space);
    if (sp == NULL || (unsigned)pe >= (unsigned)mpishmem_rt.n_pes ||
        !(sp->caps & SHMEM_SPACE_CAP_DIRECT_ACCESS) || !mpishmem_heap_holds(sp->heap, dest))
        return NULL;
    if (pe == mpishmem_rt.my_pe)
        return (void *)dest;
    char *peer = mpishmem_segment_peer(&sp->heap->seg, pe);
    if (peer == NULL)
        return NULL;
    /* As shmem_ptr: the program may store through it, so quiet fences. */
    __atomic_store_n(&mpishmem_stores_unseen, 1, __ATOMIC_RELAXED);
    return peer + ((const char *)dest - sp->heap->seg.base);
}
