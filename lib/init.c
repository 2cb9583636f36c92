/*
 * mpishmem: starting and stopping the library.
 *
 * shmem_init: [the GPU, when a GPU space is wanted and we start MPI] ->
 * MPI (ours or the user's) -> private communicators -> settings
 * from the environment, each checked against its row of the settings table
 * and checked to agree on every PE -> the node (node_map.c) -> the plan of
 * routes (init_plan.c) -> devices and the default space -> symmetric heap
 * and global-data windows -> predefined teams -> predefined spaces -> the
 * progress thread and AMO route -> barrier.
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
#include "../mpi_backend/runtime/error.h"
#include "../mpi_backend/settings/env_parse.h"
#include "init_internal.h"
#include "../mpi_backend/runtime/runtime.h"
#include "coll/coll.h"
#include "../mpi_backend/progress/progress.h"
#include "../mpi_backend/progress/progress_thread.h"
#include "../mpi_backend/data_path/amo_am.h"
#include "../mpi_backend/progress/request_service.h"
#include "../mpi_backend/memory/segment.h"
#include "../mpi_backend/runtime/quirks.h"
#include "../mpi_backend/runtime/mpi_family.h"
#include "../mpi_backend/runtime/launcher_env.h"
#include "../spaces/memory_spaces/devices.h"
#include "../spaces/heap/heap.h"
#include "../spaces/memory_spaces/space.h"
#include "../teams/team.h"
#include "context.h"
#include "trace.h"
#include "../mpi_backend/settings/env_read.h"
#include "../mpi_backend/runtime/route_plan.h"

static const int thread_levels_mpi[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED,
                                        MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};

static int shmem_level_of_mpi(int mpi_level)
{
    for (int i = 3; i >= 0; i--)
        if (mpi_level >= thread_levels_mpi[i])
            return i;
    return SHMEM_THREAD_SINGLE;
}

static const char *advice(void)
{
    return mpishmem_quirks_window_advice(mpishmem_rt.we_initialized_mpi);
}

/* A heap the node cannot back stops here with the numbers: MPICH would
 * hang in MPI_Win_allocate_shared, Open MPI fail with a bare error.  The
 * settings agree on every PE, so every PE of the node stops alike. */
static void check_heap_fits(const mpishmem_settings_t *set)
{
    const char *what = NULL;
    unsigned long long have = mpishmem_heap_node_memory(&what);
    unsigned long long need;
    if (have == 0)
        return;
    int wraps = __builtin_mul_overflow((unsigned long long)set->heap_size,
                                       (unsigned long long)mpishmem_rt.node_size, &need);
    if (wraps || need > have) {
        char needs[64]; /* the product as a number, never wrapped */
        if (wraps)
            snprintf(needs, sizeof needs, "more than %llu", ULLONG_MAX);
        else
            snprintf(needs, sizeof needs, "%llu", need);
        mpishmem_fatal("shmem_init", "%s=%s asks for %zu bytes of symmetric heap per PE, "
                       "%d PEs on this node need %s bytes, but the node has %llu bytes "
                       "(%.1f GiB, %s); lower %s", set->heap_size_var,
                       mpishmem_env_shown(set->heap_size_text), set->heap_size,
                       mpishmem_rt.node_size, needs, have, have / 1073741824.0, what,
                       set->heap_size_var);
    }
}

/* MPI, ours or the program's; returns the thread level MPI provides. */
static int start_mpi(int requested)
{
    int up = 0, mpi_provided = MPI_THREAD_SINGLE;
    MPI_Initialized(&up);
    if (up) {
        MPISHMEM_MPI(MPI_Query_thread(&mpi_provided));
        return mpi_provided;
    }
    mpishmem_quirks_before_mpi_init(); /* only MPI that we start ourselves */
    /* A progress thread needs MPI_THREAD_MULTIPLE from MPI; the user's
     * SHMEM level stays `requested`.  Unset, it may run where the node has
     * a core to spare for it, or where peers' RMA through MPI needs this
     * PE inside MPI (init_plan.c decides once MPI runs): in a job the
     * launcher spread over nodes, and on MPICH also without load/store. */
    int progress = mpishmem_peek_progress_thread();
    if (progress < 0)
        progress = mpishmem_progress_thread_may_fit() || mpishmem_launcher_spans_nodes() ||
                   (mpishmem_plan.mpi_family == 'm' && !mpishmem_peek_shm());
    int mpi_level = progress ? MPI_THREAD_MULTIPLE : thread_levels_mpi[requested];
    /* A GPU-aware MPI binds to the device current when it starts. */
    mpishmem_devices_before_mpi(mpishmem_peek_gpu_wanted());
    if (MPI_Init_thread(NULL, NULL, mpi_level, &mpi_provided) != MPI_SUCCESS)
        mpishmem_fatal("shmem_init", "MPI_Init_thread failed");
    mpishmem_devices_after_mpi();
    mpishmem_rt.we_initialized_mpi = 1;
    return mpi_provided;
}

