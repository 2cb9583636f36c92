/*
 * mpishmem: shared-memory backing of the program's global data
 * (globals_shm.c).  The segment itself is in globals.c.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_GLOBALS_SHM_H
#define MPISHMEM_GLOBALS_SHM_H

#include <stddef.h>
#include <stdint.h>

/* What a PE tells the other PEs of its node so they can map its data. */
struct mpishmem_globals_shm_id {
    long pid;
    int fd;          /* -1: no shared backing */
    int pad;
    uint64_t len;
    uint64_t dev, ino; /* the object's identity: a peer checks it opened this one */
};

/* This PE's id (pid, fd, size, device and inode); 1 when it has a backing. */
int mpishmem_globals_shm_info(struct mpishmem_globals_shm_id *id);
/* Start of the backed range (page below __data_start), NULL without one. */
char *mpishmem_globals_shm_lo(void);
/* Why there is no backing (NULL when there is one). */
const char *mpishmem_globals_shm_why(void);
/* Map a peer's object; NULL when it cannot be opened or is not the one
 * the id describes. */
char *mpishmem_globals_shm_map(const struct mpishmem_globals_shm_id *id);
void mpishmem_globals_shm_unmap(char *p);

#endif
