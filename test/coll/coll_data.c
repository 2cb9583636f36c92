/*
 * coll_data: the team data-movement collectives for every type of the
 * standard RMA types table, in every calling form:
 *   typed    shmem_TYPENAME_{broadcast,collect,fcollect,alltoall,alltoalls}
 *   mem      shmem_{broadcast,collect,fcollect,alltoall,alltoalls}mem
 *   generic  C11 shmem_{broadcast,...}(team, dest, ...)  (generic types)
 * on the teams of coll_teams_make (world, strided, both 2D axes,
 * singletons; the C11 forms on the first two), alternating heap and
 * global buffers.  Each routine
 * runs out of place, in place and with zero elements, and must return
 * nonzero for SHMEM_TEAM_INVALID.  Values depend on the sending PE, the
 * receiving PE and the element, so a block in the wrong place, a short
 * copy or a write past the end of dest shows.
 *
 * Also shmem_team_sync, on every team (the full-size created team and
 * SHMEM_TEAM_SHARED too): stores and completed puts are visible after it.
 */
#include "coll_common.h"

#define NE 3 /* elements per PE and block */
/* What world PE w sends in block j, element i: 1..97, exact in every
 * type; 99 marks dest elements that must not be written. */
#define CODE(w, j, i) ((((w) * 37 + (j) * 11 + (i) * 3 + 5) % 97) + 1)
#define UNTOUCHED 99

static const char *cur_team;

#define CALL_typed(N, OP, ...) shmem_##N##_##OP(__VA_ARGS__)
#define CALL_mem(N, OP, ...) shmem_##OP##mem(__VA_ARGS__)
#define CALL_generic(N, OP, ...) COLL_DEFER(shmem_##OP)(__VA_ARGS__)

/* dst[at] must hold the value of code `code`. */
#define EXPECT_AT(T, MODE, what, dst, at, code)                                            \
    do {                                                                                   \
        T want_ = COLL_VAL(T, code);                                                       \
        if (!((dst)[at] == want_))                                                         \
            coll_fail("%s %s on team %s: dest[%d] is %Lg, expected %Lg", #MODE, what,      \
                      cur_team, (int)(at), COLL_REAL((dst)[at]), COLL_REAL(want_));        \
    } while (0)
