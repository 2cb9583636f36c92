/*
 * Checks that record a failure and carry on.
 *
 * A Check assertion leaves the test at once; in a test where PEs
 * communicate, that PE then skips the barriers, frees and handshakes the
 * others wait in, and the job hangs without a report.  CHK records the
 * first failure (with the context in `check_where`) and continues; the test
 * calls CHK_DONE() after its last collective to turn the record into a
 * Check failure.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_TEST_SOFT_CHECK_H
#define MPISHMEM_TEST_SOFT_CHECK_H

#include <check.h>
#include <stdio.h>
#include <shmem.h>

static char check_where[192];
static int check_failures;
static char check_first[448];

static void check_fail(int line, const char *what)
{
    if (check_failures++ == 0)
        snprintf(check_first, sizeof check_first, "line %d: %s: %s", line, check_where,
                 what);
}

#define WHERE(...) snprintf(check_where, sizeof check_where, __VA_ARGS__)
#define CHK(cond)                                                                         \
    do {                                                                                  \
        if (!(cond))                                                                      \
            check_fail(__LINE__, #cond);                                                  \
    } while (0)
#define CHK_DONE()                                                                        \
    do {                                                                                  \
        int n_ = check_failures;                                                          \
        check_failures = 0;                                                               \
        /* Now, too: a later test that hangs would hide Check's report. */                \
        if (n_ != 0)                                                                      \
            fprintf(stderr, "PE %d: %s:%d: %d failed check(s); first at %s\n",            \
                    shmem_my_pe(), __FILE__, __LINE__, n_, check_first);                  \
        ck_assert_msg(n_ == 0, "%d failed check(s); first at %s", n_, check_first);       \
    } while (0)

#endif
