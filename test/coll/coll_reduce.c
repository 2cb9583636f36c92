/*
 * coll_reduce: every team reduction (and, or, xor, max, min, sum, prod) and
 * both sum scans for every type of the team-based reduction table, typed
 * and through the C11 generics, on the teams of coll_teams_make (the C11
 * forms on the first two).  Each runs out of place, in place and with
 * zero elements, and must return nonzero for SHMEM_TEAM_INVALID.  Values
 * and expected results: coll_values.h.
 */
#include "coll_common.h"
#include "coll_values.h"

#define NR 5 /* elements reduced per call */

#define UNTOUCHED 77

static const char *cur_team;

#define CALL_typed(N, OP, ...) shmem_##N##_##OP(__VA_ARGS__)
#define CALL_generic(N, OP, ...) COLL_DEFER(shmem_##OP)(__VA_ARGS__)

#define EXPECT_EQ(T, MODE, what, got, want, i)                                             \
    do {                                                                                   \
        T got_ = (got), want_ = (want);                                                    \
        if (!(got_ == want_))                                                              \
            coll_fail("%s %s on team %s: element %d is %Lg, expected %Lg", #MODE, what,    \
                      cur_team, (int)(i), COLL_REAL(got_), COLL_REAL(want_));              \
    } while (0)
