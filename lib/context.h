/*
 * mpishmem: context objects.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_CONTEXT_H
#define MPISHMEM_CONTEXT_H

#include <shmem.h>

struct mpishmem_ctx {
    shmem_team_t team;   /* PE numbers passed with this context are in this team */
    long options;        /* SHMEM_CTX_* creation options */
};

#endif
