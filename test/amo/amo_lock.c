/*
 * amo_lock: shmem_set_lock / shmem_clear_lock / shmem_test_lock.
 *
 *  - mutual exclusion: every PE increments a NON-atomic counter on PE 0
 *    (shmem_g + shmem_p, or getmem + putmem) under the lock many times,
 *    yielding the CPU inside the critical section now and then so others
 *    run and try the lock; the total is exact.  The counter is word 0 of
 *    a 16 KiB block that every holder rewrites, and a holder that reads
 *    the block finds it uniform only if clear_lock completed the previous
 *    holder's puts.  An occupancy word (AMO fetch_inc on entry must return
 *    0) catches two holders directly;
 *  - lock and counter each in the symmetric heap or in global data, the
 *    counter on PE 0 (where the lock queue's tail lives) or on the last PE;
 *  - test_lock returns 0 when it acquires a free lock and 1 while another
 *    PE holds it (turns coordinated with barriers), and a lock taken by
 *    spinning on test_lock excludes too;
 *  - two locks are independent;
 *  - fairness smoke test: every PE gets the lock its number of times.
 */
#include <sched.h>
#include "amo_common.h"

/* The shared state updated under a lock: a block of BLK longs (word 0 is
 * the counter, every word holds the same value) and an occupancy word,
 * all on the `home` PE. */
#define BLK 2048
typedef struct {
    long *blk, *occ;
    int home;
    const char *what;
} shared_t;

static long g_locks[4];
static long g_block[BLK], g_occupancy;
static int g_log[8 * 1024];

static long *heap_locks, *heap_block, *heap_occupancy;

static void setup(void)
{
    heap_locks = shmem_calloc(4, sizeof(long));
    heap_block = shmem_calloc(BLK + 1, sizeof(long));
    ck_assert(heap_locks && heap_block);
    heap_occupancy = heap_block + BLK;
}

static void teardown(void)
{
    shmem_free(heap_block);
    shmem_free(heap_locks);
}

static shared_t on_heap(int home, const char *what)
{
    return (shared_t){heap_block, heap_occupancy, home, what};
}
static shared_t on_global(int home, const char *what)
{
    return (shared_t){g_block, &g_occupancy, home, what};
}

/* Per-PE counts: a fixed total split over the PEs, with a floor. */
static long per_pe(long total, long floor)
{
    long n = total / shmem_n_pes();
    return n > floor ? n : floor;
}

/* Entered the critical section: nobody else may be inside. */
static void enter_cs(const shared_t *sh, long i)
{
    long inside = shmem_long_atomic_fetch_inc(sh->occ, sh->home);
    if (inside != 0)
        amo_fail("%s, iteration %ld: %ld other PE(s) inside the critical section", sh->what,
                 i, inside);
}

/* Leaving: a non-fetching decrement, which shmem_clear_lock must complete
 * before the next holder's fetch_inc. */
static void leave_cs(const shared_t *sh) { shmem_long_atomic_add(sh->occ, -1, sh->home); }

/* One increment of the block by read-modify-write: shmem_g + shmem_p on
 * the counter word (and putmem for the rest), or getmem + putmem of the
 * whole block, which also checks the previous holder's block arrived
 * whole (clear_lock completes the holder's puts). */
static void increment(const shared_t *sh, long i)
{
    static long buf[BLK];
    long v;
    if (i % 2 == 0) {
        v = shmem_long_g(&sh->blk[0], sh->home);
        if (i % 8 == 0)
            sched_yield(); /* widen the window for a second holder */
        shmem_long_p(&sh->blk[0], v + 1, sh->home);
        for (int k = 1; k < BLK; k++)
            buf[k] = v + 1;
        shmem_putmem(&sh->blk[1], &buf[1], (BLK - 1) * sizeof(long), sh->home);
    } else {
        shmem_getmem(buf, sh->blk, sizeof buf, sh->home);
        v = buf[0];
        for (int k = 1; k < BLK; k++)
            if (buf[k] != v) {
                amo_fail("%s, iteration %ld: block word %d is %ld, word 0 is %ld", sh->what,
                         i, k, buf[k], v);
                break;
            }
        if (i % 8 == 1)
            sched_yield();
        for (int k = 0; k < BLK; k++)
            buf[k] = v + 1;
        shmem_putmem(sh->blk, buf, sizeof buf, sh->home);
    }
}

static void reset_shared(const shared_t *sh)
{
    shmem_barrier_all();
    if (shmem_my_pe() == sh->home) {
        memset(sh->blk, 0, BLK * sizeof(long));
        shmem_long_atomic_set(sh->occ, 0, sh->home);
    }
    shmem_barrier_all();
}

