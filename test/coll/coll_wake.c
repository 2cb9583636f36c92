/*
 * coll_wake: when PEs outnumber cores, a PE waiting in the node barrier
 * sleeps on its flag (a futex, mpi_backend/progress/progress.c), and the PE that
 * raises the flag must wake it: the sleep's timeout is only a backstop.
 *
 * The test lengthens the timeout to 0.2 s (a test hook) and runs ROUNDS
 * barriers in which PE 0 arrives late (a short nap), so the others are
 * asleep when their flags go up.  It counts, inside each process, the
 * sleeps that ended woken and those that timed out: with the wake, next to
 * none time out; without it, each sleep lasts until its timeout.  Run with
 * MPISHMEM_YIELD=1.  When the barrier is not on flags (MPISHMEM_SHM=0,
 * two pretend nodes, MPISHMEM_BARRIER=mpi) nobody sleeps, and only that is
 * checked.  The program tells the library that such waits sleep, which it
 * otherwise decides from the PEs' scheduling groups and its yields
 * (progress.c).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <shmem.h>

extern unsigned long mpishmem_wait_sleeps[2]; /* woken, timed out (test hook) */
extern long mpishmem_wait_sleep_ns;           /* the sleep's timeout (test hook) */
extern int mpishmem_wait_force_sleep;         /* waits on flags sleep (test hook) */

#define ROUNDS 100

int main(void)
{
    static long counts[2], sums[2];
    /* Waits sleep only where yields hand the core to nobody (PEs in
     * scheduling groups of their own): make them sleep whatever the
     * machine does. */
    mpishmem_wait_force_sleep = 1;
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    mpishmem_wait_sleep_ns = 200000000L;
    shmem_barrier_all();
    unsigned long woken0 = mpishmem_wait_sleeps[0], timed0 = mpishmem_wait_sleeps[1];
    for (int i = 0; i < ROUNDS; i++) {
        if (me == i % n) {
            struct timespec nap = {0, 50000};
            nanosleep(&nap, NULL);
        }
        shmem_barrier_all();
    }
    counts[0] = (long)(mpishmem_wait_sleeps[0] - woken0);
    counts[1] = (long)(mpishmem_wait_sleeps[1] - timed0);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, sums, counts, 2);
    const char *shm = getenv("MPISHMEM_SHM"), *bar = getenv("MPISHMEM_BARRIER");
    int on_flags = n > 1 && shmem_team_n_pes(SHMEM_TEAM_SHARED) == n &&
                   !(shm != NULL && strcmp(shm, "0") == 0) && !(bar != NULL && strcmp(bar, "mpi") == 0);
    int bad = 0;
    if (me == 0) {
        printf("coll_wake: %d PEs, %d barriers: %ld sleeps woken, %ld timed out%s\n", n, ROUNDS,
               sums[0], sums[1], on_flags ? "" : " (barrier not on flags)");
        /* A PE that is late wakes n - 1 sleepers per round, give or take. */
        if (on_flags && sums[0] + sums[1] < ROUNDS / 2)
            bad = printf("FAIL: the waits did not sleep: is the barrier on flags, yield on?\n");
        if (sums[1] * 20 > sums[0] + sums[1])
            bad = printf("FAIL: more than 1 sleep in 20 timed out: wake-ups are lost\n");
    }
    shmem_finalize();
    return bad ? 1 : 0;
}
