/*
 * mpishmem: large collectives of a team whose PEs share one node, as
 * direct copies between the PEs' symmetric memory (mapped into every PE
 * of the node: mpishmem_segment_peer) instead of MPI's collective, which
 * on one node copies every byte twice, through MPI's own shared buffers.
 *
 * Every routine here runs between the barriers of the team's node object
 * (mpi_backend/progress/node_barrier.h):
 *  1. each PE writes a record into its slot (whether its buffers are in
 *     host memory that every member maps, and where they lie) and waits in
 *     the barrier;
 *  2. each PE reads every record: if one PE said no, all of them return 0
 *     and the caller runs MPI's collective (every PE sees the same records,
 *     so all decide alike);
 *  3. else each PE reads what it needs from its peers' source (or dest)
 *     and writes only its own dest;
 *  4. a last barrier, so that no PE returns (and overwrites its source)
 *     while a peer still reads it.
 * A reader finds a peer's block through its own copy of the same argument
 * (source and dest are symmetric: the same segment on every PE) and the
 * peer's offset in it, taken from the record.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "../../mpi_backend/progress/node_barrier.h"
#include "../../mpi_backend/memory/segment.h"
#include "../../mpi_backend/runtime/runtime.h"

/* What a PE says in its slot before the first barrier. */
typedef struct record {
    uint64_t ok;                 /* its buffers can be read by every member */
    uint64_t src_off, dst_off;   /* offsets of source and dest in their segments */
    uintptr_t src, dst;          /* their addresses here (for overlap tests) */
    uint64_t in_place;           /* dest == source */
} record_t;
_Static_assert(sizeof(record_t) == MPISHMEM_COLL_RECORD, "coll.h's MPISHMEM_COLL_RECORD");

/* World PE of every member of c, made on first use (local). */
static const int *world_pes(mpishmem_coll_comm_t *c)
{
    if (MPISHMEM_LIKELY(c->world != NULL))
        return c->world;
    int *rank = malloc(2 * (size_t)c->n * sizeof(int));
    if (rank == NULL)
        mpishmem_fatal("collective", "out of memory for the PEs of a %d-PE team", c->n);
    MPI_Group g, w;
    MPISHMEM_MPI(MPI_Comm_group(c->comm, &g));
    MPISHMEM_MPI(MPI_Comm_group(mpishmem_rt.world, &w));
    for (int i = 0; i < c->n; i++)
        rank[c->n + i] = i;
    MPISHMEM_MPI(MPI_Group_translate_ranks(g, c->n, rank + c->n, w, rank));
    MPISHMEM_MPI(MPI_Group_free(&g));
    MPISHMEM_MPI(MPI_Group_free(&w));
    c->world = rank;
    return rank;
}

/* The segment of [p, p+len) when it is host memory that every member of
 * c maps here, else NULL; *off its offset there. */
static mpishmem_segment_t *mapped(mpishmem_coll_comm_t *c, const void *p, size_t len,
                                  uint64_t *off)
{
    mpishmem_segment_t *s = mpishmem_segment_find(p);
    if (s == NULL || s->gpu != NULL || !mpishmem_segment_holds_range(s, p, len))
        return NULL;
    const int *pe = world_pes(c);
    for (int i = 0; i < c->n; i++)
        if (i != c->me && mpishmem_segment_peer(s, pe[i]) == NULL)
            return NULL;
    *off = (uint64_t)((const char *)p - s->base);
    return s;
}

/* Member i's copy of the segment s at offset off. */
static const char *at_peer(mpishmem_coll_comm_t *c, mpishmem_segment_t *s, int i, uint64_t off)
{
    return (i == c->me ? s->base : mpishmem_segment_peer(s, c->world[i])) + off;
}

/* Writes this PE's record (ok only when it can be read through source
 * and dest, of slen and dlen bytes, and `also` holds) and waits in the
 * barrier; then whether every member's record says ok. */
