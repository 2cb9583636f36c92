/*
 * mpishmem: broadcast (MPI_Bcast, messages down a tree, or MPI_Ibcast):
 * shmem_broadcastmem and,
 * through the typed wrappers, shmem_TYPENAME_broadcast; the deprecated
 * shmem_broadcast32/64.
 *
 * The root sends from source.  In the team routines (OpenSHMEM 1.5 on) the
 * root's dest gets the data too: a local copy, made while MPI sends
 * (large messages, or when polling) unless the two arrays overlap.  The
 * active-set routines leave the root's dest alone, as they always did.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>
#include "coll.h"
#include "../../mpi_backend/progress/node_barrier.h"
#include "../trace.h"

/* Above this many bytes the root's copy to its own dest costs more than
 * MPI's non-blocking broadcast loses to the blocking one (measured: at
 * 128 KiB on 2 PEs, 1.36-1.41x of MPI_Bcast copying after it, 1.04-1.05x
 * copying during MPI_Ibcast). */
#define OVERLAP_COPY_MIN 32768

/* Broadcasts of more than this many bytes, up to a slot, go through the
 * node object's slots (coll_small.c) when the team has one.  Below it MPI
 * wins while every PE has a core: its root sends eagerly and returns,
 * while the slots cost every PE a barrier (2 PEs, Open MPI 4.1: 8 B 72
 * against 178 ns, 128 B 124 against 191; 512 B 1046 against 266; MPICH
 * 4.0: 8 B 231 against 192, 512 B 274 against 287).  When PEs outnumber
 * cores every size up to a slot takes the slots: a polled MPI_Ibcast
 * waits on its rounds (4 PEs on 2 cores, 8 B + barrier: 6.7-9.6 us on
 * MPICH, 4.1-4.5 us on Open MPI, against OSHMEM's 3.4-3.7 us). */
#define BCAST_SLOT_MIN 128

/* Up to this many bytes a broadcast that must be polled travels as
 * point-to-point messages down a binomial tree (bcast_polled) instead of
 * a polled MPI_Ibcast: two pretend nodes, MPICH 4.0, 512 B: 294 ns
 * against 844 (MPI_Bcast, which cannot be polled: 259). */
#define POLLED_P2P_MAX 16384

/* Rank rel (relative to the root) hears from rel minus its lowest set bit
 * and tells rel + 2^j for every 2^j below that bit; the messages of
 * consecutive broadcasts between two PEs keep their order (one tag). */
static void bcast_polled(void *buf, int count, MPI_Datatype dt, int root, mpishmem_coll_comm_t *c)
{
    int n = c->n, rel = (c->me - root + n) % n, mask = 1;
    for (; mask < n; mask <<= 1) {
        if (rel & mask) {
            MPI_Request r;
            MPISHMEM_MPI(MPI_Irecv(buf, count, dt, (rel - mask + root) % n, MPISHMEM_BCAST_TAG,
                                   c->comm, &r));
            mpishmem_wait_message(&r);
            break;
        }
    }
    MPI_Request sends[32];
    int k = 0;
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < n)
            MPISHMEM_MPI(MPI_Isend(buf, count, dt, (rel + mask + root) % n, MPISHMEM_BCAST_TAG,
                                   c->comm, &sends[k++]));
    for (int i = 0; i < k; i++)
        mpishmem_wait_message(&sends[i]);
}

void mpishmem_coll_broadcast(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                             const void *source, size_t nelems, size_t esize, MPI_Datatype dt,
                             int root, int root_dest)
{
    if (MPISHMEM_UNLIKELY((unsigned)root >= (unsigned)c->n))
        mpishmem_fatal(routine, "PE_root %d is not a PE of the %d-PE team or active set",
                       root, c->n);
    size_t bytes = mpishmem_checked_bytes(routine, nelems, esize);
    int count = mpishmem_coll_count(routine, nelems);
    if (MPISHMEM_DEBUG_ON) {
        static const char *const names[] = {"nelems", "PE_root", "dest"};
        long long v[] = {(long long)nelems, root, mpishmem_coll_symmetric_offset(dest)};
        mpishmem_coll_check_buffers(routine, c, dest, bytes, source, bytes, 1);
        mpishmem_coll_check_same(routine, c, names, v, 3);
    }
    if (count == 0)
        return;
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_coll(c->comm, root, bytes);
    mpishmem_node_barrier_t *b;
    /* c->may_block is the same on every PE of c, so all choose alike.
     * Above a slot, on one node, the PEs copy straight from the root's
     * source (coll_large.c) unless some PE's buffers forbid it. */
    if ((bytes > BCAST_SLOT_MIN || !c->may_block) && (b = mpishmem_coll_node(routine, c)) != NULL) {
        if (bytes <= MPISHMEM_NODE_SLOT) {
            mpishmem_coll_small_broadcast(b, c, dest, source, bytes, root, root_dest);
            return;
        }
        if (mpishmem_coll_large_broadcast(b, c, dest, source, bytes, root, root_dest))
            return;
    }
    mpishmem_coll_stage_t st;
    MPISHMEM_COLL_STAGE(routine, &st, &dest, bytes, &source, bytes, 0);
    int am_root = c->me == root;
    int copy = am_root && root_dest && dest != source;
    int copy_now = copy && !mpishmem_coll_overlap(dest, bytes, source, bytes);
    void *buf = am_root ? (void *)source : dest;
    /* A large team broadcast overlaps the root's copy with the send, which
     * needs the non-blocking call; size and root_dest are the same on
     * every PE, so every PE chooses alike. */
    if (mpishmem_coll_blocking(c) && !(root_dest && bytes > OVERLAP_COPY_MIN)) {
        mpishmem_coll_started(routine, "MPI_Bcast",
                              MPI_Bcast(buf, count, dt, root, c->comm));
    } else if (bytes <= POLLED_P2P_MAX) {
        bcast_polled(buf, count, dt, root, c);
    } else {
        MPI_Request req;
        mpishmem_coll_started(routine, "MPI_Ibcast",
                              MPI_Ibcast(buf, count, dt, root, c->comm, &req));
        if (copy_now) /* while MPI sends */
            mpishmem_gpu_copy(dest, source, bytes);
        mpishmem_coll_wait(&req);
        copy = copy && !copy_now;
    }
    if (copy)
        mpishmem_gpu_copy(dest, source, bytes);
    MPISHMEM_COLL_UNSTAGE(&st);
}

int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root)
{
    static const char routine[] = "shmem_broadcastmem";
    mpishmem_coll_comm_t *c = mpishmem_coll_team(routine, team);
    if (c == NULL)
        return -1;
    mpishmem_coll_broadcast(routine, c, dest, source, nelems, 1, MPI_BYTE, PE_root, 1);
    return 0;
}

#define DEFINE_BROADCAST_SIZED(BITS, BYTES, DT)                                               \
    void shmem_broadcast##BITS(void *dest, const void *source, size_t nelems, int PE_root,  \
                               int PE_start, int logPE_stride, int PE_size, long *pSync)   \
    {                                                                                       \
        static const char routine[] = "shmem_broadcast" #BITS;                              \
        mpishmem_coll_comm_t *c = mpishmem_active_set(routine, PE_start, logPE_stride,      \
                                                      PE_size, pSync,                       \
                                                      SHMEM_BCAST_SYNC_SIZE);               \
        mpishmem_coll_broadcast(routine, c, dest, source, nelems, BYTES, DT, PE_root, 0);   \
    }
DEFINE_BROADCAST_SIZED(32, 4, MPI_UINT32_T)
DEFINE_BROADCAST_SIZED(64, 8, MPI_UINT64_T)
