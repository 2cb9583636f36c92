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
#include "pe_map.h"

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
    int wait_by_request;   /* yield, and on-node RMA needs the target in MPI (progress.h) */
    int thread_level;      /* level provided to the user */
    int ctx_lanes;         /* MPISHMEM_CTX_LANES: windows per segment beyond lane 0 */
    /* Some segment of this PE is reached by other PEs through MPI RMA
     * (MPISHMEM_SHM=0, PEs on other nodes, globals or device memory MPI
     * carries), so that RMA completes only while this PE is inside MPI:
     * every test routine then polls MPI, whatever it returns. */
    int rma_by_mpi;
    int we_initialized_mpi;
    MPI_Comm world;        /* private duplicate of MPI_COMM_WORLD */
    MPI_Comm node;         /* PEs that can share memory with this one */
    /* Duplicate of world on which no point-to-point message is ever sent:
     * the exit check's barrier (lib/init.c), and every probe that only
     * drives MPI's progress (progress.c), since a probe that finds a
     * waiting message returns without progressing MPI at all. */
    MPI_Comm exit_comm;
    MPI_Comm self;         /* private duplicate of MPI_COMM_SELF (errors return) */
    int node_size;
    int node_rank;
    mpishmem_pe_map_t node_map; /* the PEs of `node`, by node rank (computed when strided) */
} mpishmem_runtime_t;

extern mpishmem_runtime_t mpishmem_rt;

/* Bytes of the library's own tables whose size depends on the job: per-PE
 * and per-target tables (peer mappings, PE maps, dirty sets).  Kept so the
 * tests can check that they grow with the node and the targets touched,
 * not with the number of PEs (mpishmem_table_bytes, a test hook). */
extern long mpishmem_table_bytes;

static inline void mpishmem_tables_add(long bytes)
{
    __atomic_add_fetch(&mpishmem_table_bytes, bytes, __ATOMIC_RELAXED);
}

/* Rank in mpishmem_rt.node of world PE pe, or -1 when pe is on another node. */
static inline int mpishmem_node_rank_of(int pe)
{
    return mpishmem_pe_map_index(&mpishmem_rt.node_map, pe);
}

#define MPISHMEM_LIKELY(x) __builtin_expect(!!(x), 1)
#define MPISHMEM_UNLIKELY(x) __builtin_expect(!!(x), 0)

#endif
