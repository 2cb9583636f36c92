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
#include <sys/mman.h>
#include <unistd.h>
#include "window.h"
#include "lane_close.h"
#include "mem_alias.h"
#include "node_shm.h"
#include "runtime.h"
#include "progress.h"
#include "error.h"

static size_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

static size_t peer_table_bytes(void)
{
    return (size_t)mpishmem_rt.node_size * sizeof(char *);
}

/* No lanes yet; the peer table, one slot per PE of this node.  On failure
 * mpishmem_window_destroy releases what was made. */
static int segment_init_common(mpishmem_segment_t *s, const char *name)
{
    s->name = name;
    s->n_lanes = 0;
    for (int k = 0; k < MPISHMEM_MAX_LANES; k++)
        s->lanes[k].win = MPI_WIN_NULL;
    s->peer = calloc(1, peer_table_bytes());
    if (s->peer == NULL)
        return MPI_ERR_NO_MEM;
    mpishmem_tables_add((long)peer_table_bytes());
    return MPI_SUCCESS;
}

/* One lane's RMA window over [s->base, s->base + bytes) on comm; with mem,
 * over `bytes` that MPI allocates, returned there (MPI_Win_allocate). */
static int open_lane_window(mpishmem_segment_t *s, MPI_Comm comm, size_t bytes, char **mem,
                            MPI_Win *win)
{
    MPI_Info info;
    MPISHMEM_MPI(MPI_Info_create(&info));
    /* Every PE uses displacement unit 1: lets MPI skip a per-target lookup. */
    MPISHMEM_MPI(MPI_Info_set(info, "same_disp_unit", "true"));
    /* AMOs need no ordering between themselves (fence orders by flushing),
     * and these are all the accumulate operations we issue (amo_mpi.c):
     * MPI may use network atomics only if it can do all of them so. */
    MPISHMEM_MPI(MPI_Info_set(info, "accumulate_ordering", "none"));
    MPISHMEM_MPI(MPI_Info_set(info, "which_accumulate_ops",
                              "sum,band,bor,bxor,replace,no_op,cswap"));
    /* MPICH: run accumulates in the MPI transport rather than through its
     * shared-memory path, which takes a lock per operation (a raw
     * MPI_Accumulate measured 1050 ns without this, 340 ns with it).  Other
     * MPIs ignore the key. */
    MPISHMEM_MPI(MPI_Info_set(info, "disable_shm_accumulate", "true"));
    /* Each process's part on pages of its own, so it can be mapped alone. */
    MPISHMEM_MPI(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
    mpishmem_meet_before_blocking(comm);
    int rc = mem ? MPI_Win_allocate((MPI_Aint)bytes, 1, info, comm, mem, win)
                 : MPI_Win_create(s->base, (MPI_Aint)bytes, 1, info, comm, win);
    MPISHMEM_MPI(MPI_Info_free(&info));
    if (rc != MPI_SUCCESS) {
        *win = MPI_WIN_NULL;
        return rc;
    }
    /* The one MPI error rule: failures come back to MPISHMEM_MPI. */
    MPISHMEM_MPI(MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN));
    int *model = NULL, flag = 0;
    MPISHMEM_MPI(MPI_Win_get_attr(*win, MPI_WIN_MODEL, &model, &flag));
    if (flag && *model == MPI_WIN_SEPARATE)
        s->separate_model = 1;
    rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, *win);
    if (rc != MPI_SUCCESS)
        MPISHMEM_MPI(MPI_Win_free(win));
    return rc;
}

/* Lane 0 over memory MPI allocates (a page more, for MPI's header), mapped
 * at s->base too (mpishmem_mem_alias_segment); else, agreed by every
 * member, an ordinary window and s->mpi_memory 0. */
static int open_allocated_lane(mpishmem_segment_t *s, MPI_Comm comm, size_t bytes)
{
    char *mem = NULL;
    MPI_Win *win = &s->lanes[0].win;
    int rc = open_lane_window(s, comm, mpishmem_mem_alias_len(bytes) + page_size(), &mem, win);
    if (rc != MPI_SUCCESS || mpishmem_mem_alias_segment(s, comm, mem, bytes))
        return rc;
    s->mpi_memory = 0;
    MPISHMEM_MPI(MPI_Win_unlock_all(*win));
    mpishmem_meet_before_blocking(comm);
    MPISHMEM_MPI(MPI_Win_free(win));
    return open_lane_window(s, comm, bytes, NULL, win);
}

/* The RMA windows of every lane over [s->base, s->base + bytes) on comm:
 * lane 0 is s->win and carries every AMO; the others serve contexts (on
 * MPI's memory, over the same range: bytes before s->base + s->lead are
 * never a target).  bytes may be 0 (a space that refuses RMA still needs
 * a window handle for flush/sync). */
