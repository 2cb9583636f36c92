/*
 * mpishmem benchmarks: the floors beneath the library, measured in the same
 * run.
 *   - raw MPI on a window made like ours (MPI_Win_create over memory, a
 *     passive epoch for the whole run): exactly what our MPI path costs
 *     without our layer;
 *   - raw MPI on an MPI_Win_allocate window: what the MPI can do with memory
 *     it allocates itself (on one node Open MPI then uses osc/sm);
 *   - raw shared memory: a pointer into MPI_Win_allocate_shared memory of
 *     the target PE.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_BENCH_FLOOR_H
#define MPISHMEM_BENCH_FLOOR_H

#include <mpi.h>
#include <stdint.h>

typedef struct bench_floor {
    MPI_Win created;      /* MPI_Win_create over `created_mem` */
    MPI_Win allocated;    /* MPI_Win_allocate */
    MPI_Win shared;       /* MPI_Win_allocate_shared on the node */
    MPI_Comm node;
    uint64_t created_mem[8];
    uint64_t *shm_peer;   /* target PE's shared word, or NULL if off-node */
} bench_floor_t;

static inline void bench_floor_open(bench_floor_t *f, int target)
{
    uint64_t *base;
    MPI_Win_create(f->created_mem, sizeof f->created_mem, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                   &f->created);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, f->created);
    MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &f->allocated);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, f->allocated);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &f->node);
    MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, f->node, &base, &f->shared);
    /* The target's rank in the node communicator, if it is on this node. */
    MPI_Group wg, ng;
    int node_rank = MPI_UNDEFINED;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Comm_group(f->node, &ng);
    MPI_Group_translate_ranks(wg, 1, &target, ng, &node_rank);
    MPI_Group_free(&wg);
    MPI_Group_free(&ng);
    f->shm_peer = NULL;
    if (node_rank != MPI_UNDEFINED) {
        MPI_Aint sz;
        int du;
        MPI_Win_shared_query(f->shared, node_rank, &sz, &du, &f->shm_peer);
    }
}

static inline void bench_floor_close(bench_floor_t *f)
{
    MPI_Win_unlock_all(f->created);
    MPI_Win_free(&f->created);
    MPI_Win_unlock_all(f->allocated);
    MPI_Win_free(&f->allocated);
    MPI_Win_free(&f->shared);
    MPI_Comm_free(&f->node);
}

#endif
