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

#endif