static int open_lanes(mpishmem_segment_t *s, MPI_Comm comm, size_t bytes)
{
    s->comm = comm;
    s->win_bytes = bytes;
    for (int k = 0; k <= mpishmem_rt.ctx_lanes; k++) {
        mpishmem_lane_t *l = &s->lanes[k];
        l->ranks = s->ranks;
        int rc = k == 0 && s->mpi_memory ? open_allocated_lane(s, comm, bytes)
                                         : open_lane_window(s, comm, s->win_bytes, NULL, &l->win);
        if (rc != MPI_SUCCESS)
            return rc;
        mpishmem_dirty_init(&l->dirty);
        __atomic_store_n(&s->n_lanes, k + 1, __ATOMIC_RELEASE);
    }
    s->win = s->lanes[0].win;
    return MPI_SUCCESS;
}

/* The segment's windows over comm, its members.
 * A segment that every member maps (s->amo_cpu: loads, stores and CPU
 * atomics reach every member) never takes the MPI path, so its windows are
 * over this PE alone: over comm, MPICH's MPI_Win_create is several blocking
 * collectives that spin (3.6 s each at 64 PEs on 2 cores), over this PE it
 * is local.  The handles still serve flush, sync and free; an MPI
 * operation on one aimed at another PE would fail loudly (invalid rank),
 * never reach the wrong memory.  Some MPIs cannot make a window over one
 * process (Open MPI 4's osc/rdma, where the program started MPI itself):
 * then, agreed by every member, windows over comm as before. */
static int open_rma_window(mpishmem_segment_t *s, MPI_Comm comm, size_t bytes)
{
    if (s->amo_cpu) {
        int ok = open_lanes(s, mpishmem_rt.self, bytes) == MPI_SUCCESS, all = 0;
        mpishmem_allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, comm);
        if (all)
            return MPI_SUCCESS;
        mpishmem_lanes_close(s, 0);
    }
    int members;
    MPISHMEM_MPI(MPI_Comm_size(comm, &members));
    if (members > 1)
        mpishmem_rt.rma_by_mpi = 1;
    return open_lanes(s, comm, bytes);
}

/* [node_size]: the rank in shm_comm (PEs of this node) of each node rank,
 * -1 for node PEs outside it; malloc'd, NULL when out of memory. */
static int *node_ranks_in(MPI_Comm shm_comm)
{
    int n = mpishmem_rt.node_size;
    int *all = malloc((size_t)n * sizeof(int)), *ranks = malloc((size_t)n * sizeof(int));
    if (!all || !ranks) {
        free(all);
        free(ranks);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        all[i] = i;
    MPI_Group ng, g;
    MPISHMEM_MPI(MPI_Comm_group(mpishmem_rt.node, &ng));
    MPISHMEM_MPI(MPI_Comm_group(shm_comm, &g));
    MPISHMEM_MPI(MPI_Group_translate_ranks(ng, n, all, g, ranks));
    MPISHMEM_MPI(MPI_Group_free(&ng));
    MPISHMEM_MPI(MPI_Group_free(&g));
    for (int i = 0; i < n; i++)
        if (ranks[i] == MPI_UNDEFINED)
            ranks[i] = -1;
    free(all);
    return ranks;
}

/* s->ranks: the members of comm, a window's communicator other than the
 * world, by rank (computed when they are strided). */
static int open_rank_map(mpishmem_segment_t *s, MPI_Comm comm)
{
    s->ranks = malloc(sizeof *s->ranks);
    if (s->ranks == NULL || mpishmem_pe_map_of_comm(s->ranks, comm) != 0) {
        free(s->ranks);
        s->ranks = NULL;
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
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

/* len bytes at an `align` boundary: of object fd (MAP_SHARED), or private
 * anonymous memory when fd < 0.  NULL on failure. */
static char *map_aligned(int fd, size_t len, size_t align)
{
    size_t span = len + align;
    char *r = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED)
        return NULL;
    char *a = (char *)(((uintptr_t)r + align - 1) & ~(uintptr_t)(align - 1));
    void *m = fd >= 0 ? mmap(a, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0)
                      : mmap(a, len, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        munmap(r, span);
        return NULL;
    }
    if (a > r)
        munmap(r, (size_t)(a - r));
    if (r + span > a + len)
        munmap(a + len, (size_t)(r + span - (a + len)));
    return a;
}

/* The heap's memory from our own node-shared objects (node_shm.h): each PE
 * maps its object at an MPISHMEM_HEAP_ALIGN boundary, and the other
 * members of shm_comm map it too, each beside its own (a colour apart in
 * address bits 21-27: mpishmem_shm_map_peer_beside).  shm_rank[r]: node rank r's rank in
 * shm_comm, or -1.  1 when every member succeeded (s->base, s->peer[] and
 * s->map_len set); 0, with nothing left mapped, otherwise. */
static int map_node_shared(mpishmem_segment_t *s, size_t bytes, MPI_Comm shm_comm,
                           int shm_size, const int *shm_rank)
{
    int me = mpishmem_rt.node_rank;
    int fd = mpishmem_shm_object_new("mpishmem-heap", bytes);
    char *base = fd >= 0 ? map_aligned(fd, bytes, MPISHMEM_HEAP_ALIGN) : NULL;
    mpishmem_shm_id_t mine, *ids = malloc((size_t)shm_size * sizeof *ids);
    int ok = base != NULL && ids != NULL && mpishmem_shm_id_of(fd, bytes, &mine), all = 0;
    mpishmem_allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, shm_comm);
    if (all) {
        mpishmem_allgather(&mine, sizeof mine, MPI_BYTE, ids, sizeof mine, MPI_BYTE, shm_comm);
        s->peer[me] = base;
        for (int r = 0; ok && r < mpishmem_rt.node_size; r++) {
            if (shm_rank[r] < 0 || r == me)
                continue;
            unsigned slot = mpishmem_shm_peer_slot(r, me, mpishmem_rt.node_size);
            s->peer[r] = mpishmem_shm_map_peer_beside(&ids[shm_rank[r]], base, slot);
            ok = s->peer[r] != NULL;
        }
        /* Every member has mapped every object: the descriptors can go. */
        mpishmem_allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, shm_comm);
    }
    free(ids);
    if (fd >= 0)
        close(fd);
    if (all) {
        s->base = base;
        s->map_len = bytes;
        return 1;
    }
    for (int r = 0; r < mpishmem_rt.node_size; r++) {
        if (s->peer[r] != NULL && r != me)
            munmap(s->peer[r], bytes);
        s->peer[r] = NULL;
    }
    if (base != NULL)
        munmap(base, bytes);
    return 0;
}

