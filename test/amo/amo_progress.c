/*
 * amo_progress: a PE that polls with AMOs must still let AMOs aimed at it
 * complete (OpenSHMEM 1.6, "Progress of OpenSHMEM Operations": other PEs
 * complete their operations on a PE whatever that PE is doing).
 *
 *  - poll_own_word: one PE at a time polls its own word with
 *    shmem_long_atomic_fetch, shmem_long_atomic_compare_swap or
 *    shmem_signal_fetch until its left neighbour's AMO (atomic_set,
 *    atomic_swap, put_signal) arrives;
 *  - test_lock_handoff: PE 1 holds a lock and releases it while every other
 *    PE spins on shmem_test_lock; each must then get the lock.
 * Words in global data (always MPI atomics) and in the heap.
 *
 * A wait that makes no progress is reported after AMO_HANG_SECONDS (see
 * amo_common.h) and the test moves on, instead of hanging the job.
 */
#include <sched.h>
#include "amo_common.h"

#define ROUNDS 6

static long g_flag;
static uint64_t g_sig;
static long g_lock, g_count;
static long g_payload[16];

/* Round r: PE p = r % n polls its own word while its left neighbour sets
 * it to r (method r % 3); the other PEs wait in the barrier.  The poller
 * issues nothing but the polling AMOs, so only they can serve the update.
 * Returns 0 after a hang, so the caller stops issuing rounds. */
static int poll_round(long *flag, uint64_t *sig, long *payload, int r, const char *where)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int poller = r % npes, sender = (poller + npes - 1) % npes;
    if (me == sender) {
        long src[16];
        for (int k = 0; k < 16; k++)
            src[k] = r * 100 + k;
        switch (r % 3) {
        case 0: shmem_long_atomic_set(flag, r, poller); break;
        case 1: shmem_long_atomic_swap(flag, r, poller); break;
        default:
            shmem_long_put_signal(payload, src, 16, sig, (uint64_t)r, SHMEM_SIGNAL_SET, poller);
        }
        if (r % 2)
            shmem_quiet();
    }
    if (me != poller)
        return 1;
    amo_watch_t w;
    amo_watch_start(&w);
    const char *how = r % 3 == 2 ? "shmem_signal_fetch" : r % 3 == 1 ? "compare_swap" : "fetch";
    for (;;) {
        long seen;
        if (r % 3 == 2)
            seen = (long)shmem_signal_fetch(sig);
        else if (r % 3 == 1)
            seen = shmem_long_atomic_compare_swap(flag, -1, -1, me);
        else
            seen = shmem_long_atomic_fetch(flag, me);
        if (seen == r)
            break;
        if (amo_watch_expired(&w)) {
            amo_fail("%s round %d: PE %d polling its own word with %s never saw PE %d's "
                     "update (still %ld after %lu polls, %d s)",
                     where, r, me, how, sender, seen, w.polls, AMO_HANG_SECONDS);
            return 0;
        }
    }
    if (r % 3 == 2)
        for (int k = 0; k < 16; k++)
            if (payload[k] != r * 100 + k) {
                amo_fail("%s round %d: payload word %d is %ld", where, r, k, payload[k]);
                break;
            }
    return 1;
}

/* Set on every PE by a PE whose wait made no progress: the remaining
 * rounds are skipped, so a stall costs one AMO_HANG_SECONDS, not one per
 * round. */
static int g_stalled;

static void poll_own_word(long *flag, uint64_t *sig, long *payload, const char *where)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_long_atomic_set(flag, 0, me);
    shmem_signal_set(sig, 0, me);
    shmem_int_atomic_set(&g_stalled, 0, me);
    shmem_barrier_all();
    for (int r = 1; r <= ROUNDS; r++) {
        if (!poll_round(flag, sig, payload, r, where))
            for (int pe = 0; pe < npes; pe++)
                shmem_int_atomic_set(&g_stalled, 1, pe);
        /* Nobody updates round r+1 before round r was seen; a PE that gave
         * up still joins, which also lets the stalled AMOs complete. */
        shmem_barrier_all();
        if (shmem_int_atomic_fetch(&g_stalled, me))
            break;
    }
    shmem_barrier_all();
}

START_TEST(test_poll_own_word)
{
    AMO_BEGIN();
    long *h = shmem_calloc(18, sizeof(long));
    poll_own_word(&g_flag, &g_sig, g_payload, "global");
    poll_own_word(&h[0], (uint64_t *)&h[1], &h[2], "heap");
    shmem_free(h);
    AMO_END();
}
END_TEST

/* PE 1 holds the lock; it releases it while the others spin on
 * shmem_test_lock.  Every other PE then takes it once. */
static void test_lock_handoff(long *lock, long *count, const char *where)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (me == 0)
        shmem_long_atomic_set(count, 0, 0);
    if (me == 1)
        shmem_set_lock(lock);
    shmem_barrier_all();
    if (me == 1) {
        shmem_clear_lock(lock);
    } else {
        amo_watch_t w;
        amo_watch_start(&w);
        int got = 1;
        while (shmem_test_lock(lock) != 0) {
            sched_yield(); /* PEs may outnumber cores */
            if (amo_watch_expired(&w)) {
                amo_fail("%s: PE %d spun on shmem_test_lock for %d s while PE 1 released "
                         "the lock",
                         where, me, AMO_HANG_SECONDS);
                got = 0;
                break;
            }
        }
        if (got) {
            shmem_long_atomic_inc(count, 0);
            shmem_clear_lock(lock);
        }
    }
    shmem_barrier_all();
    if (me == 0)
        AMO_EXPECT("PEs that took the lock", shmem_long_atomic_fetch(count, 0), npes - 1);
    shmem_barrier_all();
}

START_TEST(test_lock_spin_handoff)
{
    AMO_BEGIN();
    ck_assert_int_ge(shmem_n_pes(), 2);
    long *h = shmem_calloc(2, sizeof(long));
    test_lock_handoff(&g_lock, &g_count, "global lock");
    test_lock_handoff(&h[0], &h[1], "heap lock");
    shmem_free(h);
    AMO_END();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("amo_progress");
    TCase *tc = tcase_create("progress");
    tcase_add_test(tc, test_poll_own_word);
    tcase_add_test(tc, test_lock_spin_handoff);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
