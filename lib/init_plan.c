/*
 * mpishmem: the plan of routes made in shmem_init (mpi_backend/runtime/route_plan.h):
 * waiting, lanes and the barrier before the segments are made, the
 * progress thread and the AMO route once they exist.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <shmem.h>
#include "init_internal.h"
#include "../mpi_backend/runtime/error.h"
#include "../mpi_backend/runtime/runtime.h"
#include "../mpi_backend/progress/progress.h"
#include "../mpi_backend/data_path/amo_am.h"
#include "../mpi_backend/settings/env_read.h"
#include "../mpi_backend/progress/progress_thread.h"
#include "../mpi_backend/runtime/route_plan.h"
#include "../mpi_backend/memory/segment.h"
#include "../spaces/heap/heap.h"
#include "../teams/team_plan.h"

/* Decided once, so every wait and every collective agree: spin while each
 * PE has a core of its own, yield when the node's PEs (or, where MPI nodes
 * share a machine, the machine's) outnumber the cores the job may use (or
 * MPISHMEM_YIELD says so). */
static int plan_waiting(const mpishmem_settings_t *set, int *any_over)
{
    int cores = mpishmem_node_cores(mpishmem_rt.node);
    int over = mpishmem_rt.node_size > cores;
    /* Several MPI nodes on one machine share its cores: PEs outnumber them
     * when the machine's PEs do.  Spinning there kept the PEs a barrier
     * waits for off the cores (NPB MG, 4 PEs on two pretend nodes on 2
     * cores: 8.4 s spinning, 0.59 s yielding; docs/performance.md). */
    if (mpishmem_job_on_one_machine() && mpishmem_rt.node_size < mpishmem_rt.n_pes)
        over = mpishmem_rt.n_pes > mpishmem_node_cores(mpishmem_rt.world);
    mpishmem_plan.yield = set->yield >= 0 ? set->yield : over;
    /* Whether some PE of the node shares no scheduling group with this
     * one: max of key and of ~key differ from each other's complement. */
    unsigned long long key = mpishmem_sched_group_key(), mine[2] = {key, ~key}, all[2];
    mpishmem_allreduce(mine, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, mpishmem_rt.node);
    mpishmem_plan.sched_apart = all[0] != ~all[1];
    *any_over = over;
    return cores;
}

/* The contexts' extra lanes, unless MPISHMEM_CTX_LANES is set: only where
 * threads may drive contexts at once (SHMEM_THREAD_MULTIPLE) and every PE
 * has a core.  Each lane is one more window per segment over its members:
 * a blocking MPI_Win_create at start-up (about half of shmem_init at 8 PEs
 * on 2 cores, docs/performance-waiting.md) and MPI's per-rank state for the
 * whole run.  A lane cannot wait for the first context that needs it:
 * contexts are made by one PE, windows by all.  Without lanes contexts
 * share lane 0, which stays correct (a quiet may complete another
 * context's transfers too).  The window count must match on every PE, so
 * one allreduce decides for all. */
static void plan_lanes(int over)
{
    int mine[2] = {over, mpishmem_rt.thread_level != SHMEM_THREAD_MULTIPLE}, any[2];
    mpishmem_allreduce(mine, any, 2, MPI_INT, MPI_MAX, mpishmem_rt.world);
    if ((any[0] || any[1]) && mpishmem_env("MPISHMEM_CTX_LANES") == NULL)
        mpishmem_plan.ctx_lanes = 0;
}

/* Whether the library runs a sleeping thread where peers' RMA through
 * MPI needs this PE inside MPI: on MPICH (ch4 serves it by messages, on
 * one node and between nodes), and on every MPI in a job over several
 * nodes (Open MPI's osc/ucx over TCP needs the target's progress too: a
 * conveyor between nodes lost its rounds without it).  On one node Open
 * MPI's osc/sm needs nothing from the target. */
static int rma_needs_this_pe(void)
{
    return mpishmem_plan.mpi_family == 'm' || mpishmem_rt.node_size < mpishmem_rt.n_pes;
}

/* The progress thread (docs/progress.md).  Unset, it runs where other PEs
 * reach this one through MPI RMA (MPISHMEM_SHM=0, PEs on other nodes, or
 * global data without a shared backing) and either the node has a core
 * for every PE and every thread, or that RMA needs this PE inside MPI
 * (rma_needs_this_pe): OpenSHMEM expects a peer's operation to complete
 * while this PE computes or polls its memory with plain loads.  Without a
 * spare core it sleeps between polls (MPISHMEM_PROGRESS_SLEEPING).  It
 * needs MPI_THREAD_MULTIPLE, which MPICH makes 1-12% slower per call
 * (bench/thread_cost.sh); the SHMEM level the user gets is unchanged. */
static void plan_progress(const mpishmem_settings_t *set, int mpi_provided, int cores)
{
    int want = set->progress_thread;
    /* One the user asks for polls as if it had a core of its own. */
    int spare = cores >= 2 * mpishmem_rt.node_size || want == 1;
    if (want < 0) {
        int by_mpi = mpishmem_rt.n_pes > 1 &&
                     !(mpishmem_segments.heap->amo_cpu && mpishmem_globals_segment.amo_cpu);
        want = by_mpi && (spare || rma_needs_this_pe());
        /* Quietly none where MPI was started without the level it needs. */
        if (mpi_provided < MPI_THREAD_MULTIPLE)
            want = 0;
    }
    if (want && mpi_provided < MPI_THREAD_MULTIPLE) {
        if (mpishmem_rt.my_pe == 0)
            fprintf(stderr, "mpishmem: shmem_init: MPISHMEM_PROGRESS_THREAD=1 needs "
                            "MPI_THREAD_MULTIPLE, but MPI was started with less (the program "
                            "called MPI_Init or MPI_Init_thread first); continuing without "
                            "the progress thread\n");
        want = 0;
    }
    int rc = mpishmem_progress_thread_start(mpishmem_rt.world, want, spare);
    if (rc != 0 && set->progress_thread == 1)
        mpishmem_fatal("shmem_init", "MPISHMEM_PROGRESS_THREAD=1: cannot start the progress "
                       "thread: %s", strerror(rc));
    mpishmem_plan.progress_thread = mpishmem_progress_thread_running();
}

