/*
 * mpishmem: declarations of the context and session routines.
 * Included by <shmem.h>.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_CONTEXTS_H
#define MPISHMEM_CONTEXTS_H

/* Context creation options. */
#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

int shmem_ctx_create(long options, shmem_ctx_t *ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);

/* Sessions (OpenSHMEM 1.6): performance hints on a context. */
#define SHMEM_CTX_SESSION_BATCH (1L << 0)
#define SHMEM_CTX_SESSION_SAME_AMO (1L << 1)
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)

typedef struct {
    size_t total_ops;    /* expected RMA calls in the session (SIZE_MAX: unknown) */
} shmem_ctx_session_config_t;

void shmem_ctx_session_start(shmem_ctx_t ctx, long options,
                             const shmem_ctx_session_config_t *config, long config_mask);
void shmem_ctx_session_stop(shmem_ctx_t ctx);

#endif
