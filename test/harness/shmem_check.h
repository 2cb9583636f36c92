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
#include <string.h>
#include <shmem.h>

/* The context the suites pass to shmem_ctx_* routines: SHMEM_CTX_DEFAULT,
 * or with MPISHMEM_TEST_CTX=created|private|team a context made for the run
 * (team: from a team equal to the world, so PE numbers go through the team
 * translation path).  check_quiet/check_fence complete both it and the
 * default context, which the suites' plain routines use. */
static shmem_ctx_t shmem_check_ctx;
static shmem_team_t shmem_check_team = SHMEM_TEAM_INVALID;

static inline void shmem_check_ctx_setup(void)
{
    const char *m = getenv("MPISHMEM_TEST_CTX");
    shmem_check_ctx = SHMEM_CTX_DEFAULT;
    int rc = 0;
    if (m == NULL || !strcmp(m, "default"))
        return;
    if (!strcmp(m, "created"))
        rc = shmem_ctx_create(SHMEM_CTX_SERIALIZED, &shmem_check_ctx);
    else if (!strcmp(m, "private"))
        rc = shmem_ctx_create(SHMEM_CTX_PRIVATE, &shmem_check_ctx);
    else if (!strcmp(m, "team")) {
        rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0,
                                      &shmem_check_team);
        if (rc == 0)
            rc = shmem_team_create_ctx(shmem_check_team, 0, &shmem_check_ctx);
    } else
        rc = -1;
    if (rc != 0) {
        fprintf(stderr, "MPISHMEM_TEST_CTX=%s: cannot make the context\n", m);
        exit(EXIT_FAILURE);
    }
}

static inline void shmem_check_ctx_teardown(void)
{
    if (shmem_check_ctx != SHMEM_CTX_DEFAULT && shmem_check_team == SHMEM_TEAM_INVALID)
        shmem_ctx_destroy(shmem_check_ctx);
    if (shmem_check_team != SHMEM_TEAM_INVALID)
        shmem_team_destroy(shmem_check_team); /* destroys its context too */
}

static inline void check_quiet(void)
{
    shmem_quiet();
    if (shmem_check_ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_quiet(shmem_check_ctx);
}

static inline void check_fence(void)
{
    shmem_fence();
    if (shmem_check_ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_fence(shmem_check_ctx);
}

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

/* After shmem_init (or shmem_init_thread): runs the suite in the checked
 * context, finalizes, and returns main's exit status. */
static inline int shmem_check_main(Suite *suite)
{
    shmem_check_ctx_setup();
    int failures = shmem_check_run(suite);
    shmem_check_ctx_teardown();
    shmem_finalize();
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}

#define SHMEM_CHECK_MAIN(make_suite)                                                       \
    int main(void)                                                                         \
    {                                                                                      \
        shmem_init();                                                                      \
        return shmem_check_main(make_suite());                                             \
    }

#endif