static void check_total(const shared_t *sh, long want)
{
    static long buf[BLK];
    shmem_barrier_all();
    shmem_getmem(buf, sh->blk, sizeof buf, sh->home);
    for (int k = 0; k < BLK; k++)
        if (buf[k] != want) {
            amo_fail("%s: block word %d is %ld, expected %ld", sh->what, k, buf[k], want);
            break;
        }
    shmem_barrier_all();
}

/* set_lock/clear_lock around a non-atomic increment. */
static void counter_run(long *lock, shared_t sh)
{
    long iters = amo_env_long("AMO_LOCK_ITERS", per_pe(120, 12));
    reset_shared(&sh);
    for (long i = 0; i < iters; i++) {
        shmem_set_lock(lock);
        enter_cs(&sh, i);
        increment(&sh, i);
        leave_cs(&sh);
        shmem_clear_lock(lock);
    }
    check_total(&sh, iters * shmem_n_pes());
}

START_TEST(test_counter)
{
    AMO_BEGIN();
    int last = shmem_n_pes() - 1;
    counter_run(&heap_locks[0], on_heap(0, "heap lock, heap counter"));
    counter_run(&g_locks[0], on_global(0, "global lock, global counter"));
    /* Mixed segments, and the counter away from PE 0, where the lock
     * queue's tail lives. */
    counter_run(&heap_locks[1], on_global(last, "heap lock, global counter on the last PE"));
    counter_run(&g_locks[1], on_heap(last, "global lock, heap counter on the last PE"));
    AMO_END();
}
END_TEST

/* Deterministic test_lock: while one PE holds the lock every other PE's
 * test_lock returns 1; once it is free, test_lock returns 0 and holds it. */
static void test_lock_turns(long *lock, const char *what)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    /* Held through set_lock by PE 0. */
    if (me == 0)
        shmem_set_lock(lock);
    shmem_barrier_all();
    if (me != 0 && shmem_test_lock(lock) != 1)
        amo_fail("%s: test_lock acquired a lock PE 0 holds (set_lock)", what);
    shmem_barrier_all();
    if (me == 0)
        shmem_clear_lock(lock);
    shmem_barrier_all();
    /* Each PE in turn takes the free lock through test_lock. */
    for (int k = 0; k < npes; k++) {
        if (me == k && shmem_test_lock(lock) != 0)
            amo_fail("%s: PE %d: test_lock did not acquire the free lock", what, k);
        shmem_barrier_all();
        if (me != k && shmem_test_lock(lock) != 1)
            amo_fail("%s: test_lock acquired a lock PE %d holds (test_lock)", what, k);
        shmem_barrier_all();
        if (me == k)
            shmem_clear_lock(lock);
        shmem_barrier_all();
    }
    /* Free again: set_lock does not wait. */
    shmem_set_lock(lock);
    shmem_clear_lock(lock);
    shmem_barrier_all();
}

/* Acquire by spinning on test_lock; mutual exclusion must hold too. */
static void test_lock_spin(long *lock, shared_t sh)
{
    long iters = amo_env_long("AMO_LOCK_ITERS", per_pe(120, 12)) / 2;
    reset_shared(&sh);
    long done = 0;
    for (long i = 0; i < iters; i++) {
        amo_watch_t w;
        amo_watch_start(&w);
        int stalled = 0;
        while (!stalled && shmem_test_lock(lock) != 0) {
            sched_yield(); /* PEs may outnumber cores: let the holder run */
            stalled = amo_watch_expired(&w);
        }
        if (stalled) {
            /* See amo_progress: the holder could not release the lock. */
            amo_fail("%s, iteration %ld: no progress spinning on shmem_test_lock for %d s",
                     sh.what, i, AMO_HANG_SECONDS);
            break;
        }
        done++;
        enter_cs(&sh, i);
        increment(&sh, i);
        leave_cs(&sh);
        shmem_clear_lock(lock);
    }
    /* A PE that stalled took fewer turns: the total is the sum of turns. */
    long *turns = shmem_malloc(sizeof *turns);
    *turns = 0;
    shmem_barrier_all();
    shmem_long_atomic_add(turns, done, 0);
    shmem_barrier_all();
    long want = shmem_long_atomic_fetch(turns, 0);
    if (want != iters * shmem_n_pes())
        amo_fail("%s: only %ld of %ld turns were taken", sh.what, want, iters * shmem_n_pes());
    check_total(&sh, want);
    shmem_free(turns);
}

