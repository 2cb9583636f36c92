/*
 * A PE that polls with a test routine and sleeps between calls must still
 * see a put aimed at it (issue 19): every call that returns "not yet"
 * keeps MPI progressing.  Each PE puts a flag into the next PE's memory
 * without a quiet, then polls its own flag with one test routine and
 * usleep(1000) between calls, so between calls neither side is inside
 * the library.  Before, only every 16th failed test entered MPI and, with
 * MPISHMEM_SHM=0 at 4 PEs on MPICH, the flag never arrived in 5 s.
 *
 * The bound (LIMIT_S) is generous: a few milliseconds are typical; the old
 * behaviour never completes.  Covered: shmem_test, test_all/any/some and
 * their vector forms, shmem_signal_fetch polled after put_signal, and
 * shmem_test_lock while the lock's holder polls too.
 *
 * Programs also poll in the other sense, "while nothing has arrived"
 * (`while (shmem_int_test(&v, SHMEM_CMP_EQ, 0)) usleep(1000);`), where
 * every call returns "true" until the put lands: each form again, with
 * the count of polls (every call must poll MPI where other PEs reach this
 * one through MPI RMA) and the median time over the forms (10 ms).
 *
 * Timing alone cannot tell "every call" from "every 16th call" without a
 * tight bound, so the test also interposes on MPI_Test and MPI_Iprobe (a
 * failed test's poll of MPI's progress engine tests a receive that never
 * completes, or probes when another thread holds it) and counts: each
 * failed test call must poll MPI at least once.  The counter is per thread, so a progress
 * thread's own polls do not count.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "shmem_check.h"
#include "soft_check.h"

#define LIMIT_S 2.0   /* pass bound; typical: milliseconds */
#define GIVE_UP_S 5.0 /* stop polling: the old code never saw the put */
#define NAP_US 1000
#define INVERSE_MEDIAN_S 0.010 /* the median over the forms, "still nothing" sense */

enum poll_kind { T_ONE, T_ALL, T_ANY, T_SOME, T_ALL_V, T_ANY_V, T_SOME_V, T_SIGNAL, N_KINDS };
static const char *const kind_name[N_KINDS] = {
    "shmem_int_test", "shmem_int_test_all", "shmem_int_test_any", "shmem_int_test_some",
    "shmem_int_test_all_vector", "shmem_int_test_any_vector", "shmem_int_test_some_vector",
    "shmem_signal_fetch"};

#define NFLAGS 3
static int flags[NFLAGS]; /* global data: the MPI path when MPISHMEM_SHM=0 */
static uint64_t sig;
static int payload;
static long lock;

/* MPI_Test and MPI_Iprobe calls made by this thread (the library links to
 * these). */
static __thread unsigned long iprobes;

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    iprobes++;
    return PMPI_Iprobe(source, tag, comm, flag, status);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    iprobes++;
    return PMPI_Test(request, flag, status);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One poll of this PE's flags with routine `k`: whether the put arrived. */
static int poll_once(enum poll_kind k)
{
    int want[NFLAGS] = {1, 1, 1};
    int status[NFLAGS] = {1, 0, 1}; /* only flags[1] is put */
    size_t idx[NFLAGS];
    switch (k) {
    case T_ONE: return shmem_int_test(&flags[1], SHMEM_CMP_EQ, 1);
    case T_ALL: return shmem_int_test_all(flags, NFLAGS, status, SHMEM_CMP_EQ, 1);
    case T_ANY: return shmem_int_test_any(flags, NFLAGS, NULL, SHMEM_CMP_EQ, 1) == 1;
    case T_SOME: return shmem_int_test_some(flags, NFLAGS, idx, NULL, SHMEM_CMP_EQ, 1) == 1;
    case T_ALL_V: return shmem_int_test_all_vector(flags, NFLAGS, status, SHMEM_CMP_EQ, want);
    case T_ANY_V:
        return shmem_int_test_any_vector(flags, NFLAGS, NULL, SHMEM_CMP_EQ, want) == 1;
    case T_SOME_V:
        return shmem_int_test_some_vector(flags, NFLAGS, idx, NULL, SHMEM_CMP_EQ, want) == 1;
    default: return shmem_signal_fetch(&sig) == 1;
    }
}

static void sleepy_poll(enum poll_kind k)
{
    int me = shmem_my_pe(), next = (me + 1) % shmem_n_pes();
    for (int i = 0; i < NFLAGS; i++)
        flags[i] = 0;
    sig = 0;
    payload = -1;
    shmem_barrier_all();
    double t0 = now_s(), t;
    if (k == T_SIGNAL)
        shmem_int_put_signal(&payload, &me, 1, &sig, 1, SHMEM_SIGNAL_SET, next);
    else
        shmem_int_p(&flags[1], 1, next); /* no quiet: the polls must complete it */
    int seen;
    while (!(seen = poll_once(k)) && (t = now_s() - t0) < GIVE_UP_S)
        usleep(NAP_US);
    t = now_s() - t0;
    WHERE("PE %d polling with %s", me, kind_name[k]);
    CHK(seen);
    CHK(t < LIMIT_S);
    if (k == T_SIGNAL)
        CHK(payload == (me + shmem_n_pes() - 1) % shmem_n_pes());
    else
        CHK(flags[0] == 0 && flags[2] == 0);
    if (!seen || t >= LIMIT_S)
        fprintf(stderr, "PE %d: %s saw the put %s after %.3f s\n", me, kind_name[k],
                seen ? "only" : "not even", t);
    shmem_barrier_all();
    CHK_DONE();
}

