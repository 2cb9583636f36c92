/*
 * ctx_isolation: shmem_ctx_quiet(a) completes a's operations without
 * waiting for another context's transfers.
 *
 * The program interposes MPI_Win_flush (the MPI profiling interface) and
 * records which windows each quiet flushes.  With MPISHMEM_SHM=0 every
 * operation goes through MPI (so between nodes too): context b leaves a 32 MiB put outstanding,
 * context a puts 8 bytes, and quiet(a) must flush exactly one window (a's
 * lane), never b's; then quiet(b) flushes b's.  With the load/store path
 * there is nothing to flush at all.  The default context's quiet likewise
 * leaves both created contexts alone, while shmem_barrier_all completes
 * everything.  A timing check is deliberately absent: this machine is
 * shared and noisy; the flush record is exact.
 */
#include <mpi.h>
#include <string.h>
#include <shmem.h>
#include <shmem_check.h>

#define MAXREC 64
static MPI_Win flushed[MAXREC];
static int nflushed;

int MPI_Win_flush(int rank, MPI_Win win)
{
    if (nflushed < MAXREC)
        flushed[nflushed] = win;
    nflushed++;
    return PMPI_Win_flush(rank, win);
}

static int count_win(MPI_Win w)
{
    int n = 0;
    for (int i = 0; i < nflushed && i < MAXREC; i++)
        n += flushed[i] == w;
    return n;
}

#define BIG ((size_t)32 << 20)

START_TEST(quiet_flushes_only_its_context)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes;
    char *big = shmem_malloc(BIG);
    long *small = shmem_calloc(4, sizeof(long));
    char *src = malloc(BIG);
    memset(src, me + 1, BIG);
    shmem_ctx_t a, b;
    ck_assert_int_eq(shmem_ctx_create(SHMEM_CTX_PRIVATE, &a), 0);
    ck_assert_int_eq(shmem_ctx_create(SHMEM_CTX_PRIVATE, &b), 0);
    shmem_barrier_all();

    /* MPISHMEM_SHM=0, or the right neighbour on another node (hybrid
     * runs): the transfers go through MPI. */
    int mpi_path = shmem_ptr(small, right) == NULL;

    /* Learn each context's window: the flush its own quiet makes. */
    nflushed = 0;
    shmem_ctx_long_p(b, &small[1], 1, right);
    shmem_ctx_quiet(b);
    MPI_Win win_b = nflushed ? flushed[0] : MPI_WIN_NULL;
    ck_assert_int_eq(nflushed, mpi_path ? 1 : 0);

    shmem_ctx_putmem_nbi(b, big, src, BIG, right);      /* stays outstanding */
    nflushed = 0;
    shmem_ctx_long_p(a, &small[0], 42, right);
    shmem_ctx_quiet(a);
    ck_assert_int_eq(nflushed, mpi_path ? 1 : 0);
    if (mpi_path) {
        ck_assert_int_eq(count_win(win_b), 0);            /* b's lane untouched */
        ck_assert(flushed[0] != win_b);
    }
    /* The default context's quiet does not flush a's or b's lanes. */
    nflushed = 0;
    shmem_quiet();
    ck_assert_int_eq(count_win(win_b), 0);
    nflushed = 0;
    shmem_ctx_quiet(b);
    ck_assert_int_eq(nflushed, mpi_path ? 1 : 0);
    if (mpi_path)
        ck_assert_int_eq(count_win(win_b), 1);
    shmem_barrier_all();
    ck_assert_int_eq(small[0], 42);
    int left = (me + npes - 1) % npes;
    for (size_t i = 0; i < BIG; i += 4093)
        ck_assert_int_eq(big[i], left + 1);

    /* barrier_all completes every context. */
    shmem_barrier_all(); /* everyone has checked round one */
    memset(src, me + 7, BIG);
    shmem_ctx_putmem_nbi(b, big, src, BIG, right);
    nflushed = 0;
    shmem_barrier_all();
    if (mpi_path)
        ck_assert_int_eq(count_win(win_b), 1);
    for (size_t i = 0; i < BIG; i += 4093)
        ck_assert_int_eq(big[i], left + 7);

    shmem_ctx_destroy(a);
    shmem_ctx_destroy(b);
    free(src);
    shmem_free(small);
    shmem_free(big);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ctx_isolation");
    TCase *tc = tcase_create("isolation");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, quiet_flushes_only_its_context);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
