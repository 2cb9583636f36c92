/*
 * mpishmem: reporting a fatal error and stopping the whole job.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "error.h"

static void stop_job(void) __attribute__((noreturn));

static void stop_job(void)
{
    int mpi_up = 0, mpi_down = 0;
    fflush(stdout);
    fflush(stderr);
    MPI_Initialized(&mpi_up);
    MPI_Finalized(&mpi_down);
    if (mpi_up && !mpi_down) {
        /* MPICH's launcher drops output still in flight when an abort
         * arrives; give the message a moment to reach it. */
        struct timespec pause = {0, 100000000};
        nanosleep(&pause, NULL);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    exit(1);
}

void mpishmem_fatal(const char *routine, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    routine = mpishmem_api_name(routine);
    if (mpishmem_rt.state == MPISHMEM_RUNNING)
        fprintf(stderr, "mpishmem: %s: %s (PE %d)\n", routine, msg, mpishmem_rt.my_pe);
    else
        fprintf(stderr, "mpishmem: %s: %s\n", routine, msg);
    stop_job();
}

void mpishmem_fatal_state(const char *routine)
{
    if (mpishmem_rt.state == MPISHMEM_FINALIZED)
        mpishmem_fatal(routine, "called after shmem_finalize");
    mpishmem_fatal(routine, "called before shmem_init");
}

void mpishmem_fatal_pe(const char *routine, int pe)
{
    if (mpishmem_rt.state != MPISHMEM_RUNNING)
        mpishmem_fatal_state(routine);
    mpishmem_fatal(routine, "PE %d is out of range [0, %d)", pe, mpishmem_rt.n_pes);
}

void mpishmem_fatal_address(const char *routine, const void *addr, size_t len, int pe)
{
    if (mpishmem_rt.state != MPISHMEM_RUNNING)
        mpishmem_fatal_state(routine);
    if (addr == NULL)
        mpishmem_fatal(routine, "symmetric address is NULL (target PE %d)", pe);
    mpishmem_fatal(routine,
                   "address %p (%zu bytes, target PE %d) is not symmetric: it is not "
                   "inside the symmetric heap or the program's global data, or the "
                   "range runs past the end of its segment",
                   addr, len, pe);
}