static int meet(mpishmem_node_barrier_t *b, mpishmem_coll_comm_t *c, const void *dest,
                size_t dlen, const void *source, size_t slen, int also,
                mpishmem_segment_t **ss, mpishmem_segment_t **ds)
{
    record_t r = {0, 0, 0, (uintptr_t)source, (uintptr_t)dest, dest == source};
    *ss = mapped(c, source, slen, &r.src_off);
    *ds = mapped(c, dest, dlen, &r.dst_off);
    r.ok = also && *ss != NULL && *ds != NULL;
    memcpy(mpishmem_node_slot(b, c->me, 1), &r, sizeof r);
    mpishmem_node_barrier_wait(b);
    for (int i = 0; i < c->n; i++)
        if (!((const record_t *)mpishmem_node_slot(b, i, 0))->ok)
            return 0;
    return 1;
}

static inline const record_t *rec(mpishmem_node_barrier_t *b, int i)
{
    return (const record_t *)mpishmem_node_slot(b, i, 0);
}

int mpishmem_coll_large_fcollect(mpishmem_node_barrier_t *b, mpishmem_coll_comm_t *c,
                                 void *dest, const void *source, size_t bytes)
{
    size_t total = bytes * (size_t)c->n;
    char *slot = (char *)dest + (size_t)c->me * bytes;
    /* In place (source is this PE's block) or disjoint; anything else
     * overlapping dest would be overwritten while peers read it. */
    int fine = source == slot || !mpishmem_coll_overlap(source, bytes, dest, total);
    mpishmem_segment_t *ss, *ds;
    if (!meet(b, c, dest, total, source, bytes, fine, &ss, &ds))
        return 0;
    for (int k = 1; k <= c->n; k++) { /* from the next PE on, so readers spread */
        int i = (c->me + k) % c->n;
        char *to = (char *)dest + (size_t)i * bytes;
        if (i == c->me) {
            if (source != slot)
                memcpy(to, source, bytes);
        } else {
            memcpy(to, at_peer(c, ss, i, rec(b, i)->src_off), bytes);
        }
    }
    mpishmem_node_barrier_wait(b);
    return 1;
}

void mpishmem_coll_large_mark(mpishmem_coll_comm_t *c, void *into, const void *dest,
                              const void *source, size_t bytes)
{
    record_t r = {0, 0, 0, (uintptr_t)source, (uintptr_t)dest, dest == source};
    /* dest's length is known only once every count is: its start must be
     * mapped; the overlap is judged after the barrier, from the records. */
    r.ok = mapped(c, source, bytes, &r.src_off) != NULL &&
           mapped(c, dest, 1, &r.dst_off) != NULL;
    memcpy(into, &r, sizeof r);
}

/* Member i's record and part in a collect slot (coll_small.c). */
static inline const record_t *collect_rec(mpishmem_node_barrier_t *b, int i)
{
    return (const record_t *)(mpishmem_node_slot(b, i, 0) + sizeof(uint64_t));
}

int mpishmem_coll_large_collect(mpishmem_node_barrier_t *b, mpishmem_coll_comm_t *c,
                                void *dest, const void *source, size_t esize, size_t room)
{
    size_t total = 0;
    for (int i = 0; i < c->n; i++)
        total += (size_t)c->counts[i] * esize;
    /* Every PE reads the same records, so all decide alike.  A part that
     * did not fit its slot is read from its PE's source, which must not
     * overlap that PE's dest unless it is its own block. */
    for (int i = 0; i < c->n; i++) {
        const record_t *r = collect_rec(b, i);
        size_t len = (size_t)c->counts[i] * esize;
        uintptr_t own = r->dst + (size_t)c->displs[i] * esize;
        if (!r->ok || (len > room && r->src != own && r->src < r->dst + total &&
                       r->dst < r->src + len))
            return 0;
    }
    uint64_t off;
    mpishmem_segment_t *ss = mapped(c, source, 0, &off);
    for (int k = 1; k <= c->n; k++) { /* from the next PE on, so readers spread */
        int i = (c->me + k) % c->n;
        size_t len = (size_t)c->counts[i] * esize;
        char *to = (char *)dest + (size_t)c->displs[i] * esize;
        if (len <= room)
            memmove(to, (const char *)collect_rec(b, i) + MPISHMEM_COLL_RECORD, len);
        else if (i == c->me)
            memmove(to, source, len); /* nothing when already in place */
        else
            memcpy(to, at_peer(c, ss, i, collect_rec(b, i)->src_off), len);
    }
    mpishmem_node_barrier_wait(b);
    return 1;
}

