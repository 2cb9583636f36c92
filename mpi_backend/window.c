/*
 * mpishmem: MPI windows for symmetric segments.
 *
 * Every window lives in one passive-target epoch for the whole run
 * (MPI_Win_lock_all with MPI_MODE_NOCHECK): RMA never opens or closes an
 * epoch, and completion is by flush.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "window.h"
#include "../lib/runtime.h"

static size_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

/* Dirty-target arrays of every lane; pointers filled in later.  On
 * failure mpishmem_window_destroy releases what was made. */
static int segment_init_common(mpishmem_segment_t *s, const char *name)
{
    int n = mpishmem_rt.n_pes;
    s->name = name;
    s->n_lanes = 1 + mpishmem_rt.ctx_lanes;
    for (int k = 0; k < s->n_lanes; k++) {
        mpishmem_lane_t *l = &s->lanes[k];
        l->win = MPI_WIN_NULL;
        l->dirty_any = 0;
        l->dirty = calloc((size_t)n, sizeof *l->dirty);
        if (!l->dirty)
            return MPI_ERR_NO_MEM;
    }
    s->peer = calloc((size_t)n, sizeof *s->peer);
    return s->peer ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* One lane's RMA window over [s->base, s->base + bytes) on comm. */
static int open_lane_window(mpishmem_segment_t *s, MPI_Comm comm, size_t bytes, MPI_Win *win)
{
    MPI_Info info;
    MPI_Info_create(&info);
    /* Every PE uses displacement unit 1: lets MPI skip a per-target lookup. */
    MPI_Info_set(info, "same_disp_unit", "true");
    /* AMOs need no ordering between themselves (fence orders by flushing),
     * and these are all the accumulate operations we issue (amo_mpi.c):
     * MPI may use network atomics only if it can do all of them so. */
    MPI_Info_set(info, "accumulate_ordering", "none");
    MPI_Info_set(info, "which_accumulate_ops", "sum,band,bor,bxor,replace,no_op,cswap");
    /* MPICH: run accumulates in the MPI transport rather than through its
     * shared-memory path, which takes a lock per operation (a raw
     * MPI_Accumulate measured 1050 ns without this, 340 ns with it).  Other
     * MPIs ignore the key. */
    MPI_Info_set(info, "disable_shm_accumulate", "true");
    int rc = MPI_Win_create(s->base, (MPI_Aint)bytes, 1, info, comm, win);
    MPI_Info_free(&info);
    if (rc != MPI_SUCCESS) {
        *win = MPI_WIN_NULL;
        return rc;
    }
    int *model = NULL, flag = 0;
    MPI_Win_get_attr(*win, MPI_WIN_MODEL, &model, &flag);
    if (flag && *model == MPI_WIN_SEPARATE)
        s->separate_model = 1;
    return MPI_Win_lock_all(MPI_MODE_NOCHECK, *win);
}

/* The RMA windows of every lane over [s->base, s->base + bytes) on comm:
 * lane 0 is s->win and carries every AMO; the others serve contexts.
 * bytes may be 0 (a space that refuses RMA still needs a window handle for
 * flush/sync). */
static int open_rma_window(mpishmem_segment_t *s, MPI_Comm comm, size_t bytes)
{
    for (int k = 0; k < s->n_lanes; k++) {
        s->lanes[k].rank_of_pe = s->rank_of_pe;
        int rc = open_lane_window(s, comm, bytes, &s->lanes[k].win);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    s->win = s->lanes[0].win;
    return MPI_SUCCESS;
}

static int open_world_window(mpishmem_segment_t *s)
{
    return open_rma_window(s, mpishmem_rt.world, s->size);
}

int *mpishmem_ranks_in(MPI_Comm comm)
{
    int n = mpishmem_rt.n_pes;
    int *all = malloc((size_t)n * sizeof(int)), *ranks = malloc((size_t)n * sizeof(int));
    if (!all || !ranks) {
        free(all);
        free(ranks);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        all[i] = i;
    MPI_Group wg, g;
    MPI_Comm_group(mpishmem_rt.world, &wg);
    MPI_Comm_group(comm, &g);
    MPI_Group_translate_ranks(wg, n, all, g, ranks);
    MPI_Group_free(&wg);
    MPI_Group_free(&g);
    for (int i = 0; i < n; i++)
        if (ranks[i] == MPI_UNDEFINED)
            ranks[i] = -1;
    free(all);
    return ranks;
}

int mpishmem_window_create_heap(mpishmem_segment_t *s, const char *name, size_t size)
{
    return mpishmem_window_create_heap_on(s, name, size, mpishmem_rt.world, mpishmem_rt.node);
}

/* A failed creation: release what was made, leave s as destroy leaves it. */
static int undo_create(mpishmem_segment_t *s, int rc)
{
    mpishmem_window_destroy(s);
    return rc;
}

int mpishmem_window_create_heap_on(mpishmem_segment_t *s, const char *name, size_t size,
                                   MPI_Comm comm, MPI_Comm shm_comm)
{
    size_t page = page_size();
    /* Whole pages, at least one, so a zero-sized heap still has a distinct
     * address range. */
    size_t bytes = size == 0 ? page : (size + page - 1) / page * page;
    s->win = s->shm_win = MPI_WIN_NULL;
    s->rank_of_pe = NULL;
    int rc = segment_init_common(s, name);
    if (rc != MPI_SUCCESS)
        return rc;
    int comm_size, shm_size;
    MPI_Comm_size(comm, &comm_size);
    MPI_Comm_size(shm_comm, &shm_size);
    /* Ranks in shm_comm of every world PE (-1 when off-node or outside). */
    int *shm_rank = comm == mpishmem_rt.world ? mpishmem_rt.node_rank_of_pe
                                              : mpishmem_ranks_in(shm_comm);
    if (comm != mpishmem_rt.world)
        s->rank_of_pe = mpishmem_ranks_in(comm);
    if (shm_rank == NULL || (comm != mpishmem_rt.world && s->rank_of_pe == NULL)) {
        if (shm_rank != mpishmem_rt.node_rank_of_pe)
            free(shm_rank);
        return undo_create(s, MPI_ERR_NO_MEM);
    }

    MPI_Info info;
    MPI_Info_create(&info);
    /* Let each PE's part start on its own pages (first touch stays local). */
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    /* MPI promises no alignment for the base (MPICH gives 16 bytes at one
     * PE, Open MPI 8), but shmem_align must honour large alignments: take
     * MPISHMEM_HEAP_ALIGN extra bytes and start the heap on that boundary. */
    char *raw = NULL;
    rc = MPI_Win_allocate_shared((MPI_Aint)(bytes + MPISHMEM_HEAP_ALIGN), 1, info, shm_comm,
                                 &raw, &s->shm_win);
    MPI_Info_free(&info);
    if (rc != MPI_SUCCESS) {
        s->shm_win = MPI_WIN_NULL;
        if (shm_rank != mpishmem_rt.node_rank_of_pe)
            free(shm_rank);
        return undo_create(s, rc);
    }
    size_t pad = (MPISHMEM_HEAP_ALIGN - (uintptr_t)raw % MPISHMEM_HEAP_ALIGN) %
                 MPISHMEM_HEAP_ALIGN;
    s->base = raw + pad;
    s->size = bytes;
    /* CPU atomics only when every member can reach every member's heap by
     * load/store. */
    s->amo_cpu = mpishmem_rt.shm_enabled && shm_size == comm_size;

    if (mpishmem_rt.shm_enabled) {
        /* Each PE maps the others' parts at its own addresses, so their
         * pads cannot be derived here: exchange them. */
        unsigned long mine = pad;
        unsigned long *pads = malloc((size_t)shm_size * sizeof *pads);
        if (pads == NULL) {
            if (shm_rank != mpishmem_rt.node_rank_of_pe)
                free(shm_rank);
            return undo_create(s, MPI_ERR_NO_MEM);
        }
        MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG, pads, 1, MPI_UNSIGNED_LONG, shm_comm);
        for (int pe = 0; pe < mpishmem_rt.n_pes; pe++) {
            int nr = shm_rank[pe];
            if (nr < 0)
                continue;
            MPI_Aint sz;
            int du;
            char *ptr = NULL;
            MPI_Win_shared_query(s->shm_win, nr, &sz, &du, &ptr);
            s->peer[pe] = ptr + pads[nr];
        }
        free(pads);
    }
    if (shm_rank != mpishmem_rt.node_rank_of_pe)
        free(shm_rank);
    rc = open_rma_window(s, comm, s->size);
    return rc == MPI_SUCCESS ? rc : undo_create(s, rc);
}

int mpishmem_window_create_device(mpishmem_segment_t *s, const char *name, void *base,
                                  size_t size, MPI_Comm comm, int expose)
{
    s->win = s->shm_win = MPI_WIN_NULL;
    s->rank_of_pe = NULL;
    int rc = segment_init_common(s, name);
    if (rc != MPI_SUCCESS)
        return rc;
    s->base = base;
    s->size = size;
    s->amo_cpu = 0; /* the CPU cannot reach device memory: peer[] stays empty */
    s->rank_of_pe = mpishmem_ranks_in(comm);
    if (s->rank_of_pe == NULL)
        return undo_create(s, MPI_ERR_NO_MEM);
    rc = open_rma_window(s, comm, expose ? size : 0);
    return rc == MPI_SUCCESS ? rc : undo_create(s, rc);
}

int mpishmem_window_create_static(mpishmem_segment_t *s, const char *name, void *base,
                                  size_t size)
{
    int rc = segment_init_common(s, name);
    if (rc != MPI_SUCCESS)
        return rc;
    uintptr_t lo = (uintptr_t)base & ~(uintptr_t)(page_size() - 1);
    s->base = (char *)lo;
    s->size = size + ((uintptr_t)base - lo);
    s->shm_win = MPI_WIN_NULL;
    s->amo_cpu = 0; /* other PEs reach it only through MPI: so must we */
    /* Private memory: only this PE can load/store it directly. */
    if (mpishmem_rt.shm_enabled)
        s->peer[mpishmem_rt.my_pe] = s->base;
    return open_world_window(s);
}

void mpishmem_window_destroy(mpishmem_segment_t *s)
{
    for (int k = 0; k < s->n_lanes; k++) {
        mpishmem_lane_t *l = &s->lanes[k];
        if (l->win != MPI_WIN_NULL) {
            MPI_Win_unlock_all(l->win);
            MPI_Win_free(&l->win);
        }
        free(l->dirty);
    }
    if (s->shm_win != MPI_WIN_NULL)
        MPI_Win_free(&s->shm_win);
    free(s->peer);
    free(s->rank_of_pe);
    memset(s, 0, sizeof *s);
    s->win = MPI_WIN_NULL;
    s->shm_win = MPI_WIN_NULL;
}
