/*
 * mpishmem: progress and yielding while polling.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <sched.h>
#include "progress.h"
#include "../lib/runtime.h"

/* Spins before a dedicated core starts yielding too: long enough that a
 * reply from a PE on another core is caught without a system call. */
#define SPINS_BEFORE_YIELD 4096u
/* Polling MPI costs more than reading memory; poll it every few spins. */
#define SPINS_PER_MPI_POLL 16u

void mpishmem_progress_step(unsigned *spins)
{
    unsigned n = ++*spins;
    if (mpishmem_rt.yield || n > SPINS_BEFORE_YIELD) {
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, mpishmem_rt.world, &flag, MPI_STATUS_IGNORE);
        sched_yield();
        return;
    }
    if (n % SPINS_PER_MPI_POLL == 0) {
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, mpishmem_rt.world, &flag, MPI_STATUS_IGNORE);
    }
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

void mpishmem_wait_request(MPI_Request *req)
{
    unsigned spins = 0;
    int done = 0;
    MPI_Test(req, &done, MPI_STATUS_IGNORE);
    while (!done) {
        if (mpishmem_rt.yield || ++spins > SPINS_BEFORE_YIELD)
            sched_yield();
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
    }
}

void mpishmem_barrier_comm(MPI_Comm comm)
{
    MPI_Request req;
    MPI_Ibarrier(comm, &req);
    mpishmem_wait_request(&req);
}
