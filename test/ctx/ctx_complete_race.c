/*
 * ctx_complete_race: completion under SHMEM_THREAD_MULTIPLE must not depend
 * on another thread's timing.
 *
 * MPI_Win_flush is interposed (the MPI profiling interface): in the thread
 * marked `slow` it announces itself and sleeps before flushing, which
 * widens the window in which a second thread's quiet used to return at
 * once (the first flusher had already marked everything clean).  The
 * destination is a global array, so every transfer takes the MPI path even
 * with MPISHMEM_SHM=1.  Each case reuses the source buffer right after the
 * quiet, as the spec allows, and the target checks every byte.
 *   1. default context: thread B's quiet is inside its (slow) flush when
 *      thread A's 8 MiB putmem_nbi + quiet runs;
 *   2. a SHMEM_CTX_PRIVATE context of thread A against thread B's stream of
 *      non-fetching AMOs (their operand ring recycles every 1024): B must
 *      flush only the AMO window, never A's, and A's quiet must still wait
 *      for A's own transfer.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <shmem.h>
#include "init_multiple.h"

#define BIG ((size_t)8 << 20)
static char dest[BIG];           /* global: always MPI RMA */
static long amo_target;
static int me, npes, right, failures;

static __thread int slow;        /* this thread's flushes sleep */
static __thread MPI_Win seen[256];
static __thread int nseen;
static volatile int slow_inside; /* the slow thread is inside a flush */
static MPI_Win amo_win = MPI_WIN_NULL;
static volatile int foreign_inside; /* ... of a window other than amo_win */

int MPI_Win_flush(int rank, MPI_Win win)
{
    if (nseen < 256)
        seen[nseen++] = win;
    if (slow) {
        MPI_Win aw;
        __atomic_load(&amo_win, &aw, __ATOMIC_ACQUIRE);
        if (aw != MPI_WIN_NULL && win != aw)
            __atomic_store_n(&foreign_inside, 1, __ATOMIC_SEQ_CST);
        __atomic_store_n(&slow_inside, 1, __ATOMIC_SEQ_CST);
        usleep(200000);
    }
    return PMPI_Win_flush(rank, win);
}

#define CHECK(c, ...)                                                                      \
    do {                                                                                   \
        if (!(c)) {                                                                        \
            fprintf(stderr, "PE %d: %s:%d: ", me, __FILE__, __LINE__);                     \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static int go, b_done;

static void wait_flag(int *f)
{
    while (!__atomic_load_n(f, __ATOMIC_ACQUIRE))
        usleep(100);
}

/* ---- case 1: default context, a second thread's quiet in flight ---- */
static void *quiet_thread(void *arg)
{
    (void)arg;
    slow = 1;
    wait_flag(&go);
    shmem_quiet();
    __atomic_store_n(&b_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* ---- case 2: private context against another thread's AMO stream ---- */
static int foreign_flushes;

static void *amo_thread(void *arg)
{
    (void)arg;
    /* Learn the AMO window (lane 0): the window a default quiet flushes. */
    nseen = 0;
    shmem_long_atomic_add(&amo_target, 1, right);
    shmem_quiet();
    MPI_Win aw = nseen ? seen[0] : MPI_WIN_NULL;
    __atomic_store(&amo_win, &aw, __ATOMIC_RELEASE);
    slow = 1;
    wait_flag(&go);
    nseen = 0;
    for (int i = 0; i < 2100; i++)
        shmem_long_atomic_add(&amo_target, 1, right);
    for (int i = 0; i < nseen; i++)
        foreign_flushes += seen[i] != aw;
    __atomic_store_n(&b_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void check_dest(const char *what, unsigned char v)
{
    size_t bad = 0;
    for (size_t i = 0; i < BIG; i++)
        bad += (unsigned char)dest[i] != v;
    CHECK(bad == 0, "%s: %zu of %zu bytes corrupted", what, bad, BIG);
}

static void run_case(int which, unsigned char v)
{
    char *src = malloc(BIG);
    memset(src, v, BIG);
    memset(dest, 0, BIG);
    slow_inside = foreign_inside = 0;
    go = b_done = 0;
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    if (which == 2)
        CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "ctx_create");
    shmem_barrier_all();
    pthread_t b;
    pthread_create(&b, NULL, which == 1 ? quiet_thread : amo_thread, NULL);
    shmem_ctx_putmem_nbi(ctx, dest, src, BIG, right);
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    /* Let B get inside its flush (case 2: of A's window, which it must
     * never flush, so A also stops waiting when B is done). */
    volatile int *inside = which == 1 ? &slow_inside : &foreign_inside;
    while (!__atomic_load_n(inside, __ATOMIC_ACQUIRE) &&
           !__atomic_load_n(&b_done, __ATOMIC_ACQUIRE))
        usleep(100);
    shmem_ctx_quiet(ctx);
    memset(src, 0xEE, BIG); /* reuse, as quiet allows */
    pthread_join(b, NULL);
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    shmem_barrier_all();
    check_dest(which == 1 ? "default context, concurrent quiet"
                          : "private context, concurrent AMO ring recycle", v);
    free(src);
}

int main(void)
{
    shmem_check_init_multiple();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    run_case(1, 0x5a);
    run_case(2, 0xa5);
    CHECK(foreign_flushes == 0,
          "the AMO thread flushed %d window(s) other than the AMO window (a private "
          "context's lane)", foreign_flushes);
    shmem_barrier_all();
    CHECK(amo_target == 2101, "amo_target %ld, want 2101", amo_target);
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("ctx_complete_race: %s (%d failure(s))\n", total ? "FAILED" : "ok", total);
    shmem_finalize();
    return total ? EXIT_FAILURE : EXIT_SUCCESS;
}
