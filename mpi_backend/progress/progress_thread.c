/*
 * mpishmem: the progress thread (progress_thread.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "progress_thread.h"
#include "request_service.h"
#include "progress.h"
#include "launcher_env.h"
#include "error.h"

/* Time between two polls.  A peer's blocking get or fetch_add on a
 * computing PE waits up to this long (plus the poll) for the target side;
 * a shorter nap costs the computing PE more wake-ups (docs/progress.md). */
#ifndef POLL_INTERVAL_NS
#define POLL_INTERVAL_NS 20000L
#endif
/* The nap while the PE is inside MPI itself: it then needs no help, and a
 * PE that starts computing waits at most this long for the first probe. */
#ifndef ACTIVE_NAP_NS
#define ACTIVE_NAP_NS 1000000L
#endif
/* Without a spare core the thread shares its PE's core, and each wake-up
 * costs the PE a switch and a probe.  For SLEEPING_RECENT_NS after the PE
 * last entered MPI it naps SLEEPING_NAP_NS: a PE that has just put, or
 * fenced, and now polls its memory with plain loads (a conveyor) is
 * served at every step of its exchange within that nap.  A PE that stays
 * out of MPI longer is computing: the thread naps SLEEPING_LONG_NAP_NS,
 * so a long computation pays about a wake-up per millisecond.  2 PEs on
 * 2 cores, MPICH, MPISHMEM_SHM=0, machine load 12 (bench/progress_cost,
 * the CPU the thread takes while its PE sleeps): 5.7-9.0% of a core
 * napping 250 us, 2.7-4.9% at 500 us, 1.5-2.7% at 1 ms
 * (docs/progress.md). */
#ifndef SLEEPING_NAP_NS
#define SLEEPING_NAP_NS 250000L
#endif
#ifndef SLEEPING_LONG_NAP_NS
#define SLEEPING_LONG_NAP_NS 1000000L
#endif
#ifndef SLEEPING_RECENT_NS
#define SLEEPING_RECENT_NS 20000000L
#endif

static pthread_t thread;
static int running; /* enum mpishmem_progress_mode */
static atomic_int stop_flag;
/* Its own duplicate of the world: nothing is ever sent on it, so the
 * probe never matches and never takes a message meant for the library or
 * the program; it only runs MPI's progress engine.  Not a duplicate of
 * MPI_COMM_SELF: MPICH 4.0 answers a probe there without polling the
 * network, and RMA stalls as if there were no thread (measured). */
static MPI_Comm comm = MPI_COMM_NULL;
/* A receive on comm that nothing matches, tested at each poll: MPI_Test
 * on a pending request runs MPI's whole progress engine on both MPIs,
 * while Open MPI's UCX messaging layer runs it in only one MPI_Iprobe in
 * 100 (progress.c says more).  Posted when the thread starts, cancelled
 * when it stops. */
static MPI_Request idle_recv = MPI_REQUEST_NULL;

/* Polls only while its PE stays out of MPI: a PE that entered MPI during
 * the last nap (the data path and every wait note it,
 * mpishmem_note_mpi_activity) drives MPI's progress itself, and a probe
 * then would only contend with it for MPI's lock.  That contention doubled
 * MPI-path latencies between nodes (docs/progress.md). */
static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The next nap: with a spare core, short while the PE stays out of MPI
 * and long while it drives MPI itself (every wake-up takes a core from
 * some PE when the node has none to spare); sharing the PE's core, by how
 * long ago the PE last entered MPI (above). */
static long nap_ns(int active, long long out_of_mpi_ns)
{
    if (running == MPISHMEM_PROGRESS_SPARE_CORE)
        return active ? ACTIVE_NAP_NS : POLL_INTERVAL_NS;
    return active || out_of_mpi_ns < SLEEPING_RECENT_NS ? SLEEPING_NAP_NS
                                                        : SLEEPING_LONG_NAP_NS;
}

static void *poll_mpi(void *arg)
{
    (void)arg;
    unsigned long seen = __atomic_load_n(&mpishmem_mpi_activity, __ATOMIC_RELAXED);
    int active = 0;
    long long last_active = now_ns(), t = last_active;
    while (!atomic_load_explicit(&stop_flag, memory_order_acquire)) {
        struct timespec nap = {0, nap_ns(active, t - last_active)};
        nanosleep(&nap, NULL);
        unsigned long now = __atomic_load_n(&mpishmem_mpi_activity, __ATOMIC_RELAXED);
        active = now != seen || __atomic_load_n(&mpishmem_mpi_blocked, __ATOMIC_RELAXED) > 0;
        seen = now;
        t = now_ns();
        if (active) {
            last_active = t;
            continue;
        }
        int flag;
        MPISHMEM_MPI(MPI_Test(&idle_recv, &flag, MPI_STATUS_IGNORE));
        /* Peers' AMO requests (amo_am.c) wait for this while the PE computes
         * or sits in an MPI call of its own: the kinds of request that allow
         * it (request_service.h). */
        if (mpishmem_serving())
            mpishmem_requests_serve_from_thread();
    }
    return NULL;
}

static void cancel_idle_recv(void)
{
    MPISHMEM_MPI(MPI_Cancel(&idle_recv));
    MPISHMEM_MPI(MPI_Wait(&idle_recv, MPI_STATUS_IGNORE));
}

int mpishmem_progress_thread_may_fit(void)
{
    /* Processes on this node, as the launcher tells them (Hydra, Open MPI,
     * PMI, Slurm). */
    int local = mpishmem_launcher_local_size();
    if (local == 0)
        return 0;
    cpu_set_t mine;
    long cpus = 0;
    if (sched_getaffinity(0, sizeof mine, &mine) == 0)
        cpus = CPU_COUNT(&mine);
    if (cpus <= 0)
        cpus = sysconf(_SC_NPROCESSORS_ONLN);
    /* An upper bound: the exact rule (cores of the node's PEs together,
     * capped by the cgroup quota) is applied once MPI runs. */
    return cpus >= 2L * local;
}

int mpishmem_progress_thread_start(MPI_Comm world, int want, int spare_core)
{
    /* The duplicate is collective: made when any PE wants a thread. */
    int any = 0;
    mpishmem_allreduce(&want, &any, 1, MPI_INT, MPI_MAX, world);
    if (!any || running)
        return 0;
    if (mpishmem_comm_dup(world, &comm) != MPI_SUCCESS)
        return EINVAL;
    if (!want) {
        MPISHMEM_MPI(MPI_Comm_free(&comm));
        return 0;
    }
    atomic_store(&stop_flag, 0);
    /* Signals go to the program's threads, not to this one: start it with
     * every signal blocked (it inherits the mask), then restore ours. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    MPISHMEM_MPI(MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, 0, comm, &idle_recv));
    /* Set before the thread reads it. */
    running = spare_core ? MPISHMEM_PROGRESS_SPARE_CORE : MPISHMEM_PROGRESS_SLEEPING;
    int rc = pthread_create(&thread, NULL, poll_mpi, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        running = MPISHMEM_PROGRESS_OFF;
        cancel_idle_recv();
        MPISHMEM_MPI(MPI_Comm_free(&comm));
        return rc;
    }
    return 0;
}

void mpishmem_progress_thread_stop(void)
{
    if (!running)
        return;
    atomic_store_explicit(&stop_flag, 1, memory_order_release);
    pthread_join(thread, NULL);
    running = 0;
    cancel_idle_recv();
    MPISHMEM_MPI(MPI_Comm_free(&comm));
}

int mpishmem_progress_thread_running(void)
{
    return running;
}
