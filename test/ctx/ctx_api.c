/*
 * ctx_api: context lifecycle and semantics.
 *   - create/destroy with every option, get_team of each kind of context;
 *   - SHMEM_CTX_INVALID: every operation does nothing, get_team fails;
 *   - a context made from a reversed strided team addresses team PEs: RMA,
 *     AMOs, signals and pe_quiet reach the right world PEs;
 *   - SHMEM_TEAM_NUM_CONTEXTS budgets: creation beyond it fails cleanly;
 *   - destroying a team destroys its shareable contexts;
 *   - sessions: a SHMEM_CTX_SESSION_BATCH session over thousands of small
 *     blocking puts (staged, ring wrap-around included) delivers them all.
 */
#include <stdint.h>
#include <shmem.h>
#include <shmem_check.h>

static int me, npes;

static void setup(void)
{
    me = shmem_my_pe();
    npes = shmem_n_pes();
}

START_TEST(create_destroy_options)
{
    long opts[] = {0, SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE, SHMEM_CTX_NOSTORE,
                   SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE};
    shmem_ctx_t c[5];
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(shmem_ctx_create(opts[i], &c[i]), 0);
        shmem_team_t t = SHMEM_TEAM_INVALID;
        ck_assert_int_eq(shmem_ctx_get_team(c[i], &t), 0);
        ck_assert_ptr_eq(t, SHMEM_TEAM_WORLD);
    }
    /* Unknown option bits: a clean failure, ctx untouched. */
    shmem_ctx_t keep = c[0];
    ck_assert_int_ne(shmem_ctx_create(1L << 20, &keep), 0);
    ck_assert_ptr_eq(keep, c[0]);
    /* More contexts than lanes share lanes and still work. */
    long *box = shmem_calloc(5, sizeof(long));
    shmem_barrier_all();
    for (int i = 0; i < 5; i++)
        shmem_ctx_long_p(c[i], &box[i], 10 + i, (me + 1) % npes);
    for (int i = 0; i < 5; i++)
        shmem_ctx_quiet(c[i]);
    shmem_barrier_all();
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(box[i], 10 + i);
    for (int i = 0; i < 5; i++)
        shmem_ctx_destroy(c[i]);
    shmem_team_t t = SHMEM_TEAM_INVALID;
    ck_assert_int_eq(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &t), 0);
    ck_assert_ptr_eq(t, SHMEM_TEAM_WORLD);
    shmem_free(box);
}
END_TEST

START_TEST(invalid_context_does_nothing)
{
    long *x = shmem_malloc(sizeof *x);
    uint64_t *sig = shmem_malloc(sizeof *sig);
    *x = 5;
    *sig = 0;
    shmem_barrier_all();
    long v = 7;
    shmem_ctx_long_put(SHMEM_CTX_INVALID, x, &v, 1, (me + 1) % npes);
    shmem_ctx_long_p(SHMEM_CTX_INVALID, x, 9, 0);
    shmem_ctx_long_atomic_add(SHMEM_CTX_INVALID, x, 100, 0);
    ck_assert_int_eq(shmem_ctx_long_atomic_fetch_add(SHMEM_CTX_INVALID, x, 1, 0), 0);
    ck_assert_int_eq(shmem_ctx_long_g(SHMEM_CTX_INVALID, x, 0), 0);
    shmem_ctx_putmem_signal(SHMEM_CTX_INVALID, x, &v, sizeof v, sig, 1, SHMEM_SIGNAL_SET, 0);
    shmem_ctx_quiet(SHMEM_CTX_INVALID);
    shmem_ctx_fence(SHMEM_CTX_INVALID);
    int pe = 0;
    shmem_ctx_pe_quiet(SHMEM_CTX_INVALID, &pe, 1);
    shmem_ctx_session_start(SHMEM_CTX_INVALID, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    shmem_ctx_session_stop(SHMEM_CTX_INVALID);
    shmem_ctx_destroy(SHMEM_CTX_INVALID);
    shmem_team_t t = SHMEM_TEAM_WORLD;
    ck_assert_int_ne(shmem_ctx_get_team(SHMEM_CTX_INVALID, &t), 0);
    ck_assert_ptr_eq(t, SHMEM_TEAM_INVALID);
    shmem_barrier_all();
    ck_assert_int_eq(*x, 5);
    ck_assert_int_eq(*sig, 0);
    shmem_ctx_t none = SHMEM_CTX_INVALID;
    ck_assert_int_ne(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &none), 0);
    ck_assert_ptr_eq(none, SHMEM_CTX_INVALID);
    shmem_free(sig);
    shmem_free(x);
}
END_TEST

