/*
 * mpishmem: collective allocation on one symmetric heap.
 *
 * Each PE runs its own copy of the deterministic allocator, then the PEs of
 * the heap's communicator agree on the result in one allreduce, which is
 * also the barrier the spec requires on exit:
 *   - all succeeded at the same offset -> return it;
 *   - some PE failed -> every PE undoes its part and returns NULL, so
 *     exhaustion is reported everywhere and the heap stays consistent;
 *   - different offsets -> the PEs made different calls: stop with a message.
 * Used by shmem_malloc & co. (the default space) and shmem_space_malloc &
 * co. (any space, over the space's team).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "heap.h"
#include "../mpi_backend/error.h"
#include "../mpi_backend/progress.h"

#define NO_OFFSET UINT64_MAX

static uint64_t offset_of(const mpishmem_heap_t *h, const void *p)
{
    return p ? (uint64_t)((const char *)p - h->seg.base) : NO_OFFSET;
}

void mpishmem_heap_coll_barrier(mpishmem_heap_t *h)
{
    mpishmem_complete_all();
    mpishmem_barrier_comm(h->comm);
}

static void report_exhausted(const char *routine, const mpishmem_heap_t *h, size_t size)
{
    mpishmem_allocator_stats_t st;
    mpishmem_allocator_stats(h->alloc, &st);
    const char *var = h->size_var ? h->size_var : "default";
    int dflt = strcmp(var, "default") == 0;
    fprintf(stderr, "mpishmem: %s: warning: %s exhausted: %zu bytes requested, but the heap "
            "is %zu bytes in all (%s%s), largest free block %zu bytes; returning NULL on "
            "every PE%s\n", mpishmem_api_name(routine), h->seg.name, size, h->capacity,
            dflt ? "the default size; set SHMEM_SYMMETRIC_SIZE to change it" : "set by ",
            dflt ? "" : var, st.largest_free,
            MPISHMEM_DEBUG_ON ? "" : " (later exhaustion is reported with SHMEM_DEBUG=1)");
}

void *mpishmem_heap_agree(const char *routine, mpishmem_heap_t *h, void *mine, size_t size,
                          void (*undo)(mpishmem_heap_t *h, void *p))
{
    mpishmem_complete_all();
    uint64_t v[2] = {offset_of(h, mine), ~offset_of(h, mine)}, r[2];
    MPI_Request req;
    MPI_Iallreduce(v, r, 2, MPI_UINT64_T, MPI_MIN, h->comm, &req);
    mpishmem_wait_request(&req);
    uint64_t lo = r[0], hi = ~r[1];
    if (lo == hi && lo != NO_OFFSET)
        return mine;
    if (hi == NO_OFFSET) {
        if (mine && undo)
            undo(h, mine);
        int rank = 0;
        MPI_Comm_rank(h->comm, &rank);
        /* The first exhaustion of a heap is always explained (a heap set
         * too small, e.g. SHMEM_SYMMETRIC_SIZE=1000, shows up here); later
         * ones only with SHMEM_DEBUG, since programs may probe for room. */
        if ((MPISHMEM_DEBUG_ON || !h->exhausted_once) && rank == 0)
            report_exhausted(routine, h, size);
        h->exhausted_once = 1;
        return NULL;
    }
    mpishmem_fatal(routine, "PEs got different symmetric offsets (%llu here, from %llu to "
                   "%llu across PEs): every PE must make the same allocation calls with the "
                   "same arguments", (unsigned long long)offset_of(h, mine),
                   (unsigned long long)lo, (unsigned long long)hi);
}

static void undo_alloc(mpishmem_heap_t *h, void *p)
{
    mpishmem_heap_free(h, p);
}

void *mpishmem_heap_coll_alloc(const char *routine, mpishmem_heap_t *h, size_t size,
                               size_t align)
{
    if (size == 0)
        return NULL;
    return mpishmem_heap_agree(routine, h, mpishmem_heap_alloc(h, size, align), size,
                               undo_alloc);
}

void *mpishmem_heap_coll_calloc(const char *routine, mpishmem_heap_t *h, size_t count,
                                size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes))
        return mpishmem_heap_agree(routine, h, NULL, SIZE_MAX, undo_alloc);
    if (bytes == 0)
        return NULL;
    void *p = mpishmem_heap_alloc(h, bytes, 0);
    if (p)
        mpishmem_heap_zero(h, p, bytes);
    return mpishmem_heap_agree(routine, h, p, bytes, undo_alloc);
}

void mpishmem_heap_coll_free(const char *routine, mpishmem_heap_t *h, void *ptr)
{
    mpishmem_heap_coll_barrier(h);
    if (mpishmem_heap_free(h, ptr) != 0)
        mpishmem_fatal(routine, "%p was not allocated from the %s or is already freed", ptr,
                       h->seg.name);
}
