/*
 * ctx_fetch_threads: blocking fetching AMOs under SHMEM_THREAD_MULTIPLE,
 * THREADS threads per PE sharing the default context (one lane, so their
 * MPI operations and flushes interleave on one window).  Each thread takes
 * tickets from one counter on PE 0: ROUNDS by fetch_add, then ROUNDS by a
 * compare_swap loop, then reads it with atomic_fetch.  If a fetch could
 * return before its result arrived (a flush of another thread's operation
 * taken for its own), a ticket would be seen twice or never: every ticket
 * 0 .. 2*ROUNDS*THREADS*npes-1 must come back exactly once, and every
 * fetched value must be one that the counter has held.
 */
#include <pthread.h>
#include <shmem.h>
#include <shmem_check.h>
#include <init_multiple.h>
#include <string.h>

#define THREADS 4
#define ROUNDS 400

static long counter;    /* on PE 0 */
static long *tickets;   /* [npes * THREADS * 2 * ROUNDS] on PE 0, filled by puts */
static int me, npes, errors;

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    long mine[2 * ROUNDS];
    long total = 2L * ROUNDS * THREADS * npes;
    for (int r = 0; r < ROUNDS; r++)
        mine[r] = shmem_long_atomic_fetch_add(&counter, 1, 0);
    for (int r = 0; r < ROUNDS; r++) {
        long seen = shmem_long_atomic_fetch(&counter, 0);
        if (seen < 0 || seen > total)
            __atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
        for (;;) {
            long old = shmem_long_atomic_compare_swap(&counter, seen, seen + 1, 0);
            if (old == seen)
                break;
            if (old < seen || old > total)   /* the counter only grows */
                __atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
            seen = old;
        }
        mine[ROUNDS + r] = seen;
    }
    shmem_long_put(&tickets[((size_t)me * THREADS + (size_t)t) * 2 * ROUNDS], mine, 2 * ROUNDS,
                   0);
    return NULL;
}

START_TEST(every_ticket_once)
{
    me = shmem_my_pe();
    npes = shmem_n_pes();
    size_t total = (size_t)npes * THREADS * 2 * ROUNDS;
    tickets = shmem_malloc(total * sizeof(long));
    ck_assert_ptr_nonnull(tickets);
    shmem_check_run_threads(worker, THREADS);
    ck_assert_int_eq(errors, 0);
    if (me == 0) {
        ck_assert_int_eq(counter, (long)total);
        unsigned char *seen = calloc(total, 1);
        ck_assert_ptr_nonnull(seen);
        for (size_t i = 0; i < total; i++) {
            long v = tickets[i];
            ck_assert_msg(v >= 0 && (size_t)v < total, "ticket %ld out of range", v);
            ck_assert_msg(!seen[v], "ticket %ld taken twice", v);
            seen[v] = 1;
        }
        free(seen);
    }
    shmem_barrier_all();
    shmem_free(tickets);
}
END_TEST

SHMEM_CHECK_MAIN_MULTIPLE("ctx_fetch_threads", every_ticket_once)
