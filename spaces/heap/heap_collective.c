/*
 * mpishmem: collective allocation on one symmetric heap.
 *
 * Each PE runs its own copy of the deterministic allocator, then the PEs of
 * the heap's communicator agree on the result in one allreduce, which is
 * also the barrier the spec requires on exit:
 *   - all succeeded at the same offset -> return it;
 *   - some PE failed -> every PE undoes its part and returns NULL, so
 *     exhaustion is reported everywhere and the heap stays consistent;
 *   - different sizes -> the PEs made different calls: stop naming two PEs
 *     and their sizes (the same allreduce carries the smallest and largest);
 *   - different offsets -> the PEs made different calls: stop with a message.
 * Freeing (and the entry of realloc) agrees likewise on the block: the same
 * offset on every PE, else a stop naming two PEs and their blocks.
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
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "heap.h"
#include "../../mpi_backend/runtime/error.h"
#include "../../mpi_backend/progress/progress.h"

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

/* World PE number of rank `rank` of h->comm. */
static int world_pe_of(const mpishmem_heap_t *h, int rank)
{
    return h->seg.ranks ? mpishmem_pe_map_world(h->seg.ranks, rank) : rank;
}

/* Every PE of h->comm saw that the PEs passed different values (`mine`
 * here) where they must pass the same: gather them (the failure path
 * alone pays this collective) and stop the job.  The lowest PE names the
 * first PE whose value differs from its own; the others give its message
 * time to get out before they stop too. */
static void __attribute__((noreturn))
disagree(const char *routine, const mpishmem_heap_t *h, int64_t mine, const char *what)
{
    int rank = 0, n = 0;
    MPISHMEM_MPI(MPI_Comm_rank(h->comm, &rank));
    MPISHMEM_MPI(MPI_Comm_size(h->comm, &n));
    int64_t *all = malloc((size_t)n * sizeof *all);
    if (all == NULL)
        mpishmem_fatal(routine, "PEs disagree on the %s", what);
    mpishmem_allgather(&mine, 1, MPI_INT64_T, all, 1, MPI_INT64_T, h->comm);
    int j = 1;
    while (j < n - 1 && all[j] == all[0])
        j++;
    if (rank == 0) {
        if (strcmp(what, "size") == 0)
            mpishmem_fatal(routine, "PEs disagree on the size: PE %d asked for %lld bytes, "
                           "PE %d for %lld (every PE must make the same allocation calls "
                           "with the same arguments)", world_pe_of(h, 0), (long long)all[0],
                           world_pe_of(h, j), (long long)all[j]);
        mpishmem_fatal(routine, "PEs disagree on the block: PE %d passed the one at offset "
                       "%lld of the %s, PE %d the one at offset %lld (every PE must pass "
                       "the same block)", world_pe_of(h, 0), (long long)all[0], h->seg.name,
                       world_pe_of(h, j), (long long)all[j]);
    }
    struct timespec pause = {2, 0};
    nanosleep(&pause, NULL);
    mpishmem_stop_job();
}

/* Sizes compare as int64 (MPI_MIN, as below); larger ones fail anyway. */
static int64_t size_key(size_t size)
{
    return size > (size_t)INT64_MAX ? INT64_MAX : (int64_t)size;
}

/* Agreement on an allocation: each PE's offset (NO_OFFSET for none), its
 * size, and whether it refused the call (`bad`, NULL when its arguments
 * are fine).  One allreduce carries minimum and maximum of each. */
static void *agree(const char *routine, mpishmem_heap_t *h, void *mine, size_t size,
                   void (*undo)(mpishmem_heap_t *h, void *p), const char *bad)
{
    mpishmem_complete_all();
    int rank = 0;
    MPISHMEM_MPI(MPI_Comm_rank(h->comm, &rank));
    /* Signed and non-negative: MPICH 4.0 takes MPI_MIN of MPI_UINT64_T as
     * signed, so an all-ones "no offset" would win every comparison. */
    int64_t off = (int64_t)offset_of(h, mine), sz = size_key(size);
    int64_t v[5] = {off, INT64_MAX - off, bad ? rank : INT64_MAX, sz, INT64_MAX - sz}, r[5];
    MPI_Request req;
    MPISHMEM_MPI(MPI_Iallreduce(v, r, 5, MPI_INT64_T, MPI_MIN, h->comm, &req));
    mpishmem_wait_request(&req);
    uint64_t lo = (uint64_t)r[0], hi = (uint64_t)(INT64_MAX - r[1]);
    if (r[2] != INT64_MAX) { /* some PE refused: every PE returns NULL */
        if (mine && undo)
            undo(h, mine);
        if (bad != NULL && r[2] == rank)
            refuse(routine, bad, "returning NULL on every PE");
        return NULL;
    }
    if (r[3] != INT64_MAX - r[4])
        disagree(routine, h, sz, "size");
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
    int rank = 0, size = 0;
    MPISHMEM_MPI(MPI_Comm_rank(h->comm, &rank));
    MPISHMEM_MPI(MPI_Comm_size(h->comm, &size));
    /* The lowest PE with a bad ptr, and the smallest and largest offset. */
    int64_t off = live ? (int64_t)offset_of(h, ptr) : 0;
    int64_t v[3] = {live ? size : rank, off, INT64_MAX - off}, r[3];
    mpishmem_allreduce(v, r, 3, MPI_INT64_T, MPI_MIN, h->comm);
    if (r[0] == size) {
        if (r[1] != INT64_MAX - r[2])
            disagree(routine, h, off, "block");
        return 1;
    }
    if (r[0] == rank) {
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
