/*
 * mpishmem: a PE that leaves while the library runs (init_internal.h).
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

/* shmem_finalize, handed over by shmem_init: called by name from here it
 * would make init.c and this file call each other. */
static void (*finalize_at_exit)(void);

/* Set when the program leaves through shmem_global_exit or start_pes's
 * automatic finalize: exiting while running is then intended. */
static int exit_intended;

void mpishmem_exit_intended(void)
{
    exit_intended = 1;
}

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
        finalize_at_exit();
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

void mpishmem_exit_check_register(void (*finalize)(void))
{
    static int registered;
    finalize_at_exit = finalize;
    if (registered++)
        return;
#ifdef __GLIBC__
    on_exit(check_finalized_at_exit, NULL);
#else
    atexit(check_finalized_at_exit);
#endif
}
