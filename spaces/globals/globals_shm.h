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
#include "../../mpi_backend/memory/node_shm.h"

/* This PE's id (pid, fd, size, device and inode); 1 when it has a backing. */
int mpishmem_globals_shm_info(mpishmem_shm_id_t *id);
/* Start of the backed range (page below __data_start), NULL without one. */
char *mpishmem_globals_shm_lo(void);
/* Why there is no backing (NULL when there is one). */
const char *mpishmem_globals_shm_why(void);
/* Map a peer's object beside our own data (mpishmem_shm_map_peer_beside,
 * slot: mpishmem_shm_peer_slot); NULL when it cannot be opened or is not
 * the one the id describes. */
char *mpishmem_globals_shm_map(const mpishmem_shm_id_t *id, unsigned slot);
void mpishmem_globals_shm_unmap(char *p);

#endif
