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

#endif
