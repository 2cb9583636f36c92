/*
 * mpishmem: starting and stopping the library.
 *
 * shmem_init: [the GPU, when a GPU space is wanted and we start MPI] ->
 * MPI (ours or the user's) -> private communicators -> settings
 * from the environment, checked to agree on every PE -> devices and the
 * default space -> symmetric heap and global-data windows -> predefined
 * teams -> predefined spaces -> barrier.
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
#include "../mpi_backend/error.h"
#include "env.h"
#include "init_internal.h"
#include "../mpi_backend/runtime.h"
#include "coll/coll.h"
#include "../mpi_backend/progress.h"
#include "../mpi_backend/progress_thread.h"
#include "../mpi_backend/amo_am.h"
#include "../mpi_backend/request_service.h"
#include "../mpi_backend/segment.h"
#include "../mpi_backend/quirks.h"
#include "../mpi_backend/mpi_family.h"
#include "../mpi_backend/launcher_env.h"
#include "../spaces/devices.h"
#include "../spaces/heap.h"
#include "../spaces/space.h"
#include "../teams/team.h"
#include "context.h"
#include "trace.h"
#include "../mpi_backend/env_read.h"

static const int thread_levels_mpi[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED,
                                        MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};

static int shmem_level_of_mpi(int mpi_level)
{
    for (int i = 3; i >= 0; i--)
        if (mpi_level >= thread_levels_mpi[i])
            return i;
    return SHMEM_THREAD_SINGLE;
}

/* FNV-1a over a string, continuing from h. */
static uint64_t hash_text(uint64_t h, const char *text)
{
    for (const char *c = text; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    return h;
}

/* This boot of this machine (one kernel: its cores are shared by every
 * process on it, whatever host name a container or UTS namespace gives
 * them); the host name where the kernel does not say. */
static uint64_t machine_hash(uint64_t h, const char *name)
{
    char boot[64] = "";
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f != NULL) {
        if (fgets(boot, sizeof boot, f) == NULL)
            boot[0] = '\0';
        fclose(f);
    }
    return hash_text(h, boot[0] ? boot : name);
}

/* Set by job_on_one_node: every PE runs on this machine, though the
 * launcher may have split them into several MPI nodes (MPICH's
 * -launcher fork -hosts a,b; Open MPI daemons in UTS namespaces). */
static int job_on_one_machine;

/* Whether the whole job is on this node: the launcher says it put every
 * process here and every PE runs on the same host (name and boot).  One
 * polled allreduce, the same answer on every PE. */
static int job_on_one_node(void)
{
    char name[256] = "";
    gethostname(name, sizeof name - 1);
    uint64_t basis = 14695981039346656037ull;
    uint64_t machine = machine_hash(basis, name);
    uint64_t host = hash_text(machine, name);
    uint64_t mine[5] = {mpishmem_launcher_local_size() != mpishmem_rt.n_pes, host, ~host,
                        machine, ~machine},
             max[5];
    mpishmem_allreduce(mine, max, 5, MPI_UINT64_T, MPI_MAX, mpishmem_rt.world);
    /* highest hash = lowest: all equal */
    job_on_one_machine = max[3] == ~max[4];
    return max[0] == 0 && max[1] == ~max[2];
}

/* The node communicator and its PEs (a computed map when they are
 * consecutive or strided world ranks, tables of the node's size otherwise).
 * MPICH's MPI_Comm_split_type is blocking collectives that spin (4.6 s at
 * 64 PEs on 2 cores); when the job is on one node, the node is the world
 * and a polled duplicate takes 19 ms. */
