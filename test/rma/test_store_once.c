/*
 * rma_store_once: a put's update is complete when a waiter sees it.
 *
 * glibc's memcpy stores overlapping head and tail words, so an 8-byte copy
 * stores the same 8 bytes twice.  If a put on the load/store route used it,
 * a PE waiting on the element could see the first store, return, write the
 * element itself, and then see the put's second store bring the old value
 * back (the guarded sync_p2p saw it on Open MPI when the putting PE was
 * preempted between the two stores).  OpenSHMEM requires that a wait or
 * test not return before the update of ivar is fully complete.
 *
 * Deterministic here: the program's memcpy (which the library's calls bind
 * to) stores, pauses 50 ms, and stores again whenever its destination is
 * the watched element's address as this PE maps it on PE 1 (shmem_ptr).
 * PE 1 waits for the put, writes its own value, and checks it is still
 * there 100 ms later.  Globals and heap; put and p.  2 PEs on one node
 * with MPISHMEM_SHM on (otherwise nothing is mapped and the test passes).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <shmem.h>

static void *volatile watched; /* PE 1's element as this PE maps it */

void *memcpy(void *restrict d, const void *restrict s, size_t n)
{
    volatile char *dv = d;
    const char *sv = s;
    for (size_t i = 0; i < n; i++)
        dv[i] = sv[i];
    if (d != NULL && d == watched) {
        struct timespec t = {0, 50 * 1000 * 1000};
        nanosleep(&t, NULL);
        for (size_t i = 0; i < n; i++) /* glibc's tail store, late */
            dv[i] = sv[i];
    }
    return d;
}

static long glob;

static int round_on(long *x, int use_p)
{
    int me = shmem_my_pe(), bad = 0;
    *x = 0;
    shmem_barrier_all();
    if (me == 0) {
        watched = shmem_ptr(x, 1);
        long v = 8;
        if (use_p)
            shmem_long_p(x, v, 1);
        else
            shmem_long_put(x, &v, 1, 1);
        watched = NULL;
    } else if (me == 1) {
        shmem_long_wait_until(x, SHMEM_CMP_EQ, 8);
        *x = 10; /* the waiter's own write, after the put's update */
        struct timespec t = {0, 100 * 1000 * 1000};
        nanosleep(&t, NULL);
        if (*x != 10) {
            fprintf(stderr, "PE 1: %s on %s: the element is %ld after the waiter wrote 10: "
                    "the put stored again after the wait returned\n",
                    use_p ? "shmem_long_p" : "shmem_long_put",
                    x == &glob ? "a global" : "the heap", *x);
            bad = 1;
        }
    }
    shmem_barrier_all();
    return bad;
}

int main(void)
{
    shmem_init();
    long *heap = shmem_malloc(sizeof(long));
    int bad = 0;
    if (shmem_n_pes() >= 2)
        for (int use_p = 0; use_p < 2; use_p++)
            bad += round_on(&glob, use_p) + round_on(heap, use_p);
    shmem_free(heap);
    shmem_finalize();
    return bad != 0;
}
