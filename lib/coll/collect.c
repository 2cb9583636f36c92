/*
 * mpishmem: concatenation: fcollect (MPI_Iallgather) and collect, whose
 * counts differ by PE (MPI_Iallgather of the counts, then
 * MPI_Iallgatherv); the byte forms and the deprecated 32/64-bit forms.
 *
 * In place: when source is this PE's block of dest, or overlaps dest at
 * all (dest == source included), the block is moved into place first and
 * MPI_IN_PLACE sent; source is not needed after that.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include "coll.h"
#include "../../mpi_backend/node_barrier.h"
#include "../trace.h"

/* The send buffer for a gather into dest (total bytes) whose block for
 * this PE is `slot`. */
static const void *gather_source(void *slot, const void *source, size_t bytes,
                                 const void *dest, size_t total)
{
    if (source == slot)
        return MPI_IN_PLACE;
    if (mpishmem_coll_overlap(source, bytes, dest, total)) {
        mpishmem_gpu_copy(slot, source, bytes);
        return MPI_IN_PLACE;
    }
    return source;
}

/* SHMEM_DEBUG: the spec allows dest == source or disjoint arrays; source
 * already sitting in this PE's block is MPI's in-place form, allowed too. */
static void check_gather_alias(const char *routine, const void *dest, size_t total,
                               const void *slot, const void *source, size_t bytes)
{
    if (source != slot)
        mpishmem_coll_check_alias(routine, dest, total, source, bytes);
}

void mpishmem_coll_fcollect(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                            const void *source, size_t nelems, size_t esize, MPI_Datatype dt)
{
    size_t bytes = mpishmem_checked_bytes(routine, nelems, esize);
    size_t total = mpishmem_coll_total(routine, nelems, bytes, c->n);
    int count = mpishmem_coll_count(routine, nelems);
    char *slot = (char *)dest + (size_t)c->me * bytes;
    if (MPISHMEM_DEBUG_ON) {
        static const char *const names[] = {"nelems", "dest"};
        long long v[] = {(long long)nelems, mpishmem_coll_symmetric_offset(dest)};
        mpishmem_coll_check_buffers(routine, c, dest, total, source, bytes, 0);
        check_gather_alias(routine, dest, total, slot, source, bytes);
        mpishmem_coll_check_same(routine, c, names, v, 2);
    }
    if (count == 0)
        return;
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_coll(c->comm, -1, bytes);
    mpishmem_coll_stage_t st;
    mpishmem_node_barrier_t *b;
    if (bytes <= MPISHMEM_NODE_SLOT && (b = mpishmem_coll_node(routine, c)) != NULL) {
        mpishmem_coll_small_fcollect(b, c, dest, source, bytes);
        return;
    }
    MPISHMEM_COLL_STAGE(routine, &st, &dest, total, &source, bytes, 0);
    slot = (char *)dest + (size_t)c->me * bytes;
    MPISHMEM_COLL_RUN(routine, mpishmem_coll_blocking(c), MPI_Allgather, MPI_Iallgather,
                      gather_source(slot, source, bytes, dest, total), count, dt, dest, count,
                      dt, c->comm);
    MPISHMEM_COLL_UNSTAGE(&st);
}

/* Allgatherv's int arrays, kept with the communicator for the next call. */
static void counts_ready(const char *routine, mpishmem_coll_comm_t *c)
{
    if (MPISHMEM_LIKELY(c->counts != NULL))
        return;
    c->counts = malloc((size_t)c->n * sizeof(int));
    c->displs = malloc((size_t)c->n * sizeof(int));
    if (c->counts == NULL || c->displs == NULL)
        mpishmem_fatal(routine, "out of memory for the counts of %d PEs", c->n);
}