static void map_node(void)
{
    if (job_on_one_node())
        mpishmem_comm_dup(mpishmem_rt.world, &mpishmem_rt.node);
    else
        MPISHMEM_MPI(MPI_Comm_split_type(mpishmem_rt.world, MPI_COMM_TYPE_SHARED, 0,
                                         MPI_INFO_NULL, &mpishmem_rt.node));
    MPISHMEM_MPI(MPI_Comm_size(mpishmem_rt.node, &mpishmem_rt.node_size));
    MPISHMEM_MPI(MPI_Comm_rank(mpishmem_rt.node, &mpishmem_rt.node_rank));
    if (mpishmem_pe_map_of_comm(&mpishmem_rt.node_map, mpishmem_rt.node) != 0)
        mpishmem_fatal("shmem_init", "out of memory for the map of the %d PEs of this node",
                       mpishmem_rt.node_size);
}

/* Set when the program leaves through shmem_global_exit or start_pes's
 * automatic finalize: exiting while running is then intended. */
static int exit_intended;

/* How long a PE that leaves with status 0 waits for the others to leave
 * too before it reports itself (docs/checks.md). */
#define EXIT_WAIT_SECONDS 5.0

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Whether every PE is leaving too: each leaving PE joins a barrier on
 * exit_comm, a communicator no other collective uses (the progress probes
 * look at it but nothing is sent there), so only PEs in this check can
 * complete it.  It polls MPI (RMA aimed at this PE still completes
 * while the others work) and gives up after EXIT_WAIT_SECONDS. */
static int all_pes_leaving(void)
{
    MPI_Request req;
    if (MPI_Ibarrier(mpishmem_rt.exit_comm, &req) != MPI_SUCCESS)
        return 0;
    double deadline = seconds_now() + EXIT_WAIT_SECONDS;
    unsigned spins = 0;
    for (;;) {
        int done = 0;
        if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return 0;
        if (done)
            return 1;
        if (seconds_now() > deadline)
            return 0; /* the request stays pending: the job is aborted next */
        mpishmem_progress_test_failed(&spins);
    }
}

/* A PE that leaves main (or calls exit) while the library runs.  When
 * every PE leaves with status 0, as OpenSHMEM 1.0-1.3 programs do, the
 * library finalizes for them and the exit goes on with status 0.
 * Otherwise the other PEs would wait for it in shmem_finalize or a
 * barrier, or, with MPICH, the job would end with status 0 and no word:
 * stop the whole job with a message instead.  `status` is exit's
 * argument; `known` is 0 where the C library does not give it (not glibc). */
static void check_finalized_at_exit_status(int status, int known)
{
    if (mpishmem_rt.state != MPISHMEM_RUNNING || exit_intended)
        return;
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    int mpi_usable = up && !down;
    int code = status & 0xff; /* what the launcher would see */
    if (known && code == 0 && mpi_usable && all_pes_leaving()) {
        if (mpishmem_rt.debug && mpishmem_rt.my_pe == 0) {
            fprintf(stderr, "mpishmem: warning: all %d PEs exited without calling "
                            "shmem_finalize; finalized at exit (OpenSHMEM 1.4 and later "
                            "require shmem_finalize)\n", mpishmem_rt.n_pes);
            fflush(stderr);
        }
        shmem_finalize();
        return;
    }
    fflush(stdout);
    if (!known || !mpi_usable)
        fprintf(stderr, "mpishmem: PE %d exited without calling shmem_finalize\n",
                mpishmem_rt.my_pe);
    else if (code != 0)
        fprintf(stderr, "mpishmem: PE %d exited without calling shmem_finalize "
                        "(exit status %d)\n", mpishmem_rt.my_pe, code);
    else
        fprintf(stderr, "mpishmem: PE %d exited without calling shmem_finalize "
                        "while other PEs still ran (waited %.0f s for them to exit)\n",
                mpishmem_rt.my_pe, EXIT_WAIT_SECONDS);
    fflush(stderr);
    if (mpi_usable) {
        struct timespec pause = {0, 100000000}; /* let the launcher forward stderr */
        nanosleep(&pause, NULL);
        MPI_Abort(MPI_COMM_WORLD, code != 0 ? code : 1);
    }
    _exit(code != 0 ? code : 1);
}

#ifdef __GLIBC__
static void check_finalized_at_exit(int status, void *unused)
{
    (void)unused;
    check_finalized_at_exit_status(status, 1);
}
#else
static void check_finalized_at_exit(void)
{
    check_finalized_at_exit_status(0, 0);
}
#endif

