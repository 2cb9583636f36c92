/*
 * A program that waits for a value by calling shmem_atomic_fetch on its
 * own memory in a loop (bale's exstack2) is polling: each fetch that
 * returns what the previous fetch of that word returned must take a step
 * of the library's waiting rule, which polls MPI (and, when PEs outnumber
 * cores, gives the core away) as wait_until does.  Without it, on the
 * CPU-atomic path such a loop never entered MPI nor yielded, and at 4 PEs
 * on 2 cores on Open MPI sssp took 30-70x longer than on MPICH.
 *
 * Timing cannot tell this apart on a shared machine, so the test counts,
 * per thread, the calls the library makes to MPI_Test and MPI_Iprobe (its
 * polls of MPI's engine) and to sched_yield, interposed here:
 *   - REPEATS fetches of an unchanging word on this PE: with a core per PE
 *     a word wait polls MPI every 16th step; oversubscribed (run with
 *     MPISHMEM_YIELD=1) on every 1st-4th and yields on nearly every step.
 *     Required: polls >= REPEATS / 32, and yields >= REPEATS / 2 when
 *     yielding.  Before, on the CPU path: no poll, no yield.
 *   - REPEATS fetches that each return a new value (an atomic add between
 *     them): these are no wait.  On the CPU path they must neither poll
 *     nor yield.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "amo_common.h"

#define REPEATS 4096

static long word, moving;

static __thread unsigned long polls, yields;

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    polls++;
    return PMPI_Iprobe(source, tag, comm, flag, status);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    polls++;
    return PMPI_Test(request, flag, status);
}

int sched_yield(void)
{
    yields++;
    return (int)syscall(SYS_sched_yield);
}

static int env_is(const char *name, const char *value)
{
    const char *v = getenv(name);
    return v != NULL && strcmp(v, value) == 0;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), bad = 0;
    int yielding = env_is("MPISHMEM_YIELD", "1");
    /* CPU atomics: every PE on this node and shared memory on. */
    int cpu_path = shmem_team_n_pes(SHMEM_TEAM_SHARED) == n && !env_is("MPISHMEM_SHM", "0") &&
                   !env_is("MPISHMEM_AMO_AM", "1");
    shmem_barrier_all();

    unsigned long p0 = polls, y0 = yields;
    long sum = 0;
    for (int i = 0; i < REPEATS; i++)
        sum += shmem_long_atomic_fetch(&word, me);
    unsigned long rep_polls = polls - p0, rep_yields = yields - y0;
    if (sum != 0)
        bad = printf("FAIL: PE %d: the unchanging word read %ld in all\n", me, sum);
    if (rep_polls < REPEATS / 32)
        bad = printf("FAIL: PE %d: %d fetches of an unchanging word polled MPI %lu times "
                     "(a wait polls every 16th step or more often)\n", me, REPEATS, rep_polls);
    if (yielding && rep_yields < REPEATS / 2)
        bad = printf("FAIL: PE %d: %d fetches of an unchanging word yielded %lu times, "
                     "PEs outnumbering cores\n", me, REPEATS, rep_yields);

    p0 = polls;
    y0 = yields;
    for (long i = 0; i < REPEATS; i++) {
        shmem_long_atomic_add(&moving, 1, me);
        if (shmem_long_atomic_fetch(&moving, me) != i + 1)
            bad = printf("FAIL: PE %d: the counter skipped at %ld\n", me, i + 1);
    }
    unsigned long new_polls = polls - p0, new_yields = yields - y0;
    if (cpu_path && new_polls + new_yields != 0)
        bad = printf("FAIL: PE %d: fetches that each returned a new value polled %lu and "
                     "yielded %lu times\n", me, new_polls, new_yields);
    if (me == 0)
        printf("amo_poll_fetch: %d PEs%s%s: unchanging word %lu polls, %lu yields; "
               "new values %lu polls, %lu yields (PE 0, %d fetches each)\n",
               n, yielding ? ", yielding" : "", cpu_path ? ", CPU atomics" : ", MPI atomics",
               rep_polls, rep_yields, new_polls, new_yields, REPEATS);
    shmem_barrier_all();
    shmem_finalize();
    return bad ? 1 : 0;
}