#define EXPECT_RC(MODE, what, rc, ok)                                                      \
    do {                                                                                   \
        if ((rc == 0) != (ok))                                                             \
            coll_fail("%s %s on team %s returned %d", #MODE, what, cur_team, rc);          \
    } while (0)

/* The fold of VAL_OP over team PEs [from, to) (empty: `empty`). */
#define FOLD_TEAM(T, OP, team, from, to, i, empty, out)                                    \
    do {                                                                                   \
        out = (empty);                                                                     \
        for (int k_ = (from); k_ < (to); k_++) {                                           \
            T v_ = VAL_##OP(T, coll_world(team, k_), i);                                   \
            out = k_ == (from) ? v_ : (T)FOLD_##OP(out, v_);                               \
        }                                                                                  \
    } while (0)

#define DEFINE_REDUCE(T, N, OP, MODE)                                                      \
    static void reduce_##MODE##_##OP##_##N(shmem_team_t team, void *vsrc, void *vdst)      \
    {                                                                                      \
        static const char what[] = #N " " #OP "_reduce";                                   \
        T *src = vsrc, *dst = vdst, want[NR];                                              \
        int n = shmem_team_n_pes(team), w = shmem_my_pe(), rc;                             \
        for (int i = 0; i < NR; i++) {                                                     \
            src[i] = VAL_##OP(T, w, i);                                                    \
            dst[i] = (T)UNTOUCHED;                                                         \
            FOLD_TEAM(T, OP, team, 0, n, i, (T)0, want[i]);                                \
        }                                                                                  \
        dst[NR] = (T)UNTOUCHED;                                                            \
        rc = CALL_##MODE(N, OP##_reduce, team, dst, src, NR);                              \
        EXPECT_RC(MODE, what, rc, 1);                                                      \
        for (int i = 0; i < NR; i++) {                                                     \
            EXPECT_EQ(T, MODE, what, dst[i], want[i], i);                                  \
            EXPECT_EQ(T, MODE, "(source kept)", src[i], VAL_##OP(T, w, i), i);             \
        }                                                                                  \
        EXPECT_EQ(T, MODE, "(past the end)", dst[NR], (T)UNTOUCHED, NR);                   \
        for (int i = 0; i < NR; i++)                                                       \
            dst[i] = VAL_##OP(T, w, i);                                                    \
        rc = CALL_##MODE(N, OP##_reduce, team, dst, dst, NR);                              \
        EXPECT_RC(MODE, what, rc, 1);                                                      \
        for (int i = 0; i < NR; i++)                                                       \
            EXPECT_EQ(T, MODE, "in place", dst[i], want[i], i);                            \
        rc = CALL_##MODE(N, OP##_reduce, team, dst + NR, src, 0);                          \
        EXPECT_RC(MODE, what, rc, 1);                                                      \
        EXPECT_EQ(T, MODE, "of 0 elements", dst[NR], (T)UNTOUCHED, NR);                    \
        rc = CALL_##MODE(N, OP##_reduce, SHMEM_TEAM_INVALID, dst, src, NR);                \
        EXPECT_RC(MODE, "on SHMEM_TEAM_INVALID", rc, 0);                                   \
    }

/* Inclusive and exclusive sum scans; on team PE 0 the exclusive scan is 0. */
#define DEFINE_SCAN(T, N, MODE)                                                            \
    static void scan_##MODE##_##N(shmem_team_t team, void *vsrc, void *vdst)               \
    {                                                                                      \
        static const char in[] = #N " sum_inscan", ex[] = #N " sum_exscan";                \
        T *src = vsrc, *dst = vdst, win[NR], wex[NR];                                      \
        int me = shmem_team_my_pe(team), w = shmem_my_pe(), rc;                            \
        for (int i = 0; i < NR; i++) {                                                     \
            src[i] = VAL_sum(T, w, i);                                                     \
            FOLD_TEAM(T, sum, team, 0, me + 1, i, (T)0, win[i]);                           \
            FOLD_TEAM(T, sum, team, 0, me, i, (T)0, wex[i]);                               \
            dst[i] = (T)UNTOUCHED;                                                         \
        }                                                                                  \
        dst[NR] = (T)UNTOUCHED;                                                            \
        rc = CALL_##MODE(N, sum_inscan, team, dst, src, NR);                               \
        EXPECT_RC(MODE, in, rc, 1);                                                        \
        for (int i = 0; i < NR; i++)                                                       \
            EXPECT_EQ(T, MODE, in, dst[i], win[i], i);                                     \
        rc = CALL_##MODE(N, sum_exscan, team, dst, src, NR);                               \
        EXPECT_RC(MODE, ex, rc, 1);                                                        \
        for (int i = 0; i < NR; i++)                                                       \
            EXPECT_EQ(T, MODE, ex, dst[i], wex[i], i);                                     \
        EXPECT_EQ(T, MODE, "scan (past the end)", dst[NR], (T)UNTOUCHED, NR);              \
        for (int i = 0; i < NR; i++)                                                       \
            dst[i] = src[i];                                                               \
        rc = CALL_##MODE(N, sum_inscan, team, dst, dst, NR);                               \
        EXPECT_RC(MODE, in, rc, 1);                                                        \
        for (int i = 0; i < NR; i++)                                                       \
            EXPECT_EQ(T, MODE, "sum_inscan in place", dst[i], win[i], i);                  \
        for (int i = 0; i < NR; i++)                                                       \
            dst[i] = src[i];                                                               \
        rc = CALL_##MODE(N, sum_exscan, team, dst, dst, NR);                               \
        EXPECT_RC(MODE, ex, rc, 1);                                                        \
        for (int i = 0; i < NR; i++)                                                       \
            EXPECT_EQ(T, MODE, "sum_exscan in place", dst[i], wex[i], i);                  \
        rc = CALL_##MODE(N, sum_inscan, team, dst + NR, src, 0);                           \
        EXPECT_RC(MODE, in, rc, 1);                                                        \
        rc = CALL_##MODE(N, sum_exscan, team, dst + NR, src, 0);                           \
        EXPECT_RC(MODE, ex, rc, 1);                                                        \
        EXPECT_EQ(T, MODE, "scan of 0 elements", dst[NR], (T)UNTOUCHED, NR);               \
        rc = CALL_##MODE(N, sum_inscan, SHMEM_TEAM_INVALID, dst, src, NR);                 \
        EXPECT_RC(MODE, "sum_inscan on SHMEM_TEAM_INVALID", rc, 0);                        \
        rc = CALL_##MODE(N, sum_exscan, SHMEM_TEAM_INVALID, dst, src, NR);                 \
        EXPECT_RC(MODE, "sum_exscan on SHMEM_TEAM_INVALID", rc, 0);                        \
    }

/* Instantiate per table, operation and calling form. */
#define R_typed(T, N, OP) DEFINE_REDUCE(T, N, OP, typed)
#define R_generic(T, N, OP) DEFINE_REDUCE(T, N, OP, generic)
#define S_typed(T, N, A) DEFINE_SCAN(T, N, typed)
#define S_generic(T, N, A) DEFINE_SCAN(T, N, generic)
#define FOR_OPS(BIT, ARITH, SUM, X)                                                        \
    BIT(X, and) BIT(X, or) BIT(X, xor) ARITH(X, max) ARITH(X, min) SUM(X, sum) SUM(X, prod)
FOR_OPS(MPISHMEM_REDUCE_BIT_TYPES, MPISHMEM_REDUCE_ARITH_TYPES, MPISHMEM_REDUCE_SUM_TYPES,
        R_typed)
MPISHMEM_REDUCE_SUM_TYPES(S_typed, _)
COLL_EVAL(FOR_OPS(MPISHMEM_REDUCE_BIT_GENERIC_TYPES, MPISHMEM_REDUCE_ARITH_GENERIC_TYPES,
                  MPISHMEM_REDUCE_SUM_GENERIC_TYPES, R_generic))
COLL_EVAL(MPISHMEM_REDUCE_SUM_GENERIC_TYPES(S_generic, _))

typedef struct {
    const char *name;
    void (*fn)(shmem_team_t team, void *src, void *dst);
} reduce_case_t;

#define R_ENTRY_typed(T, N, OP) {"typed " #N " " #OP, reduce_typed_##OP##_##N},
#define R_ENTRY_generic(T, N, OP) {"generic " #N " " #OP, reduce_generic_##OP##_##N},
#define S_ENTRY(T, N, MODE) {#MODE " " #N " scans", scan_##MODE##_##N},
static const reduce_case_t cases_typed[] = {
    FOR_OPS(MPISHMEM_REDUCE_BIT_TYPES, MPISHMEM_REDUCE_ARITH_TYPES, MPISHMEM_REDUCE_SUM_TYPES,
            R_ENTRY_typed)
    MPISHMEM_REDUCE_SUM_TYPES(S_ENTRY, typed){NULL, NULL}};
static const reduce_case_t cases_generic[] = {
    FOR_OPS(MPISHMEM_REDUCE_BIT_GENERIC_TYPES, MPISHMEM_REDUCE_ARITH_GENERIC_TYPES,
            MPISHMEM_REDUCE_SUM_GENERIC_TYPES, R_ENTRY_generic)
    MPISHMEM_REDUCE_SUM_GENERIC_TYPES(S_ENTRY, generic){NULL, NULL}};

static long double g_src[NR + 1], g_dst[NR + 1];

/* Every case on the first max_teams teams this PE is in, heap and global
 * buffers in turn. */
static void run_cases(const reduce_case_t *cases, int max_teams)
{
    COLL_BEGIN();
    void *h_src = shmem_malloc(sizeof g_src), *h_dst = shmem_malloc(sizeof g_dst);
    ck_assert(h_src != NULL && h_dst != NULL);
    coll_teams_t t;
    coll_teams_make(&t, 0);
    for (int k = 0; k < t.count && k < max_teams; k++) {
        cur_team = t.name[k];
        if (t.team[k] != SHMEM_TEAM_INVALID)
            for (const reduce_case_t *c = cases; c->fn != NULL; c++)
                c->fn(t.team[k], k % 2 ? (void *)g_src : h_src, k % 2 ? (void *)g_dst : h_dst);
        shmem_barrier_all();
    }
    coll_teams_free(&t);
    shmem_free(h_dst);
    shmem_free(h_src);
    COLL_END();
}

START_TEST(test_reduce_typed) { run_cases(cases_typed, COLL_MAX_TEAMS); }
END_TEST
/* The C11 forms reach the typed routines: two teams show the dispatch. */
START_TEST(test_reduce_generic) { run_cases(cases_generic, 2); }
END_TEST

TCase *coll_reduce_tcase(void)
{
    TCase *tc = tcase_create("reduce");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_reduce_typed);
    tcase_add_test(tc, test_reduce_generic);
    return tc;
}
