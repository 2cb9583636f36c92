/*
 * ctx_lock_threads: THREADS threads per PE under SHMEM_THREAD_MULTIPLE take
 * and release one OpenSHMEM lock.  The threads of a PE are serialised by a
 * local ticket lock around shmem_set_lock / shmem_test_lock /
 * shmem_clear_lock (a PE is one lock client), and inside the critical
 * section increment a global on PE 0 with shmem_long_g + shmem_long_p (a
 * global of another PE: always MPI RMA).  Every PE polls with
 * shmem_test_lock half the time.  This hung with the load/store path on:
 * PE 1 waited inside MPI for PE 0's progress while every thread of PE 0
 * spun in shmem_test_lock on CPU atomics, never entering MPI.  The count
 * must be exact; alarm() turns a hang into a failure.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <shmem.h>
#include "init_multiple.h"

#define THREADS 4
#define ROUNDS 60

static long counter;        /* global: MPI path even with shm on */
static long *lock;          /* heap: CPU atomics with shm on */
static unsigned long next_ticket, now_serving;

static void ticket_acquire(void)
{
    unsigned long t = __atomic_fetch_add(&next_ticket, 1, __ATOMIC_RELAXED);
    while (__atomic_load_n(&now_serving, __ATOMIC_ACQUIRE) != t)
        sched_yield(); /* the holder may need this core (oversubscribed runs) */
}

static void ticket_release(void)
{
    __atomic_store_n(&now_serving, __atomic_load_n(&now_serving, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELEASE);
}

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int r = 0; r < ROUNDS; r++) {
        ticket_acquire();
        if ((r + id) % 2)
            shmem_set_lock(lock);
        else
            while (shmem_test_lock(lock))
                ;
        long v = shmem_long_g(&counter, 0);
        shmem_long_p(&counter, v + 1, 0);
        shmem_clear_lock(lock);
        ticket_release();
    }
    return NULL;
}

int main(void)
{
    shmem_check_init_multiple();
    alarm(150);
    lock = shmem_calloc(1, sizeof *lock);
    shmem_barrier_all();
    pthread_t th[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, worker, (void *)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    shmem_barrier_all();
    int me = shmem_my_pe(), npes = shmem_n_pes(), rc = EXIT_SUCCESS;
    if (me == 0) {
        long want = (long)npes * THREADS * ROUNDS;
        if (counter != want) {
            fprintf(stderr, "ctx_lock_threads: counter %ld, want %ld\n", counter, want);
            rc = EXIT_FAILURE;
        } else {
            printf("ctx_lock_threads: ok (%ld increments)\n", want);
        }
    }
    shmem_free(lock);
    shmem_finalize();
    return rc;
}
