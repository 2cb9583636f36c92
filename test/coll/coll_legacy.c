/*
 * coll_legacy: the deprecated active-set collectives on several active
 * sets (all PEs, evens, odds, stride 4, the upper half, each PE alone),
 * each set twice over, with one pSync per set reused as the spec allows:
 * a shmem_barrier on the set (whose own pSync is reused back to back)
 * separates two uses.  After every call each pSync must still hold
 * SHMEM_SYNC_VALUE everywhere.
 *
 *   shmem_broadcast32/64 (the root's dest stays untouched), collect32/64,
 *   fcollect32/64, alltoall32/64, alltoalls32/64, every
 *   shmem_TYPENAME_OP_to_all of the active-set table (in place too),
 *   shmem_barrier (completes puts) and shmem_sync (makes completed puts
 *   visible), and the communicator cache (white box: repeated lookups of a
 *   set return the same communicator).
 */
#include "coll_common.h"
#include "coll_values.h"
#include "../../lib/coll/coll.h"

#define NE 3 /* elements per PE and block */
#define NR 5 /* elements reduced */
#define CODE(w, j, i) ((((w) * 37 + (j) * 11 + (i) * 3 + 5) % 97) + 1)
#define UNTOUCHED 99
/* 64-bit values use their high half, so a 32-bit copy shows. */
#define VALUE(BITS, code)                                                                  \
    ((uint##BITS##_t)(code) | (uint##BITS##_t)((uint64_t)(code) << (BITS - 24)))

typedef struct {
    int start, log, size;
    const char *name;
} aset_t;

enum { MAX_SETS = 6, WRK_BYTES = 16 * (NR / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE) };
static long g_psync[MAX_SETS][SHMEM_SYNC_SIZE];
static long g_pbar[MAX_SETS][SHMEM_BARRIER_SYNC_SIZE];
static long double g_wrk[MAX_SETS][WRK_BYTES / 16];
static int g_flag[MAX_SETS];
static uint64_t g_src[COLL_GLOBAL_PES * NE * 3 + 16], g_dst[COLL_GLOBAL_PES * NE * 3 + 16];

static const aset_t *cur;
static int cur_si;

static int make_sets(aset_t *s)
{
    int n = shmem_n_pes(), c = 0;
    s[c++] = (aset_t){0, 0, n, "all"};
    s[c++] = (aset_t){0, 1, (n + 1) / 2, "evens"};
    if (n >= 2) {
        s[c++] = (aset_t){1, 1, n / 2, "odds"};
        s[c++] = (aset_t){n / 2, 0, n - n / 2, "upper half"};
    }
    s[c++] = (aset_t){0, 2, (n + 3) / 4, "stride 4"};
    s[c++] = (aset_t){shmem_my_pe(), 0, 1, "alone"};
    return c;
}

/* Position of world PE pe in the set, or -1. */
static int member(const aset_t *a, int pe)
{
    int d = pe - a->start;
    if (d < 0 || d % (1 << a->log) != 0 || d >> a->log >= a->size)
        return -1;
    return d >> a->log;
}

static int world_of(const aset_t *a, int k) { return a->start + (k << a->log); }

static void check_psync(const char *after)
{
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
        if (g_psync[cur_si][i] != SHMEM_SYNC_VALUE)
            coll_fail("set %s: after %s, pSync[%d] is %ld, not SHMEM_SYNC_VALUE", cur->name,
                      after, i, g_psync[cur_si][i]);
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        if (g_pbar[cur_si][i] != SHMEM_SYNC_VALUE)
            coll_fail("set %s: after %s, the barrier's pSync[%d] is %ld", cur->name, after, i,
                      g_pbar[cur_si][i]);
}

/* Lets the set's pSync be used again: every member has finished the call
 * that used it. */
static void settle(const char *after)
{
    check_psync(after);
    shmem_barrier(cur->start, cur->log, cur->size, g_pbar[cur_si]);
    check_psync("shmem_barrier");
}

#define EXPECT(what, got, want, at)                                                        \
    do {                                                                                   \
        unsigned long long g_ = (got), w_ = (want);                                        \
        if (g_ != w_)                                                                      \
            coll_fail("set %s: %s: element %d is 0x%llx, expected 0x%llx", cur->name,      \
                      what, (int)(at), g_, w_);                                            \
    } while (0)

#define DEFINE_LEGACY_DATA(BITS)                                                           \
    static void data##BITS(void *vsrc, void *vdst, int round)                              \
    {                                                                                      \
        uint##BITS##_t *src = vsrc, *dst = vdst, u = VALUE(BITS, UNTOUCHED);               \
        const aset_t *a = cur;                                                             \
        int n = a->size, w = shmem_my_pe(), me = member(a, w), span = n * NE * 3;          \
        int cnt = me % 3, root = (round + n - 1) % n, rw = world_of(a, root);              \
        long *ps = g_psync[cur_si];                                                        \
        for (int i = 0; i < span + 8; i++)                                                 \
            dst[i] = u;                                                                    \
        for (int i = 0; i < NE; i++)                                                       \
            src[i] = VALUE(BITS, CODE(w, round, i));                                       \
        shmem_broadcast##BITS(dst, src, NE, root, a->start, a->log, n, ps);                \
        for (int i = 0; i < NE; i++)                                                       \
            EXPECT("broadcast" #BITS, dst[i],                                              \
                   me == root ? u : VALUE(BITS, CODE(rw, round, i)), i);                   \
        EXPECT("broadcast" #BITS " (past the end)", dst[NE], u, NE);                       \
        settle("broadcast" #BITS);                                                         \
        shmem_broadcast##BITS(dst + NE, src, 0, root, a->start, a->log, n, ps);            \
        EXPECT("broadcast" #BITS " of 0", dst[NE], u, NE);                                 \
        for (int i = 0; i < NE; i++)                                                       \
            src[i] = VALUE(BITS, CODE(w, 3, i));                                           \
        shmem_fcollect##BITS(dst, src, NE, a->start, a->log, n, ps);                       \
        for (int k = 0; k < n; k++)                                                        \
            for (int i = 0; i < NE; i++)                                                   \
                EXPECT("fcollect" #BITS, dst[k * NE + i],                                  \
                       VALUE(BITS, CODE(world_of(a, k), 3, i)), k * NE + i);               \
        EXPECT("fcollect" #BITS " (past the end)", dst[n * NE], u, n * NE);                \
        settle("fcollect" #BITS);                                                          \
        for (int i = 0; i < cnt; i++)                                                      \
            src[i] = VALUE(BITS, CODE(w, 5, i));                                           \
        shmem_collect##BITS(dst, src, cnt, a->start, a->log, n, ps);                       \
        for (int k = 0, at = 0; k < n; k++)                                                \
            for (int i = 0; i < k % 3; i++, at++)                                          \
                EXPECT("collect" #BITS, dst[at], VALUE(BITS, CODE(world_of(a, k), 5, i)),  \
                       at);                                                                \
        settle("collect" #BITS);                                                           \
        for (int j = 0; j < n; j++)                                                        \
            for (int i = 0; i < NE; i++)                                                   \
                src[j * NE + i] = VALUE(BITS, CODE(w, 10 + j, i));                         \
        shmem_alltoall##BITS(dst, src, NE, a->start, a->log, n, ps);                       \
        for (int k = 0; k < n; k++)                                                        \
            for (int i = 0; i < NE; i++)                                                   \
                EXPECT("alltoall" #BITS, dst[k * NE + i],                                  \
                       VALUE(BITS, CODE(world_of(a, k), 10 + me, i)), k * NE + i);         \
        settle("alltoall" #BITS);                                                          \
        for (int i = 0; i < span + 8; i++)                                                 \
            dst[i] = u;                                                                    \
        for (int j = 0; j < n; j++)                                                        \
            for (int i = 0; i < NE; i++)                                                   \
                src[(j * NE + i) * 3] = VALUE(BITS, CODE(w, 20 + j, i));                   \
        shmem_alltoalls##BITS(dst, src, 2, 3, NE, a->start, a->log, n, ps);                \
        for (int k = 0; k < n; k++)                                                        \
            for (int i = 0; i < NE; i++) {                                                 \
                EXPECT("alltoalls" #BITS, dst[(k * NE + i) * 2],                           \
                       VALUE(BITS, CODE(world_of(a, k), 20 + me, i)), (k * NE + i) * 2);   \
                EXPECT("alltoalls" #BITS " (between strides)", dst[(k * NE + i) * 2 + 1],  \
                       u, (k * NE + i) * 2 + 1);                                           \
            }                                                                              \
        settle("alltoalls" #BITS);                                                         \
    }
DEFINE_LEGACY_DATA(32)
DEFINE_LEGACY_DATA(64)

/* shmem_TYPENAME_OP_to_all, out of place and in place, and of 0 elements. */
#define DEFINE_TO_ALL(T, N, OP)                                                            \
    static void to_all_##OP##_##N(void *vsrc, void *vdst)                                  \
    {                                                                                      \
        static const char what[] = "shmem_" #N "_" #OP "_to_all";                          \
        const aset_t *a = cur;                                                             \
        T *src = vsrc, *dst = vdst, want[NR], *pWrk = (T *)g_wrk[cur_si];                  \
        long *ps = g_psync[cur_si];                                                        \
        int w = shmem_my_pe();                                                             \
        for (int i = 0; i < NR; i++) {                                                     \
            src[i] = VAL_##OP(T, w, i);                                                    \
            dst[i] = (T)UNTOUCHED;                                                         \
            for (int k = 0; k < a->size; k++) {                                            \
                T v = VAL_##OP(T, world_of(a, k), i);                                      \
                want[i] = k == 0 ? v : (T)FOLD_##OP(want[i], v);                           \
            }                                                                              \
        }                                                                                  \
        dst[NR] = (T)UNTOUCHED;                                                            \
        shmem_##N##_##OP##_to_all(dst, src, NR, a->start, a->log, a->size, pWrk, ps);      \
        for (int i = 0; i < NR; i++)                                                       \
            if (!(dst[i] == want[i]))                                                      \
                coll_fail("set %s: %s: element %d is %Lg, expected %Lg", a->name, what, i, \
                          COLL_REAL(dst[i]), COLL_REAL(want[i]));                          \
        if (!(dst[NR] == (T)UNTOUCHED))                                                    \
            coll_fail("set %s: %s wrote past the end", a->name, what);                     \
        settle(what);                                                                      \
        for (int i = 0; i < NR; i++)                                                       \
            dst[i] = src[i];                                                               \
        shmem_##N##_##OP##_to_all(dst, dst, NR, a->start, a->log, a->size, pWrk, ps);      \
        for (int i = 0; i < NR; i++)                                                       \
            if (!(dst[i] == want[i]))                                                      \
                coll_fail("set %s: %s in place: element %d is %Lg, expected %Lg", a->name, \
                          what, i, COLL_REAL(dst[i]), COLL_REAL(want[i]));                 \
        settle(what);                                                                      \
        shmem_##N##_##OP##_to_all(dst + NR, src, 0, a->start, a->log, a->size, pWrk, ps);  \
        if (!(dst[NR] == (T)UNTOUCHED))                                                    \
            coll_fail("set %s: %s of 0 elements wrote", a->name, what);                    \
    }
#define FOR_TO_ALL(X)                                                                      \
    MPISHMEM_TO_ALL_BIT_TYPES(X, and) MPISHMEM_TO_ALL_BIT_TYPES(X, or)                     \
    MPISHMEM_TO_ALL_BIT_TYPES(X, xor) MPISHMEM_TO_ALL_ARITH_TYPES(X, max)                  \
    MPISHMEM_TO_ALL_ARITH_TYPES(X, min) MPISHMEM_TO_ALL_SUM_TYPES(X, sum)                  \
    MPISHMEM_TO_ALL_SUM_TYPES(X, prod)
FOR_TO_ALL(DEFINE_TO_ALL)

#define TO_ALL_ENTRY(T, N, OP) to_all_##OP##_##N,
static void (*const to_all_cases[])(void *, void *) = {FOR_TO_ALL(TO_ALL_ENTRY) NULL};

/* shmem_barrier completes a put issued just before it; shmem_sync makes a
 * put completed by shmem_quiet visible. */
static void barrier_and_sync(int round)
{
    const aset_t *a = cur;
    int me = member(a, shmem_my_pe()), n = a->size;
    int next = world_of(a, (me + 1) % n), prev = world_of(a, (me + n - 1) % n);
    int value = 100 * cur_si + 10 * round + 1;
    shmem_int_p(&g_flag[cur_si], value, next);
    shmem_barrier(a->start, a->log, n, g_pbar[cur_si]);
    if (((volatile int *)g_flag)[cur_si] != value)
        coll_fail("set %s: after shmem_barrier the flag from PE %d is %d, expected %d",
                  a->name, prev, g_flag[cur_si], value);
    shmem_barrier(a->start, a->log, n, g_pbar[cur_si]);
    shmem_int_p(&g_flag[cur_si], value + 1, next);
    shmem_quiet();
    shmem_sync(a->start, a->log, n, g_pbar[cur_si]);
    if (((volatile int *)g_flag)[cur_si] != value + 1)
        coll_fail("set %s: after shmem_sync the flag from PE %d is %d, expected %d", a->name,
                  prev, g_flag[cur_si], value + 1);
    shmem_sync(a->start, a->log, n, g_pbar[cur_si]);
    check_psync("shmem_sync");
}

/* Runs body(src, dst, round) on every set this PE is in, twice, heap and
 * global buffers in turn. */
static void on_every_set(void (*body)(void *src, void *dst, int round))
{
    aset_t sets[MAX_SETS];
    int count = make_sets(sets), npes = shmem_n_pes();
    size_t bytes = 8 * ((size_t)npes * NE * 3 + 16);
    void *h_src = shmem_malloc(bytes), *h_dst = shmem_malloc(bytes);
    ck_assert(h_src != NULL && h_dst != NULL);
    for (int s = 0; s < MAX_SETS; s++) {
        for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
            g_psync[s][i] = SHMEM_SYNC_VALUE;
        for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
            g_pbar[s][i] = SHMEM_SYNC_VALUE;
    }
    shmem_barrier_all(); /* every pSync is initialized before first use */
    for (int s = 0; s < count; s++) {
        cur = &sets[s];
        cur_si = s;
        int global = s % 2 == 1 && npes <= COLL_GLOBAL_PES;
        if (member(cur, shmem_my_pe()) >= 0)
            for (int round = 0; round < 2; round++)
                body(global ? (void *)g_src : h_src, global ? (void *)g_dst : h_dst, round);
        shmem_barrier_all();
    }
    shmem_free(h_dst);
    shmem_free(h_src);
}

static void body_data(void *src, void *dst, int round)
{
    data32(src, dst, round);
    data64(src, dst, round);
}

static void body_to_all(void *src, void *dst, int round)
{
    (void)round;
    for (int c = 0; to_all_cases[c] != NULL; c++)
        to_all_cases[c](src, dst);
}

static void body_sync(void *src, void *dst, int round)
{
    (void)src;
    (void)dst;
    barrier_and_sync(round);
}

/* Repeated lookups of one set give the same communicator; another set
 * another one.  The first lookup makes it: collective over the set. */
static void body_cache(void *src, void *dst, int round)
{
    (void)src;
    (void)dst;
    const aset_t *a = cur;
    mpishmem_coll_comm_t *c1 = mpishmem_active_set("coll_legacy", a->start, a->log, a->size,
                                                   g_psync[cur_si], SHMEM_SYNC_SIZE);
    mpishmem_coll_comm_t *c2 = mpishmem_active_set("coll_legacy", a->start, a->log, a->size,
                                                   g_psync[cur_si], SHMEM_SYNC_SIZE);
    if (c1 != c2 || c1->comm != c2->comm)
        coll_fail("set %s, round %d: a second lookup made another communicator", a->name,
                  round);
    if (c1->n != a->size || c1->me != member(a, shmem_my_pe()))
        coll_fail("set %s: communicator of %d PEs with this PE at %d, expected %d and %d",
                  a->name, c1->n, c1->me, a->size, member(a, shmem_my_pe()));
    if (a->size < shmem_n_pes() && c1->comm == mpishmem_active_set("coll_legacy", 0, 0,
                                                                   shmem_n_pes(), g_psync[0],
                                                                   SHMEM_SYNC_SIZE)->comm)
        coll_fail("set %s shares the communicator of all PEs", a->name);
}

START_TEST(test_legacy_data)
{
    COLL_BEGIN();
    on_every_set(body_data);
    COLL_END();
}
END_TEST

START_TEST(test_legacy_to_all)
{
    COLL_BEGIN();
    on_every_set(body_to_all);
    COLL_END();
}
END_TEST

START_TEST(test_legacy_sync)
{
    COLL_BEGIN();
    on_every_set(body_sync);
    COLL_END();
}
END_TEST

START_TEST(test_legacy_cache)
{
    COLL_BEGIN();
    on_every_set(body_cache);
    COLL_END();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("coll_legacy");
    TCase *tc = tcase_create("active_set");
    tcase_add_test(tc, test_legacy_cache);
    tcase_add_test(tc, test_legacy_data);
    tcase_add_test(tc, test_legacy_to_all);
    tcase_add_test(tc, test_legacy_sync);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
