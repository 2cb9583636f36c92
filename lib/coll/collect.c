/*
 * mpishmem: concatenation: fcollect (MPI_Allgather, messages of our own,
 * or MPI_Iallgather) and collect, whose counts differ by PE (the counts
 * gathered first, then the data by MPI_Allgatherv, messages of our own or
 * MPI_Iallgatherv); the byte forms and the deprecated 32/64-bit forms.
 *
 * In place: when source is this PE's block of dest, or overlaps dest at
 * all (dest == source included), the block is moved into place first and
 * MPI_IN_PLACE sent; source is not needed after that.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "../../mpi_backend/progress/node_barrier.h"
#include "../trace.h"

/* Up to this many bytes in all, a gather that must be polled travels as
 * point-to-point messages (gather_polled: ceil(log2 n) rounds) instead of
 * a polled MPI_Iallgather(v), whose rounds MPICH progresses slowly when
 * polled (as its MPI_Iallreduce and MPI_Ibcast: docs/collectives.md). */
#define POLLED_P2P_MAX 8192

/* Byte offset of PE pe's block in dest: displs (elements of esize bytes),
 * or pe * bytes when every block has the same size (displs NULL). */
static size_t block_at(int pe, size_t bytes, const int *displs, size_t esize)
{
    return displs != NULL ? (size_t)displs[pe] * esize : (size_t)pe * bytes;
}

/* Bruck's concatenation.  The scratch holds the blocks of PEs me, me+1,
 * ... (mod n) in that order; in the round of distance k = 1, 2, 4, ... a
 * PE sends its first min(k, n-k) blocks to me-k and receives as many from
 * me+k, which are its blocks k, k+1, ...; at the end the scratch is
 * rotated into dest.  mine is this PE's block, read before dest is
 * written (so it may lie anywhere in dest); total (at most
 * POLLED_P2P_MAX) is the bytes of all blocks. */
static void gather_polled(mpishmem_coll_comm_t *c, void *dest, const void *mine, size_t bytes,
                          const int *displs, size_t esize, size_t total)
{
    _Alignas(16) unsigned char scratch[POLLED_P2P_MAX];
    int n = c->n, me = c->me;
    size_t base = block_at(me, bytes, displs, esize);
    /* Offset in the scratch of the block j places after this PE's. */
#define ROTATED(j) ((j) >= n ? total                                                       \
                    : me + (j) < n ? block_at(me + (j), bytes, displs, esize) - base      \
                    : total - base + block_at(me + (j) - n, bytes, displs, esize))
    memcpy(scratch, mine, ROTATED(1));
    for (int k = 1; k < n; k <<= 1) {
        int cnt = k < n - k ? k : n - k;
        MPI_Request r[2];
        MPISHMEM_MPI(MPI_Irecv(scratch + ROTATED(k), (int)(ROTATED(k + cnt) - ROTATED(k)),
                               MPI_BYTE, (me + k) % n, MPISHMEM_GATHER_TAG, c->comm, &r[0]));
        MPISHMEM_MPI(MPI_Isend(scratch, (int)ROTATED(cnt), MPI_BYTE, (me - k + n) % n,
                               MPISHMEM_GATHER_TAG, c->comm, &r[1]));
        mpishmem_wait_message(&r[0]);
        mpishmem_wait_message(&r[1]);
    }
#undef ROTATED
    memcpy((char *)dest + base, scratch, total - base);
    memcpy(dest, scratch + (total - base), base);
}

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
    /* On one node: through the slots, or copied straight from the peers'
     * sources (coll_large.c), which may decline: then MPI's collective. */
    mpishmem_node_barrier_t *b = mpishmem_coll_node(routine, c);
    if (b != NULL && bytes <= MPISHMEM_NODE_SLOT) {
        mpishmem_coll_small_fcollect(b, c, dest, source, bytes);
        return;
    }
    if (b != NULL && mpishmem_coll_large_fcollect(b, c, dest, source, bytes))
        return;
    /* total and c->may_block are the same on every PE: all choose alike.
     * Our own messages copy with the CPU: device memory is staged. */
    int polled = !mpishmem_coll_blocking(c) && total <= POLLED_P2P_MAX;
    MPISHMEM_COLL_STAGE(routine, &st, &dest, total, &source, bytes, polled);
    slot = (char *)dest + (size_t)c->me * bytes;
    if (polled)
        gather_polled(c, dest, source, bytes, NULL, 1, total);
    else
        MPISHMEM_COLL_RUN(routine, mpishmem_coll_blocking(c), MPI_Allgather, MPI_Iallgather,
                          gather_source(slot, source, bytes, dest, total), count, dt, dest,
                          count, dt, c->comm);
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
    if (b != NULL) {
        _Alignas(8) char record[MPISHMEM_COLL_RECORD];
        mpishmem_coll_large_mark(c, record, dest, source, bytes);
        small = mpishmem_coll_small_collect_start(b, c, record, source, bytes, esize);
    }
    else if (!mpishmem_coll_blocking(c) && (size_t)c->n * sizeof(int) <= POLLED_P2P_MAX)
        gather_polled(c, c->counts, &count, sizeof(int), NULL, 1, (size_t)c->n * sizeof(int));
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
    if (b != NULL && mpishmem_coll_large_collect(b, c, dest, source, esize,
                                                 MPISHMEM_COLL_COLLECT_ROOM))
        return;
    mpishmem_coll_stage_t st;
    int polled = !mpishmem_coll_blocking(c) && total <= POLLED_P2P_MAX;
    MPISHMEM_COLL_STAGE(routine, &st, &dest, total, &source, bytes, polled);
    slot = (char *)dest + (size_t)c->displs[c->me] * esize;
    if (polled) {
        gather_polled(c, dest, source, bytes, c->displs, esize, total);
        MPISHMEM_COLL_UNSTAGE(&st);
        return;
    }
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
