/*
 * mpishmem: memory that the other PEs of a node map too, made by us
 * rather than by MPI_Win_allocate_shared.
 *
 * Each PE makes an anonymous object (memfd; or a POSIX object unlinked at
 * once) and tells its node peers its pid, descriptor and identity; a peer
 * opens it through /proc/PID/fd/N and maps it.  Nothing has a name in the
 * file system, so no exit, abort or kill leaves anything in /dev/shm.
 * Why not MPI_Win_allocate_shared: when PEs outnumber cores each call
 * costs MPICH several blocking collectives that spin (250-400 ms at 4-8
 * PEs on 2 cores, against one polled allgather here).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_NODE_SHM_H
#define MPISHMEM_NODE_SHM_H

#include <stddef.h>
#include <stdint.h>

/* What a PE tells its node peers so they can map its object. */
typedef struct mpishmem_shm_id {
    long pid;
    int fd;            /* -1: no object */
    int pad;
    uint64_t len;
    uint64_t dev, ino; /* the object's identity: a peer checks it opened this one */
} mpishmem_shm_id_t;

/* A new object of len bytes (`what` names it for /proc/PID/maps); the
 * descriptor, or -1. */
int mpishmem_shm_object_new(const char *what, size_t len);
/* Fills id for the object fd of len bytes; 0 when fd cannot be described. */
int mpishmem_shm_id_of(int fd, size_t len, mpishmem_shm_id_t *id);
/* Maps a peer's object read-write; NULL when it cannot be opened or is not
 * the one id describes. */
char *mpishmem_shm_map_peer(const mpishmem_shm_id_t *id);

/* Where a peer's copy of a segment goes.  AMD Zen's L1 data cache picks
 * the way of a load by a hash of linear-address bits 12-27 (its
 * "microtag"); two lines whose addresses agree in those bits and in the
 * set cannot both be predicted, so a copy between a symmetric object and
 * the peer's copy of it (same offset) stalls when the two mappings lie a
 * multiple of 256 MiB apart.  The kernel puts equal-sized mappings back
 * to back, so a 256 MiB or 512 MiB heap gave exactly that: 4 KiB puts on
 * one node 1.2x slower (docs/performance.md, "Where a peer's heap is
 * mapped").  So a peer's copy is mapped at mirror (our own copy) plus a
 * colour, modulo MPISHMEM_SHM_COLOR_SPAN, that differs in bits 21-27 from
 * ours and, for up to 127 peers, from the other peers'. */
#define MPISHMEM_SHM_COLOR_SPAN ((uintptr_t)1 << 28)
/* The colour of slot (0, 1, ...: one per peer): never 0 modulo the span. */
uintptr_t mpishmem_shm_color(unsigned slot);
/* mpishmem_shm_map_peer, at an address congruent to mirror + the colour of
 * slot modulo the span (anywhere, if that much address space cannot be
 * reserved). */
char *mpishmem_shm_map_peer_beside(const mpishmem_shm_id_t *id, const void *mirror,
                                   unsigned slot);
/* The slot of node rank `peer` as seen from node rank `me` (of n): the
 * n - 1 peers get 0 .. n - 2. */
static inline unsigned mpishmem_shm_peer_slot(int peer, int me, int n)
{
    return (unsigned)((peer - me + n) % n) - 1u;
}

#endif