/* AMOs as requests (mpi_backend/data_path/amo_am.c) for the heap and global data
 * where they need MPI (other nodes, or MPISHMEM_SHM=0).  Unset, only where
 * MPI's atomics cost more than a message exchange (MPICH; and every MPI
 * between nodes: Open MPI 4.1.4's osc/ucx over TCP took 38-40 us a
 * fetch_add, requests 12-13 us; bench/cluster_bench.sh) and while
 * every PE has the progress thread, which answers requests while its PE
 * computes or sits in an MPI call of the program's own; without it a
 * program that blocks in MPI while a peer waits for an AMO would hang.
 * The route must be the same on every PE: one agreement. */
static void plan_amo_route(const mpishmem_settings_t *set)
{
    mpishmem_segment_t *heap = mpishmem_segments.heap, *globals = &mpishmem_globals_segment;
    int need = mpishmem_rt.n_pes > 1 && !(heap->amo_cpu && globals->amo_cpu);
    /* A thread the library chose to run sleeping answers a request only
     * once a nap: the MPI atomics, served in any MPI call the target
     * makes, wait less.  One the user asked for (=1) serves them as
     * before. */
    int running = mpishmem_progress_thread_running();
    int apart = mpishmem_rt.node_size < mpishmem_rt.n_pes;
    /* Open MPI 4.1.4's osc/ucx between nodes deadlocks in MPI_Accumulate
     * (4 PEs on 2 nodes incrementing each other's counters: every PE spins
     * inside ompi_osc_ucx_accumulate, examples/05_histogram), so there any
     * thread serves requests instead (docs/mpi-quirks.md). */
    int ompi_apart = mpishmem_plan.mpi_family == 'o' && apart;
    int thread = running == MPISHMEM_PROGRESS_SPARE_CORE ||
                 (running != MPISHMEM_PROGRESS_OFF && (set->progress_thread == 1 || ompi_apart));
    int costly = mpishmem_plan.rma_needs_target || apart;
    int want = set->amo_am >= 0 ? set->amo_am : costly && thread;
    int mine = want && need, all = 0;
    mpishmem_allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, mpishmem_rt.world);
    if (!all)
        return;
    mpishmem_plan.amo_am = 1;
    int rc = mpishmem_amo_am_start(mpishmem_rt.world);
    if (rc != MPI_SUCCESS)
        mpishmem_fatal("shmem_init", "cannot set up AMO requests: %s", mpishmem_mpi_text(rc).s);
    if ((!heap->amo_cpu && mpishmem_amo_am_enable(heap) != 0) ||
        (!globals->amo_cpu && mpishmem_amo_am_enable(globals) != 0))
        mpishmem_fatal("shmem_init", "cannot set up AMO requests: segment table full");
}

/* Open MPI's osc/sm is among the RMA components it may pick (OMPI_MCA_osc,
 * which shmem_init sets to ucx,sm when it starts Open MPI 4). */
static int open_mpi_osc_sm(void)
{
    const char *v = mpishmem_env("OMPI_MCA_osc");
    if (mpishmem_plan.mpi_family != 'o' || v == NULL || v[0] == '^')
        return 0;
    for (const char *p = strstr(v, "sm"); p != NULL; p = strstr(p + 1, "sm"))
        if ((p == v || p[-1] == ',') && (p[2] == '\0' || p[2] == ','))
            return 1;
    return 0;
}

/* Memory MPI allocates for the segments only MPI reaches (route_plan.h):
 * MPISHMEM_WIN_ALLOCATE, else where Open MPI may serve the windows by
 * osc/sm (4 PEs on 2 cores, MPISHMEM_SHM=0: raw MPI_Fetch_and_op on an
 * MPI_Win_create window ran at 625 per second, on an MPI_Win_allocate one
 * at 14 million; docs/performance-waiting.md).  Not with Open MPI 4's
 * osc/rdma (a program that started MPI itself), which crashed in
 * MPI_Accumulate on such a window.  Windows are made collectively, so
 * every PE takes the same answer. */
static void plan_win_allocate(const mpishmem_settings_t *set)
{
    int mine = set->win_allocate >= 0 ? set->win_allocate : open_mpi_osc_sm();
    int all = 0;
    mpishmem_allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, mpishmem_rt.world);
    mpishmem_plan.win_allocate = all;
}

void mpishmem_plan_before_heap(const mpishmem_settings_t *set, int *cores)
{
    mpishmem_plan.shm = set->shm;
    mpishmem_plan.ctx_lanes = set->ctx_lanes;
    mpishmem_plan.barrier = set->barrier;
    mpishmem_team_plan_info = set->print_info;
    int over = 0;
    *cores = plan_waiting(set, &over);
    plan_lanes(over);
    plan_win_allocate(set);
    mpishmem_plan_publish();
}

void mpishmem_plan_after_heap(const mpishmem_settings_t *set, int mpi_provided, int cores)
{
    plan_progress(set, mpi_provided, cores);
    plan_amo_route(set);
}
