/*
 * mpishmem: the process-wide runtime state (runtime.h).  It lives in the
 * lowest layer so every layer may read it; lib/init.c fills it.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "runtime.h"

mpishmem_runtime_t mpishmem_rt = {
    .state = MPISHMEM_NOT_INITIALIZED,
    .world = MPI_COMM_NULL,
    .node = MPI_COMM_NULL,
    .self = MPI_COMM_NULL,
};

long mpishmem_table_bytes;
