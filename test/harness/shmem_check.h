/*
 * mpishmem tests: running a Check suite on every PE of an MPI job.
 *
 * Check normally forks each test; an MPI process must not fork, so suites
 * run in CK_NOFORK mode.  Every PE runs the same tests in the same order
 * (tests may call collectives).  PE 0 prints Check's report; another PE
 * prints only its failures.  The job fails if any PE had a failure.
 *
 * Usage:
 *   static Suite *make_suite(void) { ... }
 *   SHMEM_CHECK_MAIN(make_suite)
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_TEST_SHMEM_CHECK_H
#define MPISHMEM_TEST_SHMEM_CHECK_H

#include <check.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <shmem.h>

/* Runs the suite and returns the number of failures summed over all PEs.
 * Call between shmem_init and shmem_finalize. */
static inline int shmem_check_run(Suite *suite)
{
    int me = shmem_my_pe();
    SRunner *sr = srunner_create(suite);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, me == 0 ? CK_NORMAL : CK_SILENT);
    int failed = srunner_ntests_failed(sr);
    if (me != 0 && failed > 0) {
        TestResult **r = srunner_failures(sr);
        for (int i = 0; i < failed; i++)
            fprintf(stderr, "PE %d: %s:%d:%s: %s\n", me, tr_lfile(r[i]), tr_lno(r[i]),
                    tr_tcname(r[i]), tr_msg(r[i]));
        free(r);
    }
    srunner_free(sr);
    int total = 0;
    MPI_Allreduce(&failed, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && total > 0)
        fprintf(stderr, "%d test failure(s) summed over %d PEs\n", total, shmem_n_pes());
    return total;
}

#define SHMEM_CHECK_MAIN(make_suite)                                                       \
    int main(void)                                                                         \
    {                                                                                      \
        shmem_init();                                                                      \
        int failures = shmem_check_run(make_suite());                                      \
        shmem_finalize();                                                                  \
        return failures ? EXIT_FAILURE : EXIT_SUCCESS;                                     \
    }

#endif