int mpishmem_coll_large_broadcast(mpishmem_node_barrier_t *b, mpishmem_coll_comm_t *c,
                                  void *dest, const void *source, size_t bytes, int root,
                                  int root_dest)
{
    int am_root = c->me == root;
    /* The root writes its dest while the others read its source. */
    int fine = !am_root || dest == source || !mpishmem_coll_overlap(dest, bytes, source, bytes);
    mpishmem_segment_t *ss, *ds;
    if (!meet(b, c, dest, bytes, source, bytes, fine, &ss, &ds))
        return 0;
    if (!am_root)
        memcpy(dest, at_peer(c, ss, root, rec(b, root)->src_off), bytes);
    else if (root_dest && dest != source)
        memcpy(dest, source, bytes);
    mpishmem_node_barrier_wait(b);
    return 1;
}

/* Bytes a reduction combines at a time, in a buffer on the stack. */
#define REDUCE_BLOCK 4096

/* dest[from, to) (elements of esize bytes) <- the reduction of every
 * member's source there, in member order as the slots combine them
 * (coll_small.c), a block at a time: each block of this PE's source is
 * read before its dest is written, so dest == source is safe. */
static void reduce_range(mpishmem_node_barrier_t *b, mpishmem_coll_comm_t *c,
                         mpishmem_segment_t *ss, char *dest, size_t from, size_t to,
                         size_t esize, MPI_Datatype dt, MPI_Op op, MPI_Op mpi_op)
{
    _Alignas(64) char acc[REDUCE_BLOCK];
    size_t per = REDUCE_BLOCK / esize;
    for (size_t e = from; e < to; e += per) {
        size_t cnt = to - e < per ? to - e : per, at = e * esize;
        memcpy(acc, at_peer(c, ss, 0, rec(b, 0)->src_off) + at, cnt * esize);
        for (int i = 1; i < c->n; i++)
            mpishmem_coll_combine(acc, at_peer(c, ss, i, rec(b, i)->src_off) + at, (int)cnt,
                                  dt, op, mpi_op);
        memcpy(dest + at, acc, cnt * esize);
    }
}

/* Up to this many bytes every PE reduces the whole array itself (two
 * barriers); above it each reduces its share and then copies the others'
 * shares from their dest (three barriers, 1/n of the arithmetic each).
 * In place always shares: a PE must not write its dest (= source) while
 * its peers still read it. */
#define REDUCE_SHARE_MIN 16384

int mpishmem_coll_large_reduce(mpishmem_node_barrier_t *b, mpishmem_coll_comm_t *c, void *dest,
                               const void *source, int count, size_t esize, MPI_Datatype dt,
                               MPI_Op op, MPI_Op mpi_op)
{
    size_t bytes = (size_t)count * esize;
    int fine = dest == source || !mpishmem_coll_overlap(dest, bytes, source, bytes);
    mpishmem_segment_t *ss, *ds;
    if (!meet(b, c, dest, bytes, source, bytes, fine, &ss, &ds))
        return 0;
    int share = bytes > REDUCE_SHARE_MIN;
    for (int i = 0; i < c->n; i++)
        share = share || rec(b, i)->in_place;
    if (!share) {
        reduce_range(b, c, ss, dest, 0, (size_t)count, esize, dt, op, mpi_op);
        mpishmem_node_barrier_wait(b);
        return 1;
    }
    size_t n = (size_t)c->n, me = (size_t)c->me, total = (size_t)count;
    reduce_range(b, c, ss, dest, total * me / n, total * (me + 1) / n, esize, dt, op, mpi_op);
    /* The next barrier reads the other set of slots: the records go there too. */
    memcpy(mpishmem_node_slot(b, c->me, 1), rec(b, c->me), sizeof(record_t));
    mpishmem_node_barrier_wait(b);
    for (size_t k = 1; k < n; k++) {
        size_t i = (me + k) % n, from = total * i / n * esize, to = total * (i + 1) / n * esize;
        memcpy((char *)dest + from, at_peer(c, ds, (int)i, rec(b, (int)i)->dst_off) + from,
               to - from);
    }
    mpishmem_node_barrier_wait(b);
    return 1;
}