/* The library's communicators over the world and itself. */
static void start_comms(void)
{
    /* Until the plan knows, wait as the launcher's placement suggests:
     * the set-up collectives below are much faster yielding when PEs
     * outnumber cores (mpi_backend/progress/progress.h). */
    mpishmem_rt.yield = mpishmem_launcher_oversubscribed();
    mpishmem_comm_dup(MPI_COMM_WORLD, &mpishmem_rt.world);
    MPISHMEM_MPI(MPI_Comm_rank(mpishmem_rt.world, &mpishmem_rt.my_pe));
    MPISHMEM_MPI(MPI_Comm_size(mpishmem_rt.world, &mpishmem_rt.n_pes));
    mpishmem_quirks_after_mpi_init(mpishmem_rt.we_initialized_mpi, mpishmem_rt.my_pe);
    /* Errors inside the library are reported by us, with the routine name. */
    MPISHMEM_MPI(MPI_Comm_set_errhandler(mpishmem_rt.world, MPI_ERRORS_RETURN));
    mpishmem_comm_dup(mpishmem_rt.world, &mpishmem_rt.exit_comm);
    MPISHMEM_MPI(MPI_Comm_dup(MPI_COMM_SELF, &mpishmem_rt.self)); /* local */
    MPISHMEM_MPI(MPI_Comm_set_errhandler(mpishmem_rt.self, MPI_ERRORS_RETURN));
}

/* Devices, enabled spaces, the default space and so the heap's size; the
 * heap, global data, the predefined teams and spaces. */
static void start_memory(mpishmem_settings_t *set)
{
    mpishmem_spaces_plan(&set->spaces, set->heap_size_set, &set->heap_size,
                         &set->heap_size_var, &set->heap_size_text);
    check_heap_fits(set);
    int rc = mpishmem_heap_create(&mpishmem_default_heap, "symmetric heap", set->heap_size);
    if (rc != MPI_SUCCESS)
        mpishmem_fatal("shmem_init", "cannot create the symmetric heap of %zu bytes "
                       "(%s=%s): %s%s", set->heap_size, set->heap_size_var,
                       mpishmem_env_shown(set->heap_size_text), mpishmem_mpi_text(rc).s,
                       advice());
    mpishmem_segments.heap = &mpishmem_default_heap.seg;
    rc = mpishmem_globals_create();
    if (rc != MPI_SUCCESS)
        mpishmem_fatal("shmem_init", "cannot expose global variables for RMA: %s%s",
                       mpishmem_mpi_text(rc).s, advice());
    rc = mpishmem_teams_init();
    if (rc != MPI_SUCCESS)
        mpishmem_fatal("shmem_init", "cannot create the predefined teams: %s%s",
                       mpishmem_mpi_text(rc).s, advice());
    rc = mpishmem_spaces_init();
    if (rc != MPI_SUCCESS)
        mpishmem_fatal("shmem_init", "cannot create the predefined memory spaces: %s%s",
                       mpishmem_mpi_text(rc).s, advice());
}