#define EXPECT_RC(MODE, what, rc, ok)                                                      \
    do {                                                                                   \
        if ((rc == 0) != (ok))                                                             \
            coll_fail("%s %s on team %s returned %d", #MODE, what, cur_team, rc);          \
    } while (0)

#define DEFINE_DATA(T, N, MODE)                                                            \
    static void data_##MODE##_##N(shmem_team_t team, void *vsrc, void *vdst)               \
    {                                                                                      \
        T *src = vsrc, *dst = vdst;                                                        \
        int n = shmem_team_n_pes(team), me = shmem_team_my_pe(team), w = shmem_my_pe();    \
        int rc, span = n * NE * 3, off = 0, cnt = me % 3;                                  \
        for (int i = 0; i < span + 8; i++)                                                 \
            dst[i] = COLL_VAL(T, UNTOUCHED);                                               \
        /* broadcast from the first and the last PE: every dest written */                 \
        for (int r = 0; r < 2; r++) {                                                      \
            int root = r ? n - 1 : 0, rw = coll_world(team, root);                         \
            for (int i = 0; i < NE; i++)                                                   \
                src[i] = COLL_VAL(T, CODE(w, r, i));                                       \
            rc = CALL_##MODE(N, broadcast, team, dst, src, NE, root);                      \
            EXPECT_RC(MODE, "broadcast", rc, 1);                                           \
            for (int i = 0; i < NE; i++)                                                   \
                EXPECT_AT(T, MODE, "broadcast", dst, i, CODE(rw, r, i));                   \
            EXPECT_AT(T, MODE, "broadcast (past the end)", dst, NE, UNTOUCHED);            \
        }                                                                                  \
        for (int i = 0; i < NE; i++) /* in place, from the last PE */                      \
            dst[i] = COLL_VAL(T, CODE(w, 2, i));                                           \
        rc = CALL_##MODE(N, broadcast, team, dst, dst, NE, n - 1);                         \
        EXPECT_RC(MODE, "broadcast in place", rc, 1);                                      \
        for (int i = 0; i < NE; i++)                                                       \
            EXPECT_AT(T, MODE, "broadcast in place", dst, i,                               \
                      CODE(coll_world(team, n - 1), 2, i));                                \
        rc = CALL_##MODE(N, broadcast, team, dst + NE, src, 0, 0);                         \
        EXPECT_RC(MODE, "broadcast of 0", rc, 1);                                          \
        EXPECT_AT(T, MODE, "broadcast of 0", dst, NE, UNTOUCHED);                          \
        rc = CALL_##MODE(N, broadcast, SHMEM_TEAM_INVALID, dst, src, NE, 0);               \
        EXPECT_RC(MODE, "broadcast on SHMEM_TEAM_INVALID", rc, 0);                         \
        /* fcollect, out of place and with dest == source */                               \
        for (int i = 0; i < NE; i++)                                                       \
            src[i] = COLL_VAL(T, CODE(w, 3, i));                                           \
        rc = CALL_##MODE(N, fcollect, team, dst, src, NE);                                 \
        EXPECT_RC(MODE, "fcollect", rc, 1);                                                \
        for (int k = 0; k < n; k++)                                                        \
            for (int i = 0; i < NE; i++)                                                   \
                EXPECT_AT(T, MODE, "fcollect", dst, k * NE + i,                            \
                          CODE(coll_world(team, k), 3, i));                                \
        EXPECT_AT(T, MODE, "fcollect (past the end)", dst, n * NE, UNTOUCHED);             \
        for (int i = 0; i < NE; i++)                                                       \
            dst[i] = COLL_VAL(T, CODE(w, 4, i));                                           \
        rc = CALL_##MODE(N, fcollect, team, dst, dst, NE);                                 \
        EXPECT_RC(MODE, "fcollect in place", rc, 1);                                       \
        for (int k = 0; k < n; k++)                                                        \
            for (int i = 0; i < NE; i++)                                                   \
                EXPECT_AT(T, MODE, "fcollect in place", dst, k * NE + i,                   \
                          CODE(coll_world(team, k), 4, i));                                \
        rc = CALL_##MODE(N, fcollect, team, dst + n * NE, src, 0);                         \
        EXPECT_RC(MODE, "fcollect of 0", rc, 1);                                           \
        EXPECT_AT(T, MODE, "fcollect of 0", dst, n * NE, UNTOUCHED);                       \
        rc = CALL_##MODE(N, fcollect, SHMEM_TEAM_INVALID, dst, src, NE);                   \
        EXPECT_RC(MODE, "fcollect on SHMEM_TEAM_INVALID", rc, 0);                          \
        /* collect: team PE k gives k % 3 elements (some give none); then in               \
         * place: dest == source, and source already in this PE's block */                 \
        for (int i = 0; i < cnt; i++)                                                      \
            src[i] = COLL_VAL(T, CODE(w, 5, i));                                           \
        rc = CALL_##MODE(N, collect, team, dst, src, cnt);                                 \
        EXPECT_RC(MODE, "collect", rc, 1);                                                 \
        for (int k = 0, at = 0; k < n; k++)                                                \
            for (int i = 0; i < k % 3; i++, at++)                                          \
                EXPECT_AT(T, MODE, "collect", dst, at, CODE(coll_world(team, k), 5, i));   \
        for (int i = 0; i < cnt; i++)                                                      \
            dst[i] = COLL_VAL(T, CODE(w, 7, i));                                           \
        rc = CALL_##MODE(N, collect, team, dst, dst, cnt);                                 \
        EXPECT_RC(MODE, "collect with dest == source", rc, 1);                             \
        for (int k = 0, at = 0; k < n; k++)                                                \
            for (int i = 0; i < k % 3; i++, at++)                                          \
                EXPECT_AT(T, MODE, "collect with dest == source", dst, at,                 \
                          CODE(coll_world(team, k), 7, i));                                \
        for (int k = 0; k < me; k++)                                                       \
            off += k % 3;                                                                  \
        for (int i = 0; i < cnt; i++)                                                      \
            dst[off + i] = COLL_VAL(T, CODE(w, 6, i));                                     \
        rc = CALL_##MODE(N, collect, team, dst, dst + off, cnt);                           \
        EXPECT_RC(MODE, "collect from its own block", rc, 1);                              \
        for (int k = 0, at = 0; k < n; k++)                                                \
            for (int i = 0; i < k % 3; i++, at++)                                          \
                EXPECT_AT(T, MODE, "collect from its own block", dst, at,                  \
                          CODE(coll_world(team, k), 6, i));                                \
        rc = CALL_##MODE(N, collect, SHMEM_TEAM_INVALID, dst, src, cnt);                   \
        EXPECT_RC(MODE, "collect on SHMEM_TEAM_INVALID", rc, 0);                           \
        /* alltoall: block j of PE w's source goes to team PE j */                         \
        for (int j = 0; j < n; j++)                                                        \
            for (int i = 0; i < NE; i++)                                                   \
                src[j * NE + i] = COLL_VAL(T, CODE(w, 10 + j, i));                         \
        rc = CALL_##MODE(N, alltoall, team, dst, src, NE);                                 \
        EXPECT_RC(MODE, "alltoall", rc, 1);                                                \
        for (int k = 0; k < n; k++)                                                        \
            for (int i = 0; i < NE; i++)                                                   \
                EXPECT_AT(T, MODE, "alltoall", dst, k * NE + i,                            \
                          CODE(coll_world(team, k), 10 + me, i));                          \
        for (int i = 0; i < n * NE; i++)                                                   \
            dst[i] = src[i];                                                               \
        rc = CALL_##MODE(N, alltoall, team, dst, dst, NE);                                 \
        EXPECT_RC(MODE, "alltoall in place", rc, 1);                                       \
        for (int k = 0; k < n; k++)                                                        \
            for (int i = 0; i < NE; i++)                                                   \
                EXPECT_AT(T, MODE, "alltoall in place", dst, k * NE + i,                   \
                          CODE(coll_world(team, k), 10 + me, i));                          \
        EXPECT_AT(T, MODE, "alltoall (past the end)", dst, n * NE, UNTOUCHED);             \
        rc = CALL_##MODE(N, alltoall, team, dst + n * NE, src, 0);                         \
        EXPECT_RC(MODE, "alltoall of 0", rc, 1);                                           \
        EXPECT_AT(T, MODE, "alltoall of 0", dst, n * NE, UNTOUCHED);                       \
        rc = CALL_##MODE(N, alltoall, SHMEM_TEAM_INVALID, dst, src, NE);                   \
        EXPECT_RC(MODE, "alltoall on SHMEM_TEAM_INVALID", rc, 0);                          \
        /* alltoalls: source stride 3, dest stride 2 (odd elements untouched) */           \
        for (int i = 0; i < span + 8; i++)                                                 \
            dst[i] = COLL_VAL(T, UNTOUCHED);                                               \
        for (int j = 0; j < n; j++)                                                        \
            for (int i = 0; i < NE; i++)                                                   \
                src[(j * NE + i) * 3] = COLL_VAL(T, CODE(w, 20 + j, i));                   \
        rc = CALL_##MODE(N, alltoalls, team, dst, src, 2, 3, NE);                          \
        EXPECT_RC(MODE, "alltoalls", rc, 1);                                               \
        for (int k = 0; k < n; k++)                                                        \
            for (int i = 0; i < NE; i++) {                                                 \
                EXPECT_AT(T, MODE, "alltoalls", dst, (k * NE + i) * 2,                     \
                          CODE(coll_world(team, k), 20 + me, i));                          \
                EXPECT_AT(T, MODE, "alltoalls (between strides)", dst,                     \
                          (k * NE + i) * 2 + 1, UNTOUCHED);                                \
            }                                                                              \
        /* in place with equal strides */                                                  \
        for (int j = 0; j < n; j++)                                                        \
            for (int i = 0; i < NE; i++)                                                   \
                dst[(j * NE + i) * 2] = COLL_VAL(T, CODE(w, 30 + j, i));                   \
        rc = CALL_##MODE(N, alltoalls, team, dst, dst, 2, 2, NE);                          \
        EXPECT_RC(MODE, "alltoalls in place", rc, 1);                                      \
        for (int k = 0; k < n; k++)                                                        \
            for (int i = 0; i < NE; i++) {                                                 \
                EXPECT_AT(T, MODE, "alltoalls in place", dst, (k * NE + i) * 2,            \
                          CODE(coll_world(team, k), 30 + me, i));                          \
                EXPECT_AT(T, MODE, "alltoalls in place (between strides)", dst,            \
                          (k * NE + i) * 2 + 1, UNTOUCHED);                                \
            }                                                                              \
        rc = CALL_##MODE(N, alltoalls, team, dst + span, src, 1, 1, 0);                    \
        EXPECT_RC(MODE, "alltoalls of 0", rc, 1);                                          \
        EXPECT_AT(T, MODE, "alltoalls of 0", dst, span, UNTOUCHED);                        \
        rc = CALL_##MODE(N, alltoalls, SHMEM_TEAM_INVALID, dst, src, 1, 1, NE);            \
        EXPECT_RC(MODE, "alltoalls on SHMEM_TEAM_INVALID", rc, 0);                         \
    }

#define DEFINE_DATA_typed(T, N, A) DEFINE_DATA(T, N, typed)
#define DEFINE_DATA_generic(T, N, A) DEFINE_DATA(T, N, generic)
MPISHMEM_RMA_TYPES(DEFINE_DATA_typed, _)
COLL_EVAL(MPISHMEM_RMA_GENERIC_TYPES(DEFINE_DATA_generic, _))
DEFINE_DATA(unsigned char, uchar, mem)

typedef struct {
    const char *name;
    void (*fn)(shmem_team_t team, void *src, void *dst);
} data_case_t;

#define DATA_ENTRY(T, N, MODE) {#MODE " " #N, data_##MODE##_##N},
static const data_case_t data_typed[] = {MPISHMEM_RMA_TYPES(DATA_ENTRY, typed){NULL, NULL}};
static const data_case_t data_generic[] = {
    MPISHMEM_RMA_GENERIC_TYPES(DATA_ENTRY, generic){NULL, NULL}};
static const data_case_t data_mem[] = {{"mem", data_mem_uchar}, {NULL, NULL}};

/* Every case on the first max_teams teams this PE is in, heap and global
 * buffers in turn.  16-byte elements, n * NE * 3 of them plus slack, fit. */
#define GLOBAL_BYTES (16 * (COLL_GLOBAL_PES * NE * 3 + 16))
static long double g_src[GLOBAL_BYTES / 16], g_dst[GLOBAL_BYTES / 16];

static void run_cases(const data_case_t *cases, int max_teams)
{
    COLL_BEGIN();
    int n = shmem_n_pes();
    size_t bytes = 16 * ((size_t)n * NE * 3 + 16);
    void *h_src = shmem_malloc(bytes), *h_dst = shmem_malloc(bytes);
    ck_assert(h_src != NULL && h_dst != NULL);
    coll_teams_t t;
    coll_teams_make(&t, 0);
    for (int k = 0; k < t.count && k < max_teams; k++) {
        cur_team = t.name[k];
        int global = k % 2 == 1 && n <= COLL_GLOBAL_PES;
        if (t.team[k] != SHMEM_TEAM_INVALID)
            for (const data_case_t *c = cases; c->fn != NULL; c++)
                c->fn(t.team[k], global ? (void *)g_src : h_src,
                      global ? (void *)g_dst : h_dst);
        shmem_barrier_all();
    }
    coll_teams_free(&t);
    shmem_free(h_dst);
    shmem_free(h_src);
    COLL_END();
}

START_TEST(test_data_typed) { run_cases(data_typed, COLL_MAX_TEAMS); }
END_TEST
START_TEST(test_data_mem) { run_cases(data_mem, COLL_MAX_TEAMS); }
END_TEST
/* The C11 forms reach the typed routines tested above: world and the
 * strided team show that they dispatch. */
START_TEST(test_data_generic) { run_cases(data_generic, 2); }
END_TEST

/* shmem_team_sync: each PE puts a round number to its right neighbour in
 * the team and quiets, or stores it directly when it can; after the sync
 * the value from the left neighbour is there.  A second sync keeps the
 * next round from overwriting a value not yet read (the C11 shmem_sync
 * form, which must reach shmem_team_sync). */
static int g_flags[COLL_GLOBAL_PES];

START_TEST(test_team_sync)
{
    COLL_BEGIN();
    int npes = shmem_n_pes(), w = shmem_my_pe();
    int *flags = npes <= COLL_GLOBAL_PES ? g_flags : shmem_calloc((size_t)npes, sizeof(int));
    coll_teams_t t;
    coll_teams_make(&t, 1);
    for (int k = 0; k < t.count; k++) {
        shmem_team_t team = t.team[k];
        cur_team = t.name[k];
        if (team != SHMEM_TEAM_INVALID) {
            int n = shmem_team_n_pes(team), me = shmem_team_my_pe(team);
            int right = coll_world(team, (me + 1) % n), left = coll_world(team, (me + n - 1) % n);
            for (int round = 1; round <= 3; round++) {
                int value = 1000 * k + round;
                int *direct = shmem_ptr(&flags[w], right);
                if (round == 2 && direct != NULL)
                    *(volatile int *)direct = value;
                else {
                    shmem_int_p(&flags[w], value, right);
                    shmem_quiet();
                }
                if (shmem_team_sync(team) != 0)
                    coll_fail("shmem_team_sync on team %s returned nonzero", cur_team);
                if (((volatile int *)flags)[left] != value)
                    coll_fail("after shmem_team_sync on team %s, round %d: flag of PE %d is "
                              "%d, expected %d", cur_team, round, left, flags[left], value);
                /* the C11 generic form, between rounds */
                if (shmem_sync(team) != 0)
                    coll_fail("C11 shmem_sync on team %s returned nonzero", cur_team);
            }
        }
        shmem_barrier_all();
    }
    if (shmem_team_sync(SHMEM_TEAM_INVALID) == 0)
        coll_fail("shmem_team_sync(SHMEM_TEAM_INVALID) returned 0");
    coll_teams_free(&t);
    if (flags != g_flags)
        shmem_free(flags);
    COLL_END();
}
END_TEST

TCase *coll_data_tcase(void)
{
    TCase *tc = tcase_create("data");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_data_typed);
    tcase_add_test(tc, test_data_mem);
    tcase_add_test(tc, test_data_generic);
    tcase_add_test(tc, test_team_sync);
    return tc;
}
