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
/* Without a spare core the thread shares its PE's core: it naps this long
 * whatever the PE does, and each wake-up costs the PE a few microseconds
 * (a switch and a probe).  A receiver that polls its memory with plain
 * loads, or a PE that computes, is served once a nap: each MPI protocol
 * step aimed at it waits up to this long.  docs/progress.md has the
 * measurements: the computing PE's cost and a conveyor's round. */
#ifndef SLEEPING_NAP_NS
#define SLEEPING_NAP_NS 250000L
#endif

static pthread_t thread;
static int running; /* enum mpishmem_progress_mode */
static long idle_nap_ns = POLL_INTERVAL_NS, active_nap_ns = ACTIVE_NAP_NS;
static atomic_int stop_flag;
/* Its own duplicate of the world: nothing is ever sent on it, so the
 * probe never matches and never takes a message meant for the library or
 * the program; it only runs MPI's progress engine.  Not a duplicate of
 * MPI_COMM_SELF: MPICH 4.0 answers a probe there without polling the
 * network, and RMA stalls as if there were no thread (measured). */
static MPI_Comm comm = MPI_COMM_NULL;

/* Polls only while its PE stays out of MPI: a PE that entered MPI during
 * the last nap (the data path and every wait note it,
 * mpishmem_note_mpi_activity) drives MPI's progress itself, and a probe
 * then would only contend with it for MPI's lock.  That contention doubled
 * MPI-path latencies between nodes (docs/progress.md). */
static void *poll_mpi(void *arg)
{
    (void)arg;
    struct timespec poll_nap = {0, idle_nap_ns}, idle_nap = {0, active_nap_ns};
    unsigned long seen = __atomic_load_n(&mpishmem_mpi_activity, __ATOMIC_RELAXED);
    int active = 0;
    while (!atomic_load_explicit(&stop_flag, memory_order_acquire)) {
        /* While the PE keeps entering MPI, wake seldom: every wake-up takes
         * a core from some PE when the node has no core to spare. */
        nanosleep(active ? &idle_nap : &poll_nap, NULL);
        unsigned long now = __atomic_load_n(&mpishmem_mpi_activity, __ATOMIC_RELAXED);
        active = now != seen;
        seen = now;
        if (active)
            continue;
        int flag;
        MPISHMEM_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, MPI_STATUS_IGNORE));
        /* Peers' AMO requests (amo_am.c) wait for this while the PE computes
         * or sits in an MPI call of its own: the kinds of request that allow
         * it (request_service.h). */
        if (mpishmem_serving())
            mpishmem_requests_serve_from_thread();
    }
    return NULL;
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
    idle_nap_ns = spare_core ? POLL_INTERVAL_NS : SLEEPING_NAP_NS;
    active_nap_ns = spare_core ? ACTIVE_NAP_NS : SLEEPING_NAP_NS;
    /* Signals go to the program's threads, not to this one: start it with
     * every signal blocked (it inherits the mask), then restore ours. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&thread, NULL, poll_mpi, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        MPISHMEM_MPI(MPI_Comm_free(&comm));
        return rc;
    }
    running = spare_core ? MPISHMEM_PROGRESS_SPARE_CORE : MPISHMEM_PROGRESS_SLEEPING;
    return 0;
}

void mpishmem_progress_thread_stop(void)
{
    if (!running)
        return;
    atomic_store_explicit(&stop_flag, 1, memory_order_release);
    pthread_join(thread, NULL);
    running = 0;
    MPISHMEM_MPI(MPI_Comm_free(&comm));
}

int mpishmem_progress_thread_running(void)
{
    return running;
}
