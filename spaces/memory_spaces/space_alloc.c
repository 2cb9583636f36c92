/*
 * mpishmem: shmem_space_malloc, shmem_space_calloc, shmem_space_free.
 *
 * Collective over the space's team, through the same agreement as
 * shmem_malloc (heap_collective.c) run over the space's communicator:
 * the closing allreduce is the team synchronization the proposals ask for
 * on exit, and free synchronizes the team on entry.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "space.h"
#include "../../mpi_backend/runtime/error.h"

static mpishmem_space_t *enter(const char *routine, shmem_space_t space)
{
    mpishmem_check_running(routine);
    if (space != SHMEM_SPACE_INVALID && MPISHMEM_DEBUG_ON)
        mpishmem_check_space(routine, space);
    return space;
}

void *shmem_space_malloc(shmem_space_t space, size_t size)
{
    mpishmem_space_t *sp = enter("shmem_space_malloc", space);
    if (sp == NULL || size == 0)
        return NULL; /* no synchronization either */
    return mpishmem_heap_coll_alloc("shmem_space_malloc", sp->heap, size, 0);
}

void *shmem_space_calloc(shmem_space_t space, size_t count, size_t size)
{
    mpishmem_space_t *sp = enter("shmem_space_calloc", space);
    if (sp == NULL || count == 0 || size == 0)
        return NULL;
    return mpishmem_heap_coll_calloc("shmem_space_calloc", sp->heap, count, size);
}

void shmem_space_free(shmem_space_t space, void *ptr)
{
    static const char routine[] = "shmem_space_free";
    mpishmem_space_t *sp = enter(routine, space);
    if (sp == NULL || ptr == NULL)
        return;
    /* Freeing into the wrong space would corrupt both allocators: always
     * checked, agreed by every PE in the entry barrier (a warning and no
     * operation, or a stop under SHMEM_DEBUG: docs/checks.md). */
    mpishmem_heap_coll_free(routine, sp->heap, ptr);
}
