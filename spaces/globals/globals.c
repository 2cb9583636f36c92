/*
 * mpishmem: the program's global and static variables as a symmetric segment.
 *
 * Every PE runs the same executable, so a global lies at the same offset
 * from the start of the data segment on every PE even when address-space
 * randomization moves the segment.  exe_data.c finds it in the program
 * headers (the linker's _end would be the shared library's own).
 *
 * Off-node PEs reach it through MPI windows.  PEs of one node map each
 * other's data (globals_shm.c gives it a shared backing at start-up) and
 * use load/store, exactly like the heap; the atomic mechanism follows the
 * heap's rule (amo_path.h): CPU atomics only when every PE maps every
 * other PE's data, decided the same on every PE.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "heap.h"
#include "globals_shm.h"
#include "../../mpi_backend/runtime/runtime.h"
#include "../../mpi_backend/memory/window.h"
#include "../../mpi_backend/progress/progress.h"
#include "../../mpi_backend/runtime/route_plan.h"

int mpishmem_exe_data_range(uintptr_t *lo, uintptr_t *hi); /* exe_data.c */

mpishmem_segment_t mpishmem_globals_segment = {.win = MPI_WIN_NULL, .shm_win = MPI_WIN_NULL};

/* For SHMEM_INFO: how other PEs' globals are reached, and why not directly. */
static int globals_direct;   /* node peers mapped */
static const char *globals_why;

/* Drop the mappings of the node's other PEs. */
static void unmap_node_peers(mpishmem_segment_t *s)
{
    for (int nr = 0; s->peer != NULL && nr < mpishmem_rt.node_size; nr++)
        if (nr != mpishmem_rt.node_rank && s->peer[nr]) {
            mpishmem_globals_shm_unmap(s->peer[nr]);
            s->peer[nr] = NULL;
        }
}

/* Map the data of every other PE of this node into peer[]: all of them on
 * every PE of the node, or none.  Returns whether they were mapped. */
static int map_node_peers(mpishmem_segment_t *s)
{
    int me = mpishmem_rt.node_rank, nn = mpishmem_rt.node_size;
    mpishmem_shm_id_t mine, *ids = malloc((size_t)nn * sizeof *ids);
    int ok = mpishmem_globals_shm_info(&mine) && mpishmem_globals_shm_lo() == s->base;
    if (!ok)
        globals_why = mpishmem_globals_shm_why() ? mpishmem_globals_shm_why()
                                                 : "the data does not start where expected";
    if (ids == NULL) {
        mine.fd = -1;
        ok = 0;
        globals_why = "out of memory";
    }
    if (ids)
        mpishmem_allgather(&mine, sizeof mine, MPI_BYTE, ids, sizeof mine, MPI_BYTE,
                      mpishmem_rt.node);
    for (int nr = 0; ok && nr < nn; nr++) {
        if (nr == me)
            continue;
        s->peer[nr] = mpishmem_globals_shm_map(&ids[nr], mpishmem_shm_peer_slot(nr, me, nn));
        if (s->peer[nr] == NULL) {
            ok = 0;
            globals_why = ids[nr].fd < 0 ? "a PE of the node has no shared backing"
                                         : "cannot open another PE's data (/proc/PID/fd)";
        }
    }
    free(ids);
    int all = 0;
    mpishmem_allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, mpishmem_rt.node);
    if (!all) {
        if (ok)
            globals_why = "another PE of the node could not map the data";
        unmap_node_peers(s);
    }
    return all;
}

int mpishmem_globals_create(void)
{
    uintptr_t lo, hi;
    if (mpishmem_exe_data_range(&lo, &hi) != 0)
        return MPI_ERR_OTHER;
    mpishmem_segment_t *s = &mpishmem_globals_segment;
    int rc = mpishmem_window_create_static(s, "global data", (void *)lo, (size_t)(hi - lo));
    if (rc != MPI_SUCCESS)
        return rc;
    globals_direct = 0;
    globals_why = "MPISHMEM_SHM=0";
    int node_ok = 0;
    if (mpishmem_rt.shm_enabled) {
        node_ok = mpishmem_rt.node_size == 1 ? 1 : map_node_peers(s);
        globals_direct = node_ok && mpishmem_rt.node_size > 1;
    }
    /* The atomic mechanism: CPU atomics only if every PE maps every other
     * (one node, all mapped); one agreement so it is the same everywhere. */
    int every = node_ok && mpishmem_rt.node_size == mpishmem_rt.n_pes, all = 0;
    mpishmem_allreduce(&every, &all, 1, MPI_INT, MPI_LAND, mpishmem_rt.world);
    s->amo_cpu = all;
    /* Only MPI reaches it and it has no backing of ours: memory MPI
     * allocates, if planned (with a backing, globals_shm.c would restore it
     * in a fork()ed child). */
    mpishmem_shm_id_t id;
    s->mpi_memory = mpishmem_plan.win_allocate && !all && !globals_direct &&
                    !mpishmem_globals_shm_info(&id);
    /* Then no PE needs MPI to reach it: the windows are this PE's alone. */
    rc = mpishmem_window_open_static(s);
    if (rc != MPI_SUCCESS) {
        unmap_node_peers(s);
        mpishmem_window_destroy(s);
        return rc;
    }
    if (mpishmem_segment_register(s) != 0) {
        mpishmem_globals_destroy();
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

static const char *atomics_of(const mpishmem_segment_t *s)
{
    return s->amo_cpu  ? "CPU atomics"
           : s->amo_am ? "CPU atomics, by request to the owner where not mapped (MPISHMEM_AMO_AM)"
                       : "MPI atomics";
}

void mpishmem_globals_report(void)
{
    const mpishmem_segment_t *s = &mpishmem_globals_segment;
    if (s->win == MPI_WIN_NULL)
        return;
    if (mpishmem_rt.node_size == 1 && mpishmem_rt.shm_enabled)
        printf("mpishmem: global data: no other PE on this node; %s\n", atomics_of(s));
    else if (globals_direct)
        printf("mpishmem: global data: load/store between the %d PEs of a node; %s\n",
               mpishmem_rt.node_size, atomics_of(s));
    else
        printf("mpishmem: global data: MPI RMA only (%s, MPISHMEM_SHM_GLOBALS); %s\n",
               globals_why, atomics_of(s));
}

void mpishmem_globals_destroy(void)
{
    mpishmem_segment_t *s = &mpishmem_globals_segment;
    if (s->win == MPI_WIN_NULL)
        return;
    mpishmem_segment_unregister(s);
    unmap_node_peers(s);
    mpishmem_window_destroy(s);
}
