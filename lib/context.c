/*
 * mpishmem: the default context.  Every RMA routine takes a context; the
 * default one addresses PEs by their world number.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "context.h"

struct mpishmem_ctx mpishmem_ctx_default_object = {
    .team = SHMEM_TEAM_WORLD,
    .options = 0,
};
