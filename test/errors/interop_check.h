/* A failed check prints where and why, and is counted; the program decides
 * at the end how to report the count (MPI may or may not be usable then). */
#ifndef MPISHMEM_TEST_INTEROP_CHECK_H
#define MPISHMEM_TEST_INTEROP_CHECK_H

#include <stdio.h>

static int interop_failures;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);       \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
            interop_failures++;                                                            \
        }                                                                                  \
    } while (0)

#endif
