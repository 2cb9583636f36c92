/*
 * Test harness: the misuse programs run one mistake per launch, named by
 * their only argument (the calling script checks message and status).
 */
#ifndef MPISHMEM_TEST_MISUSE_CASE_H
#define MPISHMEM_TEST_MISUSE_CASE_H

#include <stdio.h>
#include <stdlib.h>

/* The case name, or exit status 2 with a usage line. */
static inline const char *misuse_case(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CASE\n", argv[0]);
        exit(2);
    }
    return argv[1];
}

#endif