/* The other sense: one poll of routine `k` that holds while nothing has
 * arrived (`while (shmem_int_test(&v, SHMEM_CMP_EQ, 0)) usleep(1000);`).
 * A program that polls so gets "true" back until the put lands, so a
 * library that entered MPI only on a failed test never drove it. */
static int still_nothing(enum poll_kind k)
{
    int zero[NFLAGS] = {0, 0, 0};
    int status[NFLAGS] = {1, 0, 1}; /* only flags[1] is put */
    size_t idx[NFLAGS];
    switch (k) {
    case T_ONE: return shmem_int_test(&flags[1], SHMEM_CMP_EQ, 0);
    case T_ALL: return shmem_int_test_all(flags, NFLAGS, status, SHMEM_CMP_EQ, 0);
    case T_ANY: return shmem_int_test_any(flags, NFLAGS, status, SHMEM_CMP_EQ, 0) == 1;
    case T_SOME: return shmem_int_test_some(flags, NFLAGS, idx, status, SHMEM_CMP_EQ, 0) == 1;
    case T_ALL_V: return shmem_int_test_all_vector(flags, NFLAGS, status, SHMEM_CMP_EQ, zero);
    case T_ANY_V:
        return shmem_int_test_any_vector(flags, NFLAGS, status, SHMEM_CMP_EQ, zero) == 1;
    case T_SOME_V:
        return shmem_int_test_some_vector(flags, NFLAGS, idx, status, SHMEM_CMP_EQ, zero) == 1;
    default: return shmem_signal_fetch(&sig) == 0;
    }
}

/* Whether other PEs reach this one's global data through MPI RMA here:
 * then every test call must poll MPI, whatever it returns. */
static int reached_by_mpi(void)
{
    const char *shm = getenv("MPISHMEM_SHM");
    int n = shmem_n_pes();
    return n > 1 && ((shm != NULL && shm[0] == '0') || shmem_team_n_pes(SHMEM_TEAM_SHARED) < n);
}

static double sleepy_times[N_KINDS];

/* As sleepy_poll, polling in the "still nothing" sense. */
static void sleepy_poll_inverse(enum poll_kind k)
{
    int me = shmem_my_pe(), next = (me + 1) % shmem_n_pes();
    for (int i = 0; i < NFLAGS; i++)
        flags[i] = 0;
    sig = 0;
    payload = -1;
    shmem_barrier_all();
    double t0 = now_s(), t;
    if (k == T_SIGNAL)
        shmem_int_put_signal(&payload, &me, 1, &sig, 1, SHMEM_SIGNAL_SET, next);
    else
        shmem_int_p(&flags[1], 1, next); /* no quiet: the polls must complete it */
    int waiting;
    while ((waiting = still_nothing(k)) && (t = now_s() - t0) < GIVE_UP_S)
        usleep(NAP_US);
    t = now_s() - t0;
    sleepy_times[k] = t;
    WHERE("PE %d polling with %s in the \"still nothing\" sense", me, kind_name[k]);
    CHK(!waiting);
    CHK(t < LIMIT_S);
    if (waiting || t >= LIMIT_S)
        fprintf(stderr, "PE %d: %s (still-nothing sense) saw the put %s after %.3f s\n", me,
                kind_name[k], waiting ? "not even" : "only", t);
    shmem_barrier_all();
    CHK_DONE();
}

#define FAILED_CALLS 64

/* Nobody puts: every call fails (signal_fetch returns 0) and must poll. */
START_TEST(test_every_failed_call_polls)
{
    enum poll_kind k = (enum poll_kind)_i;
    for (int i = 0; i < NFLAGS; i++)
        flags[i] = 0;
    sig = 0;
    shmem_barrier_all();
    unsigned long before = iprobes;
    int seen = 0;
    for (int i = 0; i < FAILED_CALLS; i++)
        seen += poll_once(k);
    unsigned long polls = iprobes - before;
    WHERE("PE %d calling %s", shmem_my_pe(), kind_name[k]);
    CHK(seen == 0);
    CHK(polls >= FAILED_CALLS);
    if (polls < FAILED_CALLS)
        fprintf(stderr, "PE %d: %d failed %s calls polled MPI %lu times\n", shmem_my_pe(),
                FAILED_CALLS, kind_name[k], polls);
    shmem_barrier_all();
    CHK_DONE();
}
END_TEST

/* Nobody puts, polled in the other sense: every call holds, and must
 * poll MPI where other PEs reach this one through MPI RMA. */
