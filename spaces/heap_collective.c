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
 * Bad arguments (an alignment that is no power of two, a pointer that is no
 * live block) take part in the same collective as a refusal, so every PE
 * returns alike and none is left waiting; the lowest PE that refused warns.
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

#define NO_OFFSET ((uint64_t)INT64_MAX) /* offsets are far below */

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

/* A misuse found by the PEs together: the lowest PE that saw it explains
 * it once, or stops the job under SHMEM_DEBUG (docs/checks.md). */
static void refuse(const char *routine, const char *bad, const char *outcome)
{
    if (MPISHMEM_DEBUG_ON)
        mpishmem_fatal(routine, "%s", bad);
    fprintf(stderr, "mpishmem: %s: warning: %s; %s (PE %d; SHMEM_DEBUG=1 stops instead)\n",
            mpishmem_api_name(routine), bad, outcome, mpishmem_rt.my_pe);
}

/* Agreement on an allocation: each PE's offset (NO_OFFSET for none) and
 * whether it refused the call (`bad`, NULL when its arguments are fine). */
static void *agree(const char *routine, mpishmem_heap_t *h, void *mine, size_t size,
                   void (*undo)(mpishmem_heap_t *h, void *p), const char *bad)
{
    mpishmem_complete_all();
    int rank = 0;
    MPISHMEM_MPI(MPI_Comm_rank(h->comm, &rank));
    /* Signed and non-negative: MPICH 4.0 takes MPI_MIN of MPI_UINT64_T as
     * signed, so an all-ones "no offset" would win every comparison. */
    int64_t off = (int64_t)offset_of(h, mine);
    int64_t v[3] = {off, INT64_MAX - off, bad ? rank : INT64_MAX}, r[3];
    MPI_Request req;
    MPISHMEM_MPI(MPI_Iallreduce(v, r, 3, MPI_INT64_T, MPI_MIN, h->comm, &req));
    mpishmem_wait_request(&req);
    uint64_t lo = (uint64_t)r[0], hi = (uint64_t)(INT64_MAX - r[1]);
    if (r[2] != INT64_MAX) { /* some PE refused: every PE returns NULL */
        if (mine && undo)
            undo(h, mine);
        if (bad != NULL && r[2] == rank)
            refuse(routine, bad, "returning NULL on every PE");
        return NULL;
    }
    if (lo == hi && lo != NO_OFFSET)
        return mine;
    if (hi == NO_OFFSET) {
        if (mine && undo)
            undo(h, mine);
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

void *mpishmem_heap_agree(const char *routine, mpishmem_heap_t *h, void *mine, size_t size,
                          void (*undo)(mpishmem_heap_t *h, void *p))
{
    return agree(routine, h, mine, size, undo, NULL);
}

void *mpishmem_heap_coll_refuse(const char *routine, mpishmem_heap_t *h, const char *bad)
{
    return agree(routine, h, NULL, 0, NULL, bad);
}

int mpishmem_heap_coll_live(const char *routine, mpishmem_heap_t *h, const void *ptr,
                            const char *outcome)
{
    int live = mpishmem_heap_usable_size(h, ptr) != 0; /* the start of a live block */
    mpishmem_complete_all();
    int rank = 0, size = 0, mine, lowest;
    MPISHMEM_MPI(MPI_Comm_rank(h->comm, &rank));
    MPISHMEM_MPI(MPI_Comm_size(h->comm, &size));
    mine = live ? size : rank;
    mpishmem_allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, h->comm);
    if (lowest == size)
        return 1;
    if (lowest == rank) {
        char bad[192];
        snprintf(bad, sizeof bad, "%p was not allocated from the %s, or is already freed",
                 ptr, h->seg.name);
        refuse(routine, bad, outcome);
    }
    return 0;
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
    if (__builtin_mul_overflow(count, size, &bytes)) {
        char bad[96];
        snprintf(bad, sizeof bad, "count %zu times size %zu overflows size_t", count, size);
        return mpishmem_heap_coll_refuse(routine, h, bad);
    }
    if (bytes == 0)
        return NULL;
    void *p = mpishmem_heap_alloc(h, bytes, 0);
    if (p)
        mpishmem_heap_zero(h, p, bytes);
    return mpishmem_heap_agree(routine, h, p, bytes, undo_alloc);
}

void mpishmem_heap_coll_free(const char *routine, mpishmem_heap_t *h, void *ptr)
{
    if (mpishmem_heap_coll_live(routine, h, ptr, "nothing is freed on any PE"))
        mpishmem_heap_free(h, ptr);
}
