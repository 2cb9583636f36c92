/*
 * mpishmem: a segment over device memory (gpu_path.h): its peers' memory
 * opened with IPC handles, its agent, and whether MPI can move it.
 *
 * GPU-awareness is checked, not assumed (issue 18): MPIX_Query_cuda_support
 * says whether an MPI handles device memory somewhere, not whether its
 * one-sided operations do on a window over device memory.  So each PE
 * puts a word from its device memory into its right neighbour's window,
 * gets one back from it into device memory, and checks with the runtime's
 * own copies that both arrived; the PEs agree, and RMA goes to MPI only if
 * it worked everywhere.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_rt.h"
#include "error.h"
#include "gpu_agent.h"
#include "progress.h"
#include "window.h"

#define PROBE_MAGIC 0x5a17c0de00000000ull

/* 1 when MPI's RMA moved device memory correctly on every member. */
static int probe(mpishmem_segment_t *s, MPI_Comm comm)
{
    int rank, n;
    MPISHMEM_MPI(MPI_Comm_rank(comm, &rank));
    MPISHMEM_MPI(MPI_Comm_size(comm, &n));
    if (s->size < 32)
        return 0;
    size_t at = s->size - 32; /* [at, at+8): mine; +8: from the left; +16: got from the right */
    int right = (rank + 1) % n;
    uint64_t mine = PROBE_MAGIC | (uint64_t)rank, words[3];
    mpishmem_cuda_copy(s->base + at, 1, &mine, 0, 8);
    mpishmem_barrier_comm(comm);
    MPISHMEM_MPI(MPI_Put(s->base + at, 8, MPI_BYTE, right, (MPI_Aint)(at + 8), 8, MPI_BYTE,
                         s->win));
    MPISHMEM_MPI(MPI_Win_flush(right, s->win));
    MPISHMEM_MPI(MPI_Get(s->base + at + 16, 8, MPI_BYTE, right, (MPI_Aint)at, 8, MPI_BYTE, s->win));
    MPISHMEM_MPI(MPI_Win_flush(right, s->win));
    mpishmem_barrier_comm(comm);
    mpishmem_cuda_copy(words, 0, s->base + at, 1, sizeof words);
    int ok = words[1] == (PROBE_MAGIC | (uint64_t)((rank + n - 1) % n)) &&
             words[2] == (PROBE_MAGIC | (uint64_t)right), all = 0;
    mpishmem_allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, comm);
    mpishmem_cuda_set(s->base + at, 0, 32);
    return all;
}

/* Same-node members open each other's memory (shm on): device-to-device
 * copies then reach it.  A handle that cannot be opened leaves NULL: that
 * PE is reached like one on another node. */
static void open_peers(mpishmem_segment_t *s, mpishmem_gpu_seg_t *g, MPI_Comm comm)
{
    MPI_Comm node;
    mpishmem_meet_before_blocking(comm);
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) !=
        MPI_SUCCESS)
        return;
    int size;
    MPISHMEM_MPI(MPI_Comm_size(node, &size));
    char mine[MPISHMEM_CUDA_IPC_BYTES] = {0};
    char *all = calloc((size_t)size, sizeof mine);
    mpishmem_pe_map_t members;
    int have_map = mpishmem_pe_map_of_comm(&members, node) == 0;
    int ok = size > 1 && all && have_map && mpishmem_cuda_ipc_handle(s->base, mine) == 0;
    int all_ok = 0;
    mpishmem_allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, node);
    if (all_ok) {
        mpishmem_allgather(mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE,
                           node);
        for (int r = 0; r < size; r++) {
            int pe = mpishmem_pe_map_world(&members, r);
            if (pe != mpishmem_rt.my_pe)
                g->ipc[pe] = mpishmem_cuda_ipc_open(all + (size_t)r * sizeof mine);
        }
    }
    if (have_map)
        mpishmem_pe_map_free(&members);
    free(all);
    MPISHMEM_MPI(MPI_Comm_free(&node));
}

int mpishmem_gpu_seg_create(mpishmem_segment_t *s, int gpu, MPI_Comm comm, int aware)
{
    mpishmem_gpu_seg_t *g = calloc(1, sizeof *g);
    char **ipc = calloc((size_t)mpishmem_rt.n_pes, sizeof *ipc);
    /* The id agents name the segment by: above every id any member has
     * agreed on before, so unique among each member's segments. */
    static int last_id;
    int v[2] = {!(g && ipc), last_id + 1}, r[2];
    mpishmem_allreduce(v, r, 2, MPI_INT, MPI_MAX, comm);
    if (r[0]) {
        free(g);
        free(ipc);
        return -1;
    }
    last_id = r[1];
    g->id = r[1];
    g->gpu = gpu;
    g->comm = comm;
    g->ipc = ipc;
    ipc[mpishmem_rt.my_pe] = s->base;
    if (mpishmem_rt.shm_enabled)
        open_peers(s, g, comm);
    g->aware = aware != 0 && probe(s, comm);
    if (aware == 1 && !g->aware)
        mpishmem_fatal("shmem_init", "MPISHMEM_GPU_AWARE=1, but MPI's one-sided operations "
                       "on a window over device memory gave wrong data on some PE: this MPI "
                       "is not GPU-aware for RMA (unset the variable to stage through host "
                       "memory)");
    int ok = mpishmem_gpu_agent_add(s) == 0, all = 0;
    mpishmem_allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, comm);
    if (!all) {
        if (ok)
            mpishmem_gpu_agent_remove(s);
        s->gpu = g; /* so destroy releases what was opened */
        mpishmem_gpu_seg_destroy(s);
        return -1;
    }
    s->gpu = g;
    mpishmem_gpu_mpi_aware = g->aware;
    __atomic_store_n(&mpishmem_gpu_on, 1, __ATOMIC_RELEASE);
    __atomic_add_fetch(&mpishmem_gpu_kind_generation, 1, __ATOMIC_RELEASE);
    return 0;
}

void mpishmem_gpu_seg_destroy(mpishmem_segment_t *s)
{
    mpishmem_gpu_seg_t *g = s->gpu;
    if (g == NULL)
        return;
    mpishmem_gpu_agent_remove(s);
    for (int pe = 0; pe < mpishmem_rt.n_pes; pe++)
        if (g->ipc[pe] != NULL && pe != mpishmem_rt.my_pe)
            mpishmem_cuda_ipc_close(g->ipc[pe]);
    /* Every member has closed its mappings before any owner frees. */
    mpishmem_barrier_comm(g->comm);
    free(g->ipc);
    free(g);
    s->gpu = NULL;
    __atomic_add_fetch(&mpishmem_gpu_kind_generation, 1, __ATOMIC_RELEASE);
}