START_TEST(test_every_held_call_polls)
{
    enum poll_kind k = (enum poll_kind)_i;
    for (int i = 0; i < NFLAGS; i++)
        flags[i] = 0;
    sig = 0;
    shmem_barrier_all();
    unsigned long before = iprobes;
    int held = 0;
    for (int i = 0; i < FAILED_CALLS; i++)
        held += still_nothing(k);
    unsigned long polls = iprobes - before;
    WHERE("PE %d calling %s in the \"still nothing\" sense", shmem_my_pe(), kind_name[k]);
    CHK(held == FAILED_CALLS);
    CHK(!reached_by_mpi() || polls >= FAILED_CALLS);
    if (reached_by_mpi() && polls < FAILED_CALLS)
        fprintf(stderr, "PE %d: %d %s calls that held polled MPI %lu times\n", shmem_my_pe(),
                FAILED_CALLS, kind_name[k], polls);
    shmem_barrier_all();
    CHK_DONE();
}
END_TEST

/* test_lock on a lock PE 0 holds. */
START_TEST(test_failed_test_lock_polls)
{
    int me = shmem_my_pe();
    if (me == 0)
        shmem_set_lock(&lock);
    shmem_barrier_all();
    unsigned long before = iprobes, polls = 0;
    int got = 0;
    if (me != 0) {
        for (int i = 0; i < FAILED_CALLS; i++)
            got += shmem_test_lock(&lock) == 0;
        polls = iprobes - before;
    }
    shmem_barrier_all();
    if (me == 0)
        shmem_clear_lock(&lock);
    WHERE("PE %d calling shmem_test_lock", me);
    CHK(got == 0);
    CHK(me == 0 || polls >= FAILED_CALLS);
    shmem_barrier_all();
    CHK_DONE();
}
END_TEST

START_TEST(test_sleepy_poll)
{
    sleepy_poll((enum poll_kind)_i);
}
END_TEST

START_TEST(test_sleepy_poll_inverse)
{
    sleepy_poll_inverse((enum poll_kind)_i);
}
END_TEST

/* The put must show within 10 ms of the poller's naps (1 ms each) in the
 * "still nothing" sense: a library that drove MPI only on some of those
 * calls shows a put after tens of milliseconds or never.  One form may be
 * slow by noise (a loaded machine deschedules a PE for a while), so the
 * bound is on the median over the forms. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

START_TEST(test_inverse_median)
{
    double t[N_KINDS];
    memcpy(t, sleepy_times, sizeof t);
    qsort(t, N_KINDS, sizeof t[0], cmp_double);
    double median = (t[N_KINDS / 2 - 1] + t[N_KINDS / 2]) / 2;
    WHERE("PE %d: median time over the forms in the \"still nothing\" sense", shmem_my_pe());
    printf("PE %d: still-nothing sense, put seen after %.2f ms (median), %.2f-%.2f ms\n",
           shmem_my_pe(), median * 1e3, t[0] * 1e3, t[N_KINDS - 1] * 1e3);
    CHK(median < INVERSE_MEDIAN_S);
    CHK_DONE();
}
END_TEST

/* PE 0 takes the lock, then lets go of it while polling test_lock itself;
 * every other PE polls test_lock with naps until it holds the lock once. */
START_TEST(test_sleepy_test_lock)
{
    int me = shmem_my_pe();
    static int turns;
    turns = 0;
    shmem_barrier_all();
    if (me == 0)
        shmem_set_lock(&lock);
    shmem_barrier_all();
    double t0 = now_s(), t = 0;
    if (me == 0) {
        usleep(10 * NAP_US);
        shmem_clear_lock(&lock);
    }
    int got = 0;
    while (!got && (t = now_s() - t0) < GIVE_UP_S) {
        if (shmem_test_lock(&lock) == 0) {
            got = 1;
            shmem_int_atomic_inc(&turns, 0);
            shmem_clear_lock(&lock);
        } else {
            usleep(NAP_US);
        }
    }
    WHERE("PE %d polling with shmem_test_lock", me);
    CHK(got);
    CHK(t < LIMIT_S);
    if (!got)
        fprintf(stderr, "PE %d: shmem_test_lock never got the lock in %.1f s\n", me, t);
    shmem_barrier_all();
    if (me == 0)
        CHK(turns == shmem_n_pes());
    CHK_DONE();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("sync_test_sleep");
    TCase *tc = tcase_create("sleep");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, test_every_failed_call_polls, 0, N_KINDS);
    tcase_add_test(tc, test_failed_test_lock_polls);
    tcase_add_loop_test(tc, test_sleepy_poll, 0, N_KINDS);
    tcase_add_loop_test(tc, test_every_held_call_polls, 0, N_KINDS);
    tcase_add_loop_test(tc, test_sleepy_poll_inverse, 0, N_KINDS);
    tcase_add_test(tc, test_inverse_median);
    tcase_add_test(tc, test_sleepy_test_lock);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