/* MPI's text for an error code: messages never show a bare number. */
typedef struct { char s[MPI_MAX_ERROR_STRING]; } mpi_text_t;
static mpi_text_t mpi_text(int rc)
{
    mpi_text_t t;
    int len = 0;
    if (MPI_Error_string(rc, t.s, &len) != MPI_SUCCESS)
        snprintf(t.s, sizeof t.s, "unknown MPI error");
    return t;
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
    if (job_on_one_machine && mpishmem_rt.node_size < mpishmem_rt.n_pes)
        over = mpishmem_rt.n_pes > mpishmem_node_cores(mpishmem_rt.world);
    mpishmem_rt.yield = set->yield >= 0 ? set->yield : over;
    mpishmem_rt.wait_by_request = mpishmem_rt.yield && MPISHMEM_RMA_NEEDS_TARGET;
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
        mpishmem_rt.ctx_lanes = 0;
}

/* The progress thread (docs/progress.md).  Unset, it runs only where it
 * helps and takes no core from a PE: other PEs reach this one through MPI
 * RMA (MPISHMEM_SHM=0, or PEs on other nodes), and the node has a core for
 * every PE and every thread.  It needs MPI_THREAD_MULTIPLE, which MPICH
 * makes 1-12% slower per call (bench/thread_cost.sh); the SHMEM level the
 * user gets is unchanged. */
static void plan_progress(const mpishmem_settings_t *set, int mpi_provided, int cores)
{
    int want = set->progress_thread;
    if (want < 0) {
        int by_mpi = mpishmem_rt.n_pes > 1 &&
                     !(mpishmem_segments.heap->amo_cpu && mpishmem_globals_segment.amo_cpu);
        want = by_mpi && cores >= 2 * mpishmem_rt.node_size;
    }
    if (want && mpi_provided < MPI_THREAD_MULTIPLE) {
        if (set->progress_thread == 1 && mpishmem_rt.my_pe == 0)
            fprintf(stderr, "mpishmem: shmem_init: MPISHMEM_PROGRESS_THREAD=1 needs "
                            "MPI_THREAD_MULTIPLE, but MPI was started with less (the program "
                            "called MPI_Init or MPI_Init_thread first); continuing without "
                            "the progress thread\n");
        want = 0;
    }
    int rc = mpishmem_progress_thread_start(mpishmem_rt.world, want);
    if (rc != 0 && set->progress_thread == 1)
        mpishmem_fatal("shmem_init", "MPISHMEM_PROGRESS_THREAD=1: cannot start the progress "
                       "thread: %s", strerror(rc));
}

/* AMOs as requests (mpi_backend/amo_am.c) for the heap and global data
 * where they need MPI (other nodes, or MPISHMEM_SHM=0).  Unset, only on an
 * MPI whose atomics cost more than a message exchange (MPICH) and while
 * every PE has the progress thread, which answers requests while its PE
 * computes or sits in an MPI call of the program's own; without it a
 * program that blocks in MPI while a peer waits for an AMO would hang.
 * The route must be the same on every PE: one agreement. */