static void start(int requested, int *provided)
{
    if (mpishmem_rt.state == MPISHMEM_RUNNING) {
        if (provided)
            *provided = mpishmem_rt.thread_level;
        return; /* repeated shmem_init is harmless, as for start_pes */
    }
    if (mpishmem_rt.state == MPISHMEM_FINALIZED)
        mpishmem_fatal("shmem_init", "the library cannot be initialized again after "
                       "shmem_finalize");
    /* Every later read of our variables sees what this call sees. */
    mpishmem_env_freeze();
    /* Before any MPI handle is used: a program linked with another MPI
     * than the library's would crash in the first call that takes one. */
    mpishmem_check_mpi_family("shmem_init");
    mpishmem_plan_mpi();
    int mpi_provided = start_mpi(requested);
    int level = shmem_level_of_mpi(mpi_provided);
    mpishmem_rt.thread_level = level < requested ? level : requested;
    start_comms();

    mpishmem_settings_t set;
    mpishmem_read_settings(&set); /* every variable checked first */
    mpishmem_agree_settings(&set);
    mpishmem_rt.debug = set.debug;
    mpishmem_map_node();
    int cores = 0;
    mpishmem_plan_before_heap(&set, &cores);
    start_memory(&set);
    mpishmem_trace_init();
    mpishmem_plan_after_heap(&set, mpi_provided, cores);

    mpishmem_rt.state = MPISHMEM_RUNNING;
    mpishmem_exit_check_register(shmem_finalize);
    if (provided)
        *provided = mpishmem_rt.thread_level;
    mpishmem_report_settings(&set);
    mpishmem_barrier_comm(mpishmem_rt.world);
}

void shmem_init(void)
{
    start(SHMEM_THREAD_SINGLE, NULL);
}

int shmem_init_thread(int requested, int *provided)
{
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE) {
        fprintf(stderr, "mpishmem: shmem_init_thread: requested thread level %d is not "
                        "one of SHMEM_THREAD_SINGLE..SHMEM_THREAD_MULTIPLE\n", requested);
        return -1;
    }
    start(requested, provided);
    return 0;
}

void shmem_query_thread(int *provided)
{
    if (MPISHMEM_DEBUG_ON)
        mpishmem_check_running("shmem_query_thread");
    *provided = mpishmem_rt.thread_level;
}

int shmem_query_initialized(int *initialized)
{
    *initialized = mpishmem_rt.state == MPISHMEM_RUNNING;
    return 0;
}

void shmem_finalize(void)
{
    if (mpishmem_rt.state != MPISHMEM_RUNNING)
        return; /* finalizing twice, or never initialized: nothing to do */
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_finalize(); /* collective: PE 0 writes MPISHMEM_TRACE's file */
    shmem_barrier_all();
    /* From here on every PE is inside the library and polls MPI itself. */
    mpishmem_progress_thread_stop();
    mpishmem_amo_am_stop(); /* every request was answered before the barrier ended */
    mpishmem_requests_stop();
    mpishmem_contexts_finalize();
    mpishmem_coll_finalize();
    mpishmem_teams_finalize();
    mpishmem_spaces_finalize();
    mpishmem_globals_destroy();
    mpishmem_heap_destroy(&mpishmem_default_heap);
    mpishmem_pe_map_free(&mpishmem_rt.node_map);
    MPISHMEM_MPI(MPI_Comm_free(&mpishmem_rt.node));
    mpishmem_progress_finalize(); /* its receive is on exit_comm */
    MPISHMEM_MPI(MPI_Comm_free(&mpishmem_rt.exit_comm));
    MPISHMEM_MPI(MPI_Comm_free(&mpishmem_rt.self));
    MPISHMEM_MPI(MPI_Comm_free(&mpishmem_rt.world));
    mpishmem_rt.state = MPISHMEM_FINALIZED;
    if (mpishmem_rt.we_initialized_mpi) {
        int down = 0;
        MPI_Finalized(&down);
        if (!down)
            MPISHMEM_MPI(MPI_Finalize());
    }
}

void shmem_global_exit(int status)
{
    mpishmem_exit_intended();
    fflush(stdout);
    fflush(stderr);
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (up && !down)
        MPI_Abort(MPI_COMM_WORLD, status);
    exit(status);
}

/* OpenSHMEM 1.0 programs call start_pes and never finalize: finalize at exit
 * unless the program finalized MPI itself. */
static void finalize_at_exit(void)
{
    int down = 0;
    MPI_Finalized(&down);
    if (!down)
        shmem_finalize();
}

void start_pes(int npes)
{
    (void)npes; /* the PE count comes from mpiexec, as the 1.0 text allows */
    if (mpishmem_rt.state == MPISHMEM_RUNNING)
        return;
    shmem_init();
    atexit(finalize_at_exit);
}
