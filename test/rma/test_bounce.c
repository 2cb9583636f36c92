/*
 * Small blocking puts on the MPI path return once their source is copied
 * into the calling thread's bounce buffer (mpi_backend/data_path/rma_mpi.c), which is
 * recycled when full.  These tests reuse the source right after every
 * blocking put, with sizes around the bounce threshold, many times over the
 * buffer's capacity, to globals and to the heap, from the default context
 * and from created ones, and from threads that exit right after their last
 * put; then they check every byte.  A buffer slot reused before MPI read
 * it, or a recycle that skipped a target, shows up as wrong bytes.
 */
#include <pthread.h>
#include <stdlib.h>
#include <shmem.h>
#include "rma_common.h"

#define REGION ((size_t)256 * 1024)
static uint8_t global_region[REGION] __attribute__((aligned(64)));

/* The library's count of bounce-buffer recycles (a test hook). */
extern unsigned long mpishmem_bounce_recycles;

/* Around MPISHMEM_BOUNCE_MAX (1024), plus the smallest and a large one. */
static const size_t sizes[] = {1, 7, 8, 9, 16, 17, 255, 1000, 1023, 1024, 1025, 1040, 4096};
#define N_SIZES (sizeof sizes / sizeof sizes[0])

/* Fills `region` on pe with puts of every size in turn, each from the same
 * source buffer that is scribbled over right after the put returns. */
static void put_all(shmem_ctx_t ctx, uint8_t *region, int pe, unsigned tag)
{
    uint8_t src[4096];
    size_t off = 0;
    for (unsigned round = 0; off < REGION; round++) {
        size_t n = sizes[round % N_SIZES];
        if (off + n > REGION)
            n = REGION - off;
        /* The pattern of the whole region, cut at off. */
        for (size_t k = 0; k < n; k++)
            src[k] = rma_byte(shmem_my_pe(), tag, off + k);
        shmem_ctx_putmem(ctx, region + off, src, n, pe);
        memset(src, 0xA5, n); /* the source is ours again */
        off += n;
    }
}

static void check_region(const char *what, uint8_t *region, unsigned tag)
{
    rma_check_fill(what, region, REGION, rma_left(), tag);
}

static void run_once(shmem_ctx_t ctx, int use_global, unsigned tag)
{
    uint8_t *heap = shmem_malloc(REGION);
    uint8_t *region = use_global ? global_region : heap;
    memset(region, 0, REGION);
    shmem_barrier_all();
    put_all(ctx, region, rma_right(), tag);
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    check_region(use_global ? "globals" : "heap", region, tag);
    shmem_barrier_all();
    shmem_free(heap);
}

START_TEST(test_source_reuse_default_ctx)
{
    RMA_BEGIN();
    run_once(SHMEM_CTX_DEFAULT, 1, 1);
    run_once(SHMEM_CTX_DEFAULT, 0, 2);
    RMA_END();
}
END_TEST

START_TEST(test_source_reuse_created_ctx)
{
    RMA_BEGIN();
    shmem_ctx_t c;
    ck_assert_int_eq(shmem_ctx_create(0, &c), 0);
    run_once(c, 1, 3);
    run_once(c, 0, 4);
    shmem_ctx_destroy(c);
    RMA_END();
}
END_TEST

/* Completion at quiet: a flag put after quiet must find every bounced put
 * delivered (the receiver checks before any barrier). */
static long flag;
START_TEST(test_quiet_completes_bounced)
{
    RMA_BEGIN();
    memset(global_region, 0, REGION);
    flag = 0;
    shmem_barrier_all();
    put_all(SHMEM_CTX_DEFAULT, global_region, rma_right(), 5);
    shmem_quiet();
    shmem_long_p(&flag, 1, rma_right());
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    check_region("after flag", global_region, 5);
    shmem_barrier_all();
    RMA_END();
}
END_TEST

/* The route is really taken: with PEs reached through MPI, a region's
 * worth of small blocking puts recycles the buffer several times. */
START_TEST(test_bounce_recycles)
{
    RMA_BEGIN();
    unsigned long before = mpishmem_bounce_recycles;
    run_once(SHMEM_CTX_DEFAULT, 1, 6);
    int via_mpi = shmem_ptr(global_region, rma_right()) == NULL;
    if (via_mpi && mpishmem_bounce_recycles - before < 2)
        rma_fail("%lu recycles for %zu bytes of small blocking puts through MPI",
                 mpishmem_bounce_recycles - before, REGION);
    RMA_END();
}
END_TEST

/* Threads that exit right after their blocking puts (their bounce buffer
 * dies with them). */
static void *thread_puts(void *arg)
{
    unsigned t = (unsigned)(uintptr_t)arg;
    uint8_t src[64];
    for (size_t off = t * 64; off < REGION; off += 4 * 64) {
        for (size_t k = 0; k < 64; k++)
            src[k] = rma_byte(shmem_my_pe(), 7, off + k);
        shmem_putmem(global_region + off, src, 64, rma_right());
        memset(src, 0x5A, sizeof src);
    }
    return NULL;
}

START_TEST(test_thread_exit_after_puts)
{
    RMA_BEGIN();
    int level;
    shmem_query_thread(&level);
    memset(global_region, 0, REGION);
    shmem_barrier_all();
    if (level == SHMEM_THREAD_MULTIPLE) {
        pthread_t th[4];
        for (unsigned t = 0; t < 4; t++)
            pthread_create(&th[t], NULL, thread_puts, (void *)(uintptr_t)t);
        for (unsigned t = 0; t < 4; t++)
            pthread_join(th[t], NULL);
        /* New threads reuse the dead ones' memory. */
        for (unsigned t = 0; t < 4; t++)
            pthread_create(&th[t], NULL, thread_puts, (void *)(uintptr_t)t);
        for (unsigned t = 0; t < 4; t++)
            pthread_join(th[t], NULL);
    } else {
        for (unsigned t = 0; t < 4; t++)
            thread_puts((void *)(uintptr_t)t);
    }
    shmem_barrier_all();
    check_region("threads", global_region, 7);
    shmem_barrier_all();
    RMA_END();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("rma_bounce");
    TCase *tc = tcase_create("bounce");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_source_reuse_default_ctx);
    tcase_add_test(tc, test_source_reuse_created_ctx);
    tcase_add_test(tc, test_quiet_completes_bounced);
    tcase_add_test(tc, test_bounce_recycles);
    tcase_add_test(tc, test_thread_exit_after_puts);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    int provided;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    int failures = shmem_check_run(make_suite());
    shmem_finalize();
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