static void plan_amo_route(const mpishmem_settings_t *set)
{
    mpishmem_segment_t *heap = mpishmem_segments.heap, *globals = &mpishmem_globals_segment;
    int need = mpishmem_rt.n_pes > 1 && !(heap->amo_cpu && globals->amo_cpu);
    int thread = mpishmem_progress_thread_running();
    int want = set->amo_am >= 0 ? set->amo_am : MPISHMEM_RMA_NEEDS_TARGET && thread;
    int mine = want && need, all = 0;
    mpishmem_allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, mpishmem_rt.world);
    if (!all)
        return;
    int rc = mpishmem_amo_am_start(mpishmem_rt.world);
    if (rc != MPI_SUCCESS)
        mpishmem_fatal("shmem_init", "cannot set up AMO requests: %s", mpi_text(rc).s);
    if ((!heap->amo_cpu && mpishmem_amo_am_enable(heap) != 0) ||
        (!globals->amo_cpu && mpishmem_amo_am_enable(globals) != 0))
        mpishmem_fatal("shmem_init", "cannot set up AMO requests: segment table full");
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

    int up = 0, mpi_provided = MPI_THREAD_SINGLE;
    MPI_Initialized(&up);
    if (!up) {
        mpishmem_quirks_before_mpi_init(); /* only MPI that we start ourselves */
        /* A progress thread needs MPI_THREAD_MULTIPLE from MPI; the user's
         * SHMEM level stays `requested`. */
        int progress = mpishmem_peek_progress_thread();
        if (progress < 0)
            progress = mpishmem_progress_thread_may_fit();
        int mpi_level = progress ? MPI_THREAD_MULTIPLE : thread_levels_mpi[requested];
        /* A GPU-aware MPI binds to the device current when it starts. */
        mpishmem_devices_before_mpi(mpishmem_peek_gpu_wanted());
        if (MPI_Init_thread(NULL, NULL, mpi_level, &mpi_provided) !=
            MPI_SUCCESS)
            mpishmem_fatal("shmem_init", "MPI_Init_thread failed");
        mpishmem_devices_after_mpi();
        mpishmem_rt.we_initialized_mpi = 1;
    } else {
        MPISHMEM_MPI(MPI_Query_thread(&mpi_provided));
    }
    int level = shmem_level_of_mpi(mpi_provided);
    mpishmem_rt.thread_level = level < requested ? level : requested;

    /* Until plan_waiting knows, wait as the launcher's placement suggests:
     * the set-up collectives below are much faster yielding when PEs
     * outnumber cores (mpi_backend/progress.h). */
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

    mpishmem_settings_t set;
    mpishmem_read_settings(&set);
    mpishmem_agree_settings(&set);
    mpishmem_rt.debug = set.debug;
    mpishmem_rt.shm_enabled = set.shm;
    mpishmem_rt.ctx_lanes = set.ctx_lanes;

    map_node();
    int over = 0, cores = plan_waiting(&set, &over);
    plan_lanes(over);

    /* Devices, enabled spaces, the default space and so the heap's size. */
    mpishmem_spaces_plan(&set.spaces, set.heap_size_set, &set.heap_size, &set.heap_size_var,
                         &set.heap_size_text);
    check_heap_fits(&set);
    int rc = mpishmem_heap_create(&mpishmem_default_heap, "symmetric heap", set.heap_size);
    if (rc != MPI_SUCCESS)
        mpishmem_fatal("shmem_init", "cannot create the symmetric heap of %zu bytes "
                       "(%s=%s): %s%s", set.heap_size, set.heap_size_var,
                       mpishmem_env_shown(set.heap_size_text), mpi_text(rc).s, advice());
    mpishmem_segments.heap = &mpishmem_default_heap.seg;
    rc = mpishmem_globals_create();
    if (rc != MPI_SUCCESS)
        mpishmem_fatal("shmem_init", "cannot expose global variables for RMA: %s%s",
                       mpi_text(rc).s, advice());
    rc = mpishmem_teams_init();
    if (rc != MPI_SUCCESS)
        mpishmem_fatal("shmem_init", "cannot create the predefined teams: %s%s",
                       mpi_text(rc).s, advice());
    rc = mpishmem_spaces_init();
    if (rc != MPI_SUCCESS)
        mpishmem_fatal("shmem_init", "cannot create the predefined memory spaces: %s%s",
                       mpi_text(rc).s, advice());

    mpishmem_trace_init();
    plan_progress(&set, mpi_provided, cores);
    plan_amo_route(&set);

    mpishmem_rt.state = MPISHMEM_RUNNING;
    static int exit_check_registered;
    if (!exit_check_registered++) {
#ifdef __GLIBC__
        on_exit(check_finalized_at_exit, NULL);
#else
        atexit(check_finalized_at_exit);
#endif
    }
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
    exit_intended = 1;
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