START_TEST(test_test_lock)
{
    AMO_BEGIN();
    test_lock_turns(&heap_locks[2], "heap lock");
    test_lock_turns(&g_locks[2], "global lock");
    test_lock_spin(&heap_locks[2], on_heap(0, "test_lock spin, heap"));
    test_lock_spin(&g_locks[2], on_global(shmem_n_pes() - 1, "test_lock spin, global"));
    AMO_END();
}
END_TEST

/* Two locks in adjacent words are independent: with A held by PE 0, the
 * last PE takes B; then every PE nests A then B around an increment. */
static void two_locks(long *a, long *b, shared_t sh)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (me == 0)
        shmem_set_lock(a);
    shmem_barrier_all();
    if (me == npes - 1) {
        if (shmem_test_lock(b) != 0)
            amo_fail("%s: lock B is busy while only lock A is held", sh.what);
        if (npes > 1 && shmem_test_lock(a) != 1)
            amo_fail("%s: lock A acquired while PE 0 holds it", sh.what);
    }
    shmem_barrier_all();
    if (me == 0)
        shmem_clear_lock(a);
    if (me == npes - 1)
        shmem_clear_lock(b);
    long iters = per_pe(48, 8);
    reset_shared(&sh);
    for (long i = 0; i < iters; i++) {
        shmem_set_lock(a);
        shmem_set_lock(b);
        enter_cs(&sh, i);
        increment(&sh, i);
        leave_cs(&sh);
        /* Release in either order: both are legal. */
        if (i % 2) {
            shmem_clear_lock(b);
            shmem_clear_lock(a);
        } else {
            shmem_clear_lock(a);
            shmem_clear_lock(b);
        }
    }
    check_total(&sh, iters * npes);
}

START_TEST(test_two_locks)
{
    AMO_BEGIN();
    two_locks(&heap_locks[0], &heap_locks[1], on_heap(0, "two heap locks"));
    two_locks(&g_locks[3], &heap_locks[3], on_global(0, "global + heap lock"));
    AMO_END();
}
END_TEST

/* Fairness smoke test: every PE acquires the lock R times and appends its
 * number to a log on PE 0 under the lock (word 0 of the block is the log
 * length): the log holds each PE exactly R times, so no PE was shut out. */
static void fairness(long *lock, shared_t sh, int *log)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long rounds = per_pe(48, 6);
    ck_assert_int_le(npes * rounds, (long)(sizeof g_log / sizeof g_log[0]));
    reset_shared(&sh);
    for (long r = 0; r < rounds; r++) {
        shmem_set_lock(lock);
        enter_cs(&sh, r);
        long pos = shmem_long_g(&sh.blk[0], sh.home);
        shmem_int_p(&log[pos], me, sh.home);
        shmem_long_p(&sh.blk[0], pos + 1, sh.home);
        leave_cs(&sh);
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
    if (me == sh.home) {
        long count[64] = {0};
        if (sh.blk[0] != rounds * npes)
            amo_fail("%s: log length %ld, expected %ld", sh.what, sh.blk[0], rounds * npes);
        for (long k = 0; k < rounds * npes; k++) {
            if (log[k] < 0 || log[k] >= npes)
                amo_fail("%s: log entry %ld is %d", sh.what, k, log[k]);
            else if (log[k] < 64)
                count[log[k]]++;
        }
        for (int pe = 0; pe < npes && pe < 64; pe++)
            if (count[pe] != rounds)
                amo_fail("%s: PE %d held the lock %ld times, expected %ld", sh.what, pe,
                         count[pe], rounds);
    }
    shmem_barrier_all();
}

START_TEST(test_fairness)
{
    AMO_BEGIN();
    int *hlog = shmem_malloc(sizeof g_log);
    fairness(&heap_locks[0], on_heap(0, "fairness, heap"), hlog);
    fairness(&g_locks[0], on_global(0, "fairness, global"), g_log);
    shmem_free(hlog);
    AMO_END();
}
END_TEST

/* One case per test, so CK_RUN_CASE can pick one. */
static void add_case(Suite *s, const char *name, const TTest *test)
{
    TCase *tc = tcase_create(name);
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test);
    suite_add_tcase(s, tc);
}

static Suite *make_suite(void)
{
    Suite *s = suite_create("amo_lock");
    add_case(s, "counter", test_counter);
    add_case(s, "test_lock", test_test_lock);
    add_case(s, "two_locks", test_two_locks);
    add_case(s, "fairness", test_fairness);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