void mpishmem_coll_collect(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                           const void *source, size_t nelems, size_t esize, MPI_Datatype dt)
{
    size_t bytes = mpishmem_checked_bytes(routine, nelems, esize);
    int count = mpishmem_coll_count(routine, nelems);
    counts_ready(routine, c);
    /* On one node the counts (and small parts) travel through the slots. */
    mpishmem_node_barrier_t *b = mpishmem_coll_node(routine, c);
    int small = 0;
    if (b != NULL)
        small = mpishmem_coll_small_collect_start(b, c, source, bytes, esize);
    else
        MPISHMEM_COLL_RUN(routine, mpishmem_coll_blocking(c), MPI_Allgather,
                          MPI_Iallgather, &count, 1, MPI_INT, c->counts, 1, MPI_INT, c->comm);
    /* Every PE sees the same counts, so all of them stop here or none. */
    long long sum = 0;
    for (int i = 0; i < c->n; i++) {
        c->displs[i] = (int)sum;
        sum += c->counts[i];
        if (sum > INT_MAX)
            mpishmem_fatal(routine, "the PEs contribute more than INT_MAX elements in all, "
                           "the largest displacement of an MPI-3 collective");
    }
    size_t total = (size_t)sum * esize; /* sum <= INT_MAX elements of <= 16 bytes */
    char *slot = (char *)dest + (size_t)c->displs[c->me] * esize;
    if (MPISHMEM_DEBUG_ON) {
        static const char *const names[] = {"dest"};
        long long v[] = {mpishmem_coll_symmetric_offset(dest)};
        mpishmem_coll_check_buffers(routine, c, dest, total, source, bytes, 0);
        check_gather_alias(routine, dest, total, slot, source, bytes);
        mpishmem_coll_check_same(routine, c, names, v, 1);
    }
    if (sum == 0)
        return;
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_coll(c->comm, -1, bytes);
    if (small) {
        mpishmem_coll_small_collect_finish(b, c, dest, esize);
        return;
    }
    mpishmem_coll_stage_t st;
    MPISHMEM_COLL_STAGE(routine, &st, &dest, total, &source, bytes, 0);
    slot = (char *)dest + (size_t)c->displs[c->me] * esize;
    MPISHMEM_COLL_RUN(routine, mpishmem_coll_blocking(c), MPI_Allgatherv,
                      MPI_Iallgatherv, gather_source(slot, source, bytes, dest, total), count,
                      dt, dest, c->counts, c->displs, dt, c->comm);
    MPISHMEM_COLL_UNSTAGE(&st);
}

int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    static const char routine[] = "shmem_fcollectmem";
    mpishmem_coll_comm_t *c = mpishmem_coll_team(routine, team);
    if (c == NULL)
        return -1;
    mpishmem_coll_fcollect(routine, c, dest, source, nelems, 1, MPI_BYTE);
    return 0;
}

int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    static const char routine[] = "shmem_collectmem";
    mpishmem_coll_comm_t *c = mpishmem_coll_team(routine, team);
    if (c == NULL)
        return -1;
    mpishmem_coll_collect(routine, c, dest, source, nelems, 1, MPI_BYTE);
    return 0;
}

#define DEFINE_COLLECT_SIZED(BITS, BYTES, DT)                                                 \
    void shmem_fcollect##BITS(void *dest, const void *source, size_t nelems, int PE_start,  \
                              int logPE_stride, int PE_size, long *pSync)                  \
    {                                                                                       \
        static const char routine[] = "shmem_fcollect" #BITS;                               \
        mpishmem_coll_comm_t *c = mpishmem_active_set(routine, PE_start, logPE_stride,      \
                                                      PE_size, pSync,                       \
                                                      SHMEM_COLLECT_SYNC_SIZE);             \
        mpishmem_coll_fcollect(routine, c, dest, source, nelems, BYTES, DT);                \
    }                                                                                       \
    void shmem_collect##BITS(void *dest, const void *source, size_t nelems, int PE_start,   \
                             int logPE_stride, int PE_size, long *pSync)                   \
    {                                                                                       \
        static const char routine[] = "shmem_collect" #BITS;                                \
        mpishmem_coll_comm_t *c = mpishmem_active_set(routine, PE_start, logPE_stride,      \
                                                      PE_size, pSync,                       \
                                                      SHMEM_COLLECT_SYNC_SIZE);             \
        mpishmem_coll_collect(routine, c, dest, source, nelems, BYTES, DT);                 \
    }
DEFINE_COLLECT_SIZED(32, 4, MPI_UINT32_T)
DEFINE_COLLECT_SIZED(64, 8, MPI_UINT64_T)
