/*
 * mpishmem: the process-wide runtime state shared by every layer (the
 * definition is in runtime.c; lib/init.c fills it).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_RUNTIME_H
#define MPISHMEM_RUNTIME_H

#include <mpi.h>
#include <stddef.h>

enum mpishmem_init_state {
    MPISHMEM_NOT_INITIALIZED = 0,
    MPISHMEM_RUNNING = 1,
    MPISHMEM_FINALIZED = 2,
};

typedef struct mpishmem_runtime {
    int state;             /* enum mpishmem_init_state */
    int my_pe;             /* rank in MPI_COMM_WORLD */
    int n_pes;             /* size of MPI_COMM_WORLD */
    int debug;             /* SHMEM_DEBUG: exhaustive argument checks */
    int shm_enabled;       /* MPISHMEM_SHM: use load/store for on-node peers */
    int yield;             /* give up the CPU while polling (oversubscribed) */
    int thread_level;      /* level provided to the user */
    int ctx_lanes;         /* MPISHMEM_CTX_LANES: windows per segment beyond lane 0 */
    int we_initialized_mpi;
    MPI_Comm world;        /* private duplicate of MPI_COMM_WORLD */
    MPI_Comm node;         /* PEs that can share memory with this one */
    int node_size;
    int node_rank;
    int *node_rank_of_pe;  /* [n_pes]: rank in `node`, or -1 when off-node */
} mpishmem_runtime_t;

extern mpishmem_runtime_t mpishmem_rt;

#define MPISHMEM_LIKELY(x) __builtin_expect(!!(x), 1)
#define MPISHMEM_UNLIKELY(x) __builtin_expect(!!(x), 0)

#endif
