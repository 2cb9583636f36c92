/*
 * mpishmem: a barrier on flags in node-shared memory, for a communicator
 * whose processes all share one node.
 *
 * The flags live in one anonymous shared-memory object per communicator
 * (memfd, mapped by every member), one cache line per flag so that no two
 * writers share a line.  Counters only grow, so nothing is ever reset and
 * a fast PE entering the next barrier cannot confuse a slow one.
 *
 * Two algorithms, chosen per barrier object:
 *  - dissemination: ceil(log2 n) rounds; in round k each PE raises the
 *    flag of PE (me + 2^k) mod n and waits for its own;
 *  - central: each PE adds 1 to one shared counter; the last arrival
 *    raises a release counter the others wait on.
 * Release stores and acquire loads chain every PE's earlier stores to
 * every PE's later loads.
 *
 * Beside the flags, each member has a slot of MPISHMEM_NODE_SLOT bytes in
 * each of two sets, for small collectives (lib/coll): a member writes its
 * part into its slot of the next barrier's set, waits, and reads every
 * member's slot of that set.  Sets alternate by barrier, so a member that
 * runs ahead writes the other set while slow members still read: it
 * cannot come back to this set before they have entered the barrier after
 * it, which they do only once they have read.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_NODE_BARRIER_H
#define MPISHMEM_NODE_BARRIER_H

#include <stdint.h>
#include <mpi.h>

enum mpishmem_node_barrier_algo {
    MPISHMEM_NODE_BARRIER_DISSEMINATION = 0,
    MPISHMEM_NODE_BARRIER_CENTRAL = 1,
};

typedef struct mpishmem_node_barrier mpishmem_node_barrier_t;

/* Collective over comm, whose members all share this PE's node and pass
 * the same algo (the caller's plan has settled both).  Returns the same
 * answer on every member: a barrier object when the shared flags could be
 * mapped by all; NULL otherwise (the caller takes MPI's barrier). */
mpishmem_node_barrier_t *mpishmem_node_barrier_create(MPI_Comm comm,
                                                      enum mpishmem_node_barrier_algo algo);
/* Bytes per member and set for small collectives. */
#define MPISHMEM_NODE_SLOT 512

/* Member i's slot in the set of the next barrier (ahead 1: to write before
 * waiting) or of the barrier this member last passed (ahead 0: to read
 * after it).  Only for objects of more than one member. */
static inline char *mpishmem_node_slot(const mpishmem_node_barrier_t *b, int i, int ahead);

/* Local: unmaps the flags (the other members may still be using theirs). */
void mpishmem_node_barrier_free(mpishmem_node_barrier_t *b);

/* Waits until every member has arrived; polls MPI and yields while it
 * waits as the word waits of progress.h do (sleeping on its flags when
 * PEs outnumber cores).  Orders memory: stores before it
 * on any member are visible to loads after it on every member. */
void mpishmem_node_barrier_wait(mpishmem_node_barrier_t *b);

/* ---- inline: the object's layout -------------------------------------------- */
struct mpishmem_node_barrier {
    int me, n, rounds;
    enum mpishmem_node_barrier_algo algo;
    uint64_t epoch;     /* barriers this PE has entered */
    char *base;         /* the flags; NULL for a one-member communicator */
    char *slots;        /* 2 sets of n slots, after the flags */
    size_t len;
};

static inline char *mpishmem_node_slot(const mpishmem_node_barrier_t *b, int i, int ahead)
{
    size_t set = (size_t)((b->epoch + (uint64_t)ahead) & 1);
    return b->slots + (set * (size_t)b->n + (size_t)i) * MPISHMEM_NODE_SLOT;
}

#endif
