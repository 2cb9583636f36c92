/*
 * Test harness: start the library with SHMEM_THREAD_MULTIPLE or stop the
 * test, for the threaded tests that mean nothing at a lower level.
 */
#ifndef MPISHMEM_TEST_INIT_MULTIPLE_H
#define MPISHMEM_TEST_INIT_MULTIPLE_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <shmem.h>

static inline void shmem_check_init_multiple(void)
{
    int provided;
    if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0 ||
        provided != SHMEM_THREAD_MULTIPLE) {
        fprintf(stderr, "SHMEM_THREAD_MULTIPLE not provided\n");
        exit(EXIT_FAILURE);
    }
}

/* Between two barriers of every PE: worker(0) .. worker(n - 1) on n new
 * threads of this PE, joined.  A thread that cannot start stops the test. */
static inline void shmem_check_run_threads(void *(*worker)(void *), int n)
{
    pthread_t th[64];
    if (n > 64) {
        fprintf(stderr, "shmem_check_run_threads: at most 64 threads\n");
        exit(EXIT_FAILURE);
    }
    shmem_barrier_all();
    for (long t = 0; t < n; t++)
        if (pthread_create(&th[t], NULL, worker, (void *)t) != 0) {
            fprintf(stderr, "shmem_check_run_threads: pthread_create failed\n");
            exit(EXIT_FAILURE);
        }
    for (int t = 0; t < n; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
}

/* The whole main of a threaded Check test: one test case, no time limit
 * (threads under load take what they take; the launcher's timeout stays),
 * run under SHMEM_THREAD_MULTIPLE.  Needs <shmem_check.h>. */
#define SHMEM_CHECK_MAIN_MULTIPLE(suite_name, test)                                        \
    int main(void)                                                                         \
    {                                                                                      \
        shmem_check_init_multiple();                                                       \
        Suite *s = suite_create(suite_name);                                               \
        TCase *tc = tcase_create("threads");                                               \
        tcase_set_timeout(tc, 0);                                                          \
        tcase_add_test(tc, test);                                                          \
        suite_add_tcase(s, tc);                                                            \
        int failures = shmem_check_run(s);                                                 \
        shmem_finalize();                                                                  \
        return failures ? EXIT_FAILURE : EXIT_SUCCESS;                                     \
    }

#endif
