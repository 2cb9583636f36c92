/*
 * mpishmem: context objects: creation, destruction, teams and finalize.
 *
 * The object itself, and what the data path does with it, are in
 * mpi_backend/data_path/lane_ctx.h.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_CONTEXT_H
#define MPISHMEM_CONTEXT_H

#include <pthread.h>
#include <stddef.h>
#include <shmem.h>
#include "../mpi_backend/data_path/lane_ctx.h"

/* shmem_team_destroy: destroy the team's shareable contexts (quiet first). */
void mpishmem_ctx_release_team(shmem_team_t team);
/* shmem_finalize: destroy every context still live. */
void mpishmem_contexts_finalize(void);

#endif