/* The fallback when our own objects cannot be shared (no /proc/PID/fd
 * access, say): MPI's shared window, with MPISHMEM_HEAP_ALIGN extra bytes
 * so the heap can start on that boundary (MPI promises 8 or 16). */
static int allocate_mpi_shared(mpishmem_segment_t *s, size_t bytes, MPI_Comm shm_comm,
                               int shm_size, const int *shm_rank)
{
    MPI_Info info;
    MPISHMEM_MPI(MPI_Info_create(&info));
    /* Let each PE's part start on its own pages (first touch stays local). */
    MPISHMEM_MPI(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
    char *raw = NULL;
    mpishmem_meet_before_blocking(shm_comm);
    int rc = MPI_Win_allocate_shared((MPI_Aint)(bytes + MPISHMEM_HEAP_ALIGN), 1, info, shm_comm,
                                     &raw, &s->shm_win);
    MPISHMEM_MPI(MPI_Info_free(&info));
    if (rc != MPI_SUCCESS) {
        s->shm_win = MPI_WIN_NULL;
        return rc;
    }
    MPISHMEM_MPI(MPI_Win_set_errhandler(s->shm_win, MPI_ERRORS_RETURN));
    size_t pad = (MPISHMEM_HEAP_ALIGN - (uintptr_t)raw % MPISHMEM_HEAP_ALIGN) %
                 MPISHMEM_HEAP_ALIGN;
    s->base = raw + pad;
    /* Each PE maps the others' parts at its own addresses, so their pads
     * cannot be derived here: exchange them. */
    unsigned long mine = pad;
    unsigned long *pads = malloc((size_t)shm_size * sizeof *pads);
    if (pads == NULL)
        return MPI_ERR_NO_MEM;
    mpishmem_allgather(&mine, 1, MPI_UNSIGNED_LONG, pads, 1, MPI_UNSIGNED_LONG, shm_comm);
    for (int r = 0; r < mpishmem_rt.node_size; r++) {
        int sr = shm_rank[r];
        if (sr < 0)
            continue;
        MPI_Aint sz;
        int du;
        char *ptr = NULL;
        MPISHMEM_MPI(MPI_Win_shared_query(s->shm_win, sr, &sz, &du, &ptr));
        s->peer[r] = ptr + pads[sr];
    }
    free(pads);
    return MPI_SUCCESS;
}

int mpishmem_window_create_heap_on(mpishmem_segment_t *s, const char *name, size_t size,
                                   MPI_Comm comm, MPI_Comm shm_comm)
{
    size_t page = page_size();
    /* Whole pages, at least one, so a zero-sized heap still has a distinct
     * address range. */
    size_t bytes = size == 0 ? page : (size + page - 1) / page * page;
    s->win = s->shm_win = MPI_WIN_NULL;
    s->ranks = NULL;
    int rc = segment_init_common(s, name);
    if (rc != MPI_SUCCESS)
        return rc;
    int comm_size, shm_size;
    MPISHMEM_MPI(MPI_Comm_size(comm, &comm_size));
    MPISHMEM_MPI(MPI_Comm_size(shm_comm, &shm_size));
    s->size = bytes;
    /* CPU atomics only when every member can reach every member's heap by
     * load/store. */
    s->amo_cpu = mpishmem_rt.shm_enabled && shm_size == comm_size;
    if (comm != mpishmem_rt.world && (rc = open_rank_map(s, comm)) != MPI_SUCCESS)
        return undo_create(s, rc);
    if (!mpishmem_rt.shm_enabled) {
        /* Nobody maps it: private memory (MPISHMEM_SHM=0 empties peer[]). */
        s->base = map_aligned(-1, bytes, MPISHMEM_HEAP_ALIGN);
        if (s->base == NULL)
            return undo_create(s, MPI_ERR_NO_MEM);
        s->map_len = bytes;
    } else {
        /* Ranks in shm_comm of the node's PEs (-1 when outside it). */
        int *shm_rank = node_ranks_in(shm_comm);
        if (shm_rank == NULL)
            return undo_create(s, MPI_ERR_NO_MEM);
        rc = MPI_SUCCESS;
        if (!map_node_shared(s, bytes, shm_comm, shm_size, shm_rank))
            rc = allocate_mpi_shared(s, bytes, shm_comm, shm_size, shm_rank);
        free(shm_rank);
        if (rc != MPI_SUCCESS)
            return undo_create(s, rc);
    }
    mpishmem_segment_peers_ready(s);
    rc = open_rma_window(s, comm, s->size);
    return rc == MPI_SUCCESS ? rc : undo_create(s, rc);
}

int mpishmem_window_create_device(mpishmem_segment_t *s, const char *name, void *base,
                                  size_t size, MPI_Comm comm, int expose)
{
    s->win = s->shm_win = MPI_WIN_NULL;
    s->ranks = NULL;
    int rc = segment_init_common(s, name);
    if (rc != MPI_SUCCESS)
        return rc;
    s->base = base;
    s->size = size;
    s->amo_cpu = 0; /* the CPU cannot reach device memory: peer[] stays empty */
    if ((rc = open_rank_map(s, comm)) != MPI_SUCCESS)
        return undo_create(s, rc);
    /* Not exposed (MPI is not GPU-aware): the window has no bytes, but the
     * rank map still names the members, whom the GPU agents reach. */
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
    s->amo_cpu = 0; /* until the caller knows every PE maps every other */
    /* Private memory: only this PE can load/store it directly (globals.c
     * maps the node's other PEs when it can). */
    s->peer[mpishmem_rt.node_rank] = s->base;
    mpishmem_segment_peers_ready(s);
    return MPI_SUCCESS;
}

int mpishmem_window_open_static(mpishmem_segment_t *s)
{
    return open_rma_window(s, mpishmem_rt.world, s->size);
}

void mpishmem_window_destroy(mpishmem_segment_t *s)
{
    /* Global data outlives the window: its own memory again. */
    if (s->mpi_memory && s->map_len == 0 && mpishmem_mem_alias_end() != 0)
        mpishmem_fatal("shmem_finalize", "cannot make the %s private memory again", s->name);
    mpishmem_lanes_close(s, s->n_lanes > 0 && s->comm != MPI_COMM_NULL);
    if (s->shm_win != MPI_WIN_NULL)
        MPISHMEM_MPI(MPI_Win_free(&s->shm_win));
    if (s->map_len != 0) {
        /* Our own mappings (map_node_shared, or private memory). */
        for (int r = 0; s->peer != NULL && r < mpishmem_rt.node_size; r++)
            if (s->peer[r] != NULL && s->peer[r] != s->base)
                munmap(s->peer[r], s->map_len);
        munmap(s->base + s->lead, s->map_len);
    }
    if (s->peer != NULL)
        mpishmem_tables_add(-(long)peer_table_bytes());
    free(s->peer);
    if (s->ranks != NULL) {
        mpishmem_pe_map_free(s->ranks);
        free(s->ranks);
    }
    memset(s, 0, sizeof *s);
    s->win = MPI_WIN_NULL;
    s->shm_win = MPI_WIN_NULL;
}