/* Team PE i of the reversed team is world PE npes-1-i. */
START_TEST(team_context_addresses_team_pes)
{
    shmem_team_t rev;
    ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0,
                                              &rev), 0);
    shmem_ctx_t c;
    ck_assert_int_eq(shmem_team_create_ctx(rev, 0, &c), 0);
    shmem_team_t got;
    ck_assert_int_eq(shmem_ctx_get_team(c, &got), 0);
    ck_assert_ptr_eq(got, rev);
    long *cell = shmem_calloc((size_t)npes, sizeof(long));
    long *count = shmem_calloc(1, sizeof(long));
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    shmem_barrier_all();
    int tme = shmem_team_my_pe(rev);
    ck_assert_int_eq(tme, npes - 1 - me);
    for (int t = 0; t < npes; t++) {
        long mark = 1000 * me + t;
        shmem_ctx_long_put(c, &cell[me], &mark, 1, t);   /* lands on world npes-1-t */
        shmem_ctx_long_atomic_add(c, count, 1, t);
    }
    /* Signal team PE 0 (world npes-1). */
    shmem_ctx_putmem_signal(c, &cell[me], &cell[me], 0, sig, 1, SHMEM_SIGNAL_ADD, 0);
    int targets[1] = {0};
    shmem_ctx_pe_quiet(c, targets, 1);
    shmem_ctx_quiet(c);
    shmem_barrier_all();
    int my_team_pe = npes - 1 - me;
    for (int w = 0; w < npes; w++)
        ck_assert_int_eq(cell[w], 1000 * w + my_team_pe);
    ck_assert_int_eq(*count, npes);
    ck_assert_int_eq(*sig, me == npes - 1 ? (uint64_t)npes : 0);
    /* g and fetch through the team numbering. */
    ck_assert_int_eq(shmem_ctx_long_g(c, &cell[0], 0), 1000 * 0 + 0);
    ck_assert_int_eq(shmem_ctx_long_atomic_fetch(c, count, npes - 1), npes);
    shmem_barrier_all();
    shmem_ctx_destroy(c);
    shmem_team_destroy(rev);
    shmem_free(sig);
    shmem_free(count);
    shmem_free(cell);
}
END_TEST

START_TEST(team_context_budget)
{
    shmem_team_config_t cfg = {.num_contexts = 2};
    shmem_team_t t;
    ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &cfg,
                                              SHMEM_TEAM_NUM_CONTEXTS, &t), 0);
    shmem_ctx_t a, b, c = SHMEM_CTX_INVALID;
    ck_assert_int_eq(shmem_team_create_ctx(t, 0, &a), 0);
    ck_assert_int_eq(shmem_team_create_ctx(t, SHMEM_CTX_SERIALIZED, &b), 0);
    ck_assert_int_ne(shmem_team_create_ctx(t, 0, &c), 0);   /* over budget everywhere */
    ck_assert_ptr_eq(c, SHMEM_CTX_INVALID);
    shmem_ctx_destroy(a);
    ck_assert_int_eq(shmem_team_create_ctx(t, 0, &c), 0);   /* room again */
    /* Destroying the team destroys its (shareable) contexts b and c. */
    shmem_team_destroy(t);
}
END_TEST

START_TEST(batch_session_delivers_everything)
{
    enum { N = 20000 };  /* 20000 x 24 B staged > the 256 KiB ring: wraps */
    long *dst = shmem_calloc(3 * N, sizeof(long));
    shmem_ctx_t c;
    ck_assert_int_eq(shmem_ctx_create(SHMEM_CTX_PRIVATE, &c), 0);
    shmem_barrier_all();
    shmem_ctx_session_config_t cfg = {.total_ops = N};
    shmem_ctx_session_start(c, SHMEM_CTX_SESSION_BATCH, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS);
    shmem_ctx_session_start(c, SHMEM_CTX_SESSION_SAME_AMO, NULL, 0); /* options combine */
    int right = (me + 1) % npes;
    for (long i = 0; i < N; i++) {
        long v[3] = {i, -i, me};
        shmem_ctx_long_put(c, &dst[3 * i], v, 3, right); /* v dies each iteration */
    }
    shmem_ctx_session_stop(c);
    shmem_ctx_quiet(c);
    shmem_barrier_all();
    int left = (me + npes - 1) % npes;
    for (long i = 0; i < N; i++) {
        ck_assert_int_eq(dst[3 * i], i);
        ck_assert_int_eq(dst[3 * i + 1], -i);
        ck_assert_int_eq(dst[3 * i + 2], left);
    }
    /* Every PE has checked its dst before the left one writes 77 into it
     * (without this barrier a PE descheduled before its first check saw
     * 77: 4 PEs on 2 nodes, Open MPI 5.0.7). */
    shmem_barrier_all();
    /* The default context may hold a session too. */
    shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    shmem_long_p(&dst[0], 77, right);
    shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
    shmem_barrier_all();
    ck_assert_int_eq(dst[0], 77);
    shmem_ctx_destroy(c);
    shmem_free(dst);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ctx_api");
    TCase *tc = tcase_create("ctx");
    tcase_set_timeout(tc, 0);
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, create_destroy_options);
    tcase_add_test(tc, invalid_context_does_nothing);
    tcase_add_test(tc, team_context_addresses_team_pes);
    tcase_add_test(tc, team_context_budget);
    tcase_add_test(tc, batch_session_delivers_everything);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
