/*
 * Test harness: start the library with SHMEM_THREAD_MULTIPLE or stop the
 * test, for the threaded tests that mean nothing at a lower level.
 */
#ifndef MPISHMEM_TEST_INIT_MULTIPLE_H
#define MPISHMEM_TEST_INIT_MULTIPLE_H

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
