/*
 * ctx_threads: SHMEM_THREAD_MULTIPLE stress.  THREADS threads per PE; each
 * has a SHMEM_CTX_PRIVATE context and mixes puts, gets, fetching and
 * non-fetching AMOs and quiets on it, while also adding through the shared
 * default context.  Every total is exact:
 *   - counter[t] on each PE: every thread t of every PE adds 1 per round
 *     through its private context, to PE (round % npes);
 *   - shared: every thread adds 1 per round through SHMEM_CTX_DEFAULT;
 *   - slot[pe][t]: the last round number thread t of PE pe put there,
 *     read back with a get through the same context after its quiet.
 */
#include <pthread.h>
#include <shmem.h>
#include <shmem_check.h>
#include <init_multiple.h>

#define THREADS 4
#define ROUNDS 300

static long *counter;   /* [THREADS] */
static long *shared;    /* [1] */
static long *slot;      /* [npes * THREADS] */
static int me, npes, errors;

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    shmem_ctx_t c;
    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &c) != 0) {
        __atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    int right = (me + 1) % npes;
    for (long r = 0; r < ROUNDS; r++) {
        int pe = (int)(r % npes);
        if (r % 2)
            shmem_ctx_long_atomic_add(c, &counter[t], 1, pe);
        else
            (void)shmem_ctx_long_atomic_fetch_add(c, &counter[t], 1, pe);
        shmem_long_atomic_add(&shared[0], 1, (int)((r + t) % npes)); /* default ctx */
        shmem_ctx_long_put_nbi(c, &slot[me * THREADS + t], &r, 1, right);
        shmem_ctx_quiet(c);
        long back = shmem_ctx_long_g(c, &slot[me * THREADS + t], right);
        if (back != r)
            __atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
    }
    shmem_ctx_destroy(c);
    return NULL;
}

START_TEST(private_contexts_and_default_context)
{
    me = shmem_my_pe();
    npes = shmem_n_pes();
    counter = shmem_calloc(THREADS, sizeof(long));
    shared = shmem_calloc(1, sizeof(long));
    slot = shmem_calloc((size_t)npes * THREADS, sizeof(long));
    shmem_check_run_threads(worker, THREADS);
    ck_assert_int_eq(errors, 0);
    /* Rounds aimed at this PE: r % npes == me. */
    long mine = 0;
    for (long r = 0; r < ROUNDS; r++)
        mine += r % npes == me;
    for (int t = 0; t < THREADS; t++)
        ck_assert_int_eq(counter[t], npes * mine);
    long sh = 0;
    for (int t = 0; t < THREADS; t++)
        for (long r = 0; r < ROUNDS; r++)
            sh += (r + t) % npes == me;
    ck_assert_int_eq(shared[0], npes * sh);
    int left = (me + npes - 1) % npes;
    for (int t = 0; t < THREADS; t++)
        ck_assert_int_eq(slot[left * THREADS + t], ROUNDS - 1);
    shmem_free(slot);
    shmem_free(shared);
    shmem_free(counter);
}
END_TEST

SHMEM_CHECK_MAIN_MULTIPLE("ctx_threads", private_contexts_and_default_context)
