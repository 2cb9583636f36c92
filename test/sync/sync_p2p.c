/*
 * Point-to-point synchronization: every routine of every type in
 * MPISHMEM_P2P_TYPES (through the tables of p2p_ops.c), with every
 * comparison operator and status mask, on values that are already there and
 * on values other PEs deliver (heap and global variables) while the caller
 * waits.  Legacy, signal and C11 forms are in p2p_legacy.c.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>
#include "shmem_check.h"
#include "p2p_ops.h"
#include "soft_check.h"

/* ---- Local semantics ------------------------------------------------------
 * x = {1,2,3,4,5}; scalar forms compare with 3, vector forms with
 * {1,3,3,2,9}.  Bit i of the expectation = element i satisfies. */
#define NV 5
static const long vec_vals[NV] = {1, 3, 3, 2, 9};

static unsigned scalar_expect(int cmp)
{
    switch (cmp) {
    case SHMEM_CMP_EQ: return 0x04;
    case SHMEM_CMP_NE: return 0x1b;
    case SHMEM_CMP_GT: return 0x18;
    case SHMEM_CMP_GE: return 0x1c;
    case SHMEM_CMP_LT: return 0x03;
    default: return 0x07;
    }
}

static unsigned vector_expect(int cmp)
{
    switch (cmp) {
    case SHMEM_CMP_EQ: return 0x05;
    case SHMEM_CMP_NE: return 0x1a;
    case SHMEM_CMP_GT: return 0x08;
    case SHMEM_CMP_GE: return 0x0d;
    case SHMEM_CMP_LT: return 0x12;
    default: return 0x17;
    }
}

/* Status masks: none, exclude the unsatisfied elements, exclude the even
 * elements, exclude all.  Excluded elements get assorted nonzero values. */
enum { MASK_NULL, MASK_UNSAT, MASK_EVEN, MASK_ALL, NMASK };
static const char *const mask_names[NMASK] = {"NULL", "unsatisfied", "even", "all"};

static unsigned make_status(int kind, unsigned sat, int st[NV], const int **status)
{
    unsigned inc = kind == MASK_NULL ? 0x1f : kind == MASK_UNSAT ? sat
                 : kind == MASK_EVEN ? 0x0a : 0;
    for (int i = 0; i < NV; i++)
        st[i] = (inc >> i & 1) ? 0 : (i % 2 ? 1 : -7);
    *status = kind == MASK_NULL ? NULL : st;
    return inc;
}

/* idx[0..cnt) must be exactly the indices in `want`, each once.  Returns
 * whether they were. */
static int check_indices(const size_t *idx, size_t cnt, unsigned want)
{
    unsigned got = 0;
    int before = check_failures;
    CHK(cnt == (size_t)__builtin_popcount(want));
    for (size_t k = 0; k < cnt && k < NV; k++) {
        CHK(idx[k] < NV);
        if (idx[k] >= NV)
            continue;
        CHK(!(got >> idx[k] & 1));
        got |= 1u << idx[k];
    }
    CHK(got == want);
    return check_failures == before;
}

static int check_any(size_t r, unsigned want)
{
    int before = check_failures;
    if (want == 0)
        CHK(r == SIZE_MAX);
    else
        CHK(r < NV && (want >> r & 1));
    return check_failures == before;
}

/* The set forms on x for one operator, scalar or vector, one mask. */
static void local_sets(const p2p_ops_t *o, void *x, int cmp, int vec, int mask)
{
    unsigned sat = vec ? vector_expect(cmp) : scalar_expect(cmp);
    int st[NV];
    const int *status;
    unsigned inc = make_status(mask, sat, st, &status);
    unsigned want = sat & inc;
    int all = (inc & ~sat) == 0;
    size_t idx[NV];
    WHERE("%s %s %s mask=%s", o->name, vec ? "vector" : "scalar", p2p_cmp_name(cmp),
          mask_names[mask]);

    int t_all = vec ? o->test_all_v(x, NV, status, cmp, vec_vals)
                    : o->test_all(x, NV, status, cmp, 3);
    CHK(t_all == all);
    int any_ok = check_any(vec ? o->test_any_v(x, NV, status, cmp, vec_vals)
                               : o->test_any(x, NV, status, cmp, 3), want);
    size_t cnt = vec ? o->test_some_v(x, NV, idx, status, cmp, vec_vals)
                     : o->test_some(x, NV, idx, status, cmp, 3);
    int some_ok = check_indices(idx, cnt, want);

    /* The waits, wherever they cannot block forever, and only if the test
     * forms behaved, so a broken routine fails here instead of hanging. */
    int agreed = t_all == all && any_ok && some_ok;
    if (all && agreed) {
        if (vec)
            o->wait_all_v(x, NV, status, cmp, vec_vals);
        else
            o->wait_all(x, NV, status, cmp, 3);
    }
    if ((want != 0 || inc == 0) && agreed) {
        check_any(vec ? o->wait_any_v(x, NV, status, cmp, vec_vals)
                      : o->wait_any(x, NV, status, cmp, 3), want);
        cnt = vec ? o->wait_some_v(x, NV, idx, status, cmp, vec_vals)
                  : o->wait_some(x, NV, idx, status, cmp, 3);
        check_indices(idx, cnt, want);
    }
    /* The variables themselves are never changed. */
    for (int i = 0; i < NV; i++)
        CHK(o->get(x, i) == i + 1);
}

static void local_type(const p2p_ops_t *o, void *x)
{
    WHERE("%s width/signedness", o->name);
    CHK(o->width_ok(x));
    for (int i = 0; i < NV; i++)
        o->set(x, i, i + 1);
    for (int c = 0; c < 6; c++) {
        int cmp = p2p_cmps[c];
        unsigned sat = scalar_expect(cmp);
        for (int i = 0; i < NV; i++) {
            WHERE("%s test/wait_until %s element %d", o->name, p2p_cmp_name(cmp), i);
            int t = o->test(x, i, cmp, 3);
            CHK(t == (int)(sat >> i & 1));
            if (t && (sat >> i & 1))
                o->wait_until(x, i, cmp, 3);
        }
        if (o->wait_all == NULL)
            continue;
        for (int vec = 0; vec < 2; vec++)
            for (int m = 0; m < NMASK; m++)
                local_sets(o, x, cmp, vec, m);
    }
}

START_TEST(test_local_semantics)
{
    void *x = shmem_malloc(NV * sizeof(long long));
    for (size_t t = 0; t < p2p_nops; t++)
        local_type(&p2p_ops[t], x);
    for (size_t t = 0; t < p2p_legacy_nops; t++)
        local_type(&p2p_legacy_ops[t], x);
    shmem_free(x);
    CHK_DONE();
}
END_TEST

/* nelems == 0: the set is empty whatever the operator (status may be NULL
 * or point anywhere). */
START_TEST(test_nelems_zero)
{
    void *x = shmem_malloc(sizeof(long long));
    int st[1] = {0};
    size_t idx[1] = {12345};
    long v[1] = {0};
    for (size_t t = 0; t < p2p_nops; t++) {
        const p2p_ops_t *o = &p2p_ops[t];
        o->set(x, 0, 0);
        for (int c = 0; c < 6; c++) {
            int cmp = p2p_cmps[c];
            for (int s = 0; s < 2; s++) {
                const int *status = s ? st : NULL;
                WHERE("%s nelems=0 %s status=%s", o->name, p2p_cmp_name(cmp),
                      s ? "array" : "NULL");
                CHK(o->test_all(x, 0, status, cmp, 1) == 1);
                CHK(o->test_all_v(x, 0, status, cmp, v) == 1);
                CHK(o->test_any(x, 0, status, cmp, 1) == SIZE_MAX);
                CHK(o->test_any_v(x, 0, status, cmp, v) == SIZE_MAX);
                CHK(o->test_some(x, 0, idx, status, cmp, 1) == 0);
                CHK(o->test_some_v(x, 0, idx, status, cmp, v) == 0);
                o->wait_all(x, 0, status, cmp, 1);
                o->wait_all_v(x, 0, status, cmp, v);
                CHK(o->wait_any(x, 0, status, cmp, 1) == SIZE_MAX);
                CHK(o->wait_any_v(x, 0, status, cmp, v) == SIZE_MAX);
                CHK(o->wait_some(x, 0, idx, status, cmp, 1) == 0);
                CHK(o->wait_some_v(x, 0, idx, status, cmp, v) == 0);
                CHK(idx[0] == 12345); /* nothing written */
            }
        }
    }
    shmem_free(x);
    CHK_DONE();
}
END_TEST

/* Repeated _any calls on a set where every element is satisfied must
 * eventually return each of them (and never an excluded one). */
#define NF 8
START_TEST(test_any_fairness)
{
    void *x = shmem_malloc(NF * sizeof(long long));
    long vals[NF];
    int st[NF];
    for (int i = 0; i < NF; i++) {
        vals[i] = 4;
        st[i] = i == 5; /* exclude element 5 */
    }
    for (size_t t = 0; t < p2p_nops; t++) {
        const p2p_ops_t *o = &p2p_ops[t];
        for (int i = 0; i < NF; i++)
            o->set(x, i, 4);
        for (int form = 0; form < 4; form++) {
            for (int masked = 0; masked < 2; masked++) {
                const int *status = masked ? st : NULL;
                unsigned want = masked ? 0xdf : 0xff, seen = 0;
                WHERE("%s any fairness form %d masked %d", o->name, form, masked);
                for (int k = 0; k < 16 * NF && seen != want; k++) {
                    size_t r;
                    switch (form) {
                    case 0: r = o->wait_any(x, NF, status, SHMEM_CMP_EQ, 4); break;
                    case 1: r = o->test_any(x, NF, status, SHMEM_CMP_GE, 4); break;
                    case 2: r = o->wait_any_v(x, NF, status, SHMEM_CMP_LE, vals); break;
                    default: r = o->test_any_v(x, NF, status, SHMEM_CMP_EQ, vals); break;
                    }
                    CHK(r < NF && (want >> r & 1));
                    if (r < NF)
                        seen |= 1u << r;
                }
                CHK(seen == want);
            }
        }
    }
    shmem_free(x);
    CHK_DONE();
}
END_TEST

/* ---- Values delivered by the left neighbour ---------------------------- */
enum {
    R_WAIT, R_TEST,
    R_WAIT_ALL, R_WAIT_ANY, R_WAIT_SOME, R_TEST_ALL, R_TEST_ANY, R_TEST_SOME,
    R_WAIT_ALL_V, R_WAIT_ANY_V, R_WAIT_SOME_V, R_TEST_ALL_V, R_TEST_ANY_V, R_TEST_SOME_V,
    NROUTINES
};
static const char *const routine_names[NROUTINES] = {
    "wait_until", "test", "wait_until_all", "wait_until_any", "wait_until_some", "test_all",
    "test_any", "test_some", "wait_until_all_vector", "wait_until_any_vector",
    "wait_until_some_vector", "test_all_vector", "test_any_vector", "test_some_vector"};

#define NR 4 /* elements in a remote set */

static int is_vector(int r) { return r >= R_WAIT_ALL_V; }
static int is_all(int r)
{
    return r == R_WAIT_ALL || r == R_TEST_ALL || r == R_WAIT_ALL_V || r == R_TEST_ALL_V;
}

/* One round for one routine on `arr` (symmetric, 6 * NR elements: one set
 * of NR per operator).  The left neighbour delivers satisfying values to
 * every set while this PE waits (or test-polls) on each in turn.  For the
 * set forms, element e of each set is excluded: for _all it stays
 * unsatisfied, for _any/_some it is satisfied beforehand, so a routine that
 * ignored the mask would hang or report it. */
static char *set_of(const p2p_ops_t *o, void *arr, int c)
{
    return (char *)arr + (size_t)c * NR * o->size;
}

static void remote_round(const p2p_ops_t *o, void *arr, int routine, unsigned n)
{
    int vec = is_vector(routine), single = routine <= R_TEST;
    size_t k = n % NR, e = (k + 2) % NR, idx[NR];
    int st[NR] = {0};
    st[e] = 1;
    for (int c = 0; c < 6; c++) {
        int cmp = p2p_cmps[c];
        for (size_t i = 0; i < NR; i++)
            o->set(set_of(o, arr, c), i, p2p_init(cmp, vec ? i : 0));
        if (!single && !is_all(routine))
            o->set(set_of(o, arr, c), e, p2p_deliver(cmp, vec ? e : 0));
    }
    p2p_handshake();

    /* Sender side, towards the right neighbour. */
    int right = p2p_right();
    for (int c = 0; c < 6; c++) {
        int cmp = p2p_cmps[c];
        void *a = set_of(o, arr, c);
        if (single) {
            o->p(a, 0, p2p_deliver(cmp, 0), right);
        } else if (is_all(routine)) {
            /* Block puts of the elements before and after e. */
            long d[NR];
            for (size_t i = 0; i < NR; i++)
                d[i] = p2p_deliver(cmp, vec ? i : 0);
            o->put(a, d, e, right);
            o->put((char *)a + (e + 1) * o->size, d + e + 1, NR - e - 1, right);
        } else {
            o->p(a, k, p2p_deliver(cmp, vec ? k : 0), right);
        }
    }

    /* Waiter side. */
    for (int c = 0; c < 6; c++) {
        int cmp = p2p_cmps[c];
        void *a = set_of(o, arr, c);
        long cv[NR];
        for (size_t i = 0; i < NR; i++)
            cv[i] = p2p_cmpval(cmp, vec ? i : 0);
        WHERE("%s %s %s on %s", o->name, routine_names[routine], p2p_cmp_name(cmp),
              arr == o->glob ? "global" : "heap");
        size_t r = SIZE_MAX, cnt = 0;
        switch (routine) {
        case R_WAIT: o->wait_until(a, 0, cmp, cv[0]); break;
        case R_TEST: while (!o->test(a, 0, cmp, cv[0])) {} break;
        case R_WAIT_ALL: o->wait_all(a, NR, st, cmp, cv[0]); break;
        case R_WAIT_ALL_V: o->wait_all_v(a, NR, st, cmp, cv); break;
        case R_TEST_ALL: while (!o->test_all(a, NR, st, cmp, cv[0])) {} break;
        case R_TEST_ALL_V: while (!o->test_all_v(a, NR, st, cmp, cv)) {} break;
        case R_WAIT_ANY: r = o->wait_any(a, NR, st, cmp, cv[0]); break;
        case R_WAIT_ANY_V: r = o->wait_any_v(a, NR, st, cmp, cv); break;
        case R_TEST_ANY:
            while ((r = o->test_any(a, NR, st, cmp, cv[0])) == SIZE_MAX) {}
            break;
        case R_TEST_ANY_V:
            while ((r = o->test_any_v(a, NR, st, cmp, cv)) == SIZE_MAX) {}
            break;
        case R_WAIT_SOME: cnt = o->wait_some(a, NR, idx, st, cmp, cv[0]); break;
        case R_WAIT_SOME_V: cnt = o->wait_some_v(a, NR, idx, st, cmp, cv); break;
        case R_TEST_SOME:
            while ((cnt = o->test_some(a, NR, idx, st, cmp, cv[0])) == 0) {}
            break;
        default: while ((cnt = o->test_some_v(a, NR, idx, st, cmp, cv)) == 0) {} break;
        }

        if (single) {
            CHK(o->get(a, 0) == p2p_deliver(cmp, 0));
        } else if (is_all(routine)) {
            for (size_t i = 0; i < NR; i++)
                CHK(o->get(a, i) == (i == e ? p2p_init(cmp, vec ? i : 0)
                                            : p2p_deliver(cmp, vec ? i : 0)));
        } else {
            if (routine == R_WAIT_ANY || routine == R_WAIT_ANY_V || routine == R_TEST_ANY ||
                routine == R_TEST_ANY_V)
                CHK(r == k);
            else if (!(cnt == 1 && idx[0] == k)) {
                /* Which elements were satisfied says which put came when. */
                fprintf(stderr, "PE %d: round %u: %zu found (first %zu), expected only %zu; set:",
                        shmem_my_pe(), n, cnt, cnt ? idx[0] : (size_t)0, k);
                for (size_t i = 0; i < NR; i++)
                    fprintf(stderr, " %ld", o->get(a, i));
                fprintf(stderr, "\n");
                CHK(cnt == 1 && idx[0] == k);
            }
            CHK(o->get(a, k) == p2p_deliver(cmp, vec ? k : 0));
        }
    }
}

static void remote_all(int on_heap)
{
    unsigned n = 0;
    void *heap = shmem_malloc(6 * NR * sizeof(long long));
    for (size_t t = 0; t < p2p_nops + p2p_legacy_nops; t++) {
        const p2p_ops_t *o = t < p2p_nops ? &p2p_ops[t] : &p2p_legacy_ops[t - p2p_nops];
        void *arr = on_heap ? heap : o->glob;
        int nr = o->wait_all ? NROUTINES : R_TEST + 1;
        for (int routine = 0; routine < nr; routine++)
            remote_round(o, arr, routine, n++);
    }
    shmem_barrier_all();
    shmem_free(heap);
    CHK_DONE();
}

START_TEST(test_remote_heap) { remote_all(1); }
END_TEST

START_TEST(test_remote_global) { remote_all(0); }
END_TEST

/* ---- Overlapping wait sets ------------------------------------------------
 * Every PE sets element [me] of one array on every PE (including itself),
 * in a different order on each PE.  Each PE collects the arrivals with
 * repeated _some or _any calls, excluding what it has already seen. */
static void overlap_variant(const p2p_ops_t *o, void *arr, int form)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    size_t n = (size_t)npes, idx[P2P_MAXN];
    int st[P2P_MAXN];
    long vals[P2P_MAXN];
    for (size_t i = 0; i < n; i++) {
        o->set(arr, i, 0);
        st[i] = 0;
        vals[i] = (long)i + 1;
    }
    WHERE("%s overlapping sets form %d on %s", o->name, form,
          arr == o->glob ? "global" : "heap");
    shmem_barrier_all();
    for (int j = 0; j < npes; j++)
        o->p(arr, (size_t)me, me + 1, (me + 1 + j) % npes);

    for (size_t seen = 0; seen < n;) {
        size_t cnt = 0, r;
        switch (form) {
        case 0: cnt = o->wait_some(arr, n, idx, st, SHMEM_CMP_NE, 0); break;
        case 1: while ((cnt = o->test_some_v(arr, n, idx, st, SHMEM_CMP_EQ, vals)) == 0) {}
                break;
        case 2: r = o->wait_any_v(arr, n, st, SHMEM_CMP_GE, vals); idx[cnt++] = r; break;
        default: while ((r = o->test_any(arr, n, st, SHMEM_CMP_GT, 0)) == SIZE_MAX) {}
                 idx[cnt++] = r; break;
        }
        CHK(cnt >= 1 && cnt <= n - seen);
        if (cnt < 1 || cnt > n - seen)
            break; /* reported; do not loop forever */
        for (size_t k = 0; k < cnt; k++) {
            CHK(idx[k] < n && st[idx[k]] == 0);
            if (idx[k] >= n)
                continue;
            CHK(o->get(arr, idx[k]) == (long)idx[k] + 1);
            st[idx[k]] = 1;
        }
        seen += cnt;
    }
    /* Everything is excluded now: the documented empty-set results. */
    CHK(o->wait_some(arr, n, idx, st, SHMEM_CMP_NE, 0) == 0);
    CHK(o->test_some(arr, n, idx, st, SHMEM_CMP_NE, 0) == 0);
    CHK(o->wait_any(arr, n, st, SHMEM_CMP_NE, 0) == SIZE_MAX);
    CHK(o->test_any(arr, n, st, SHMEM_CMP_NE, 0) == SIZE_MAX);
    CHK(o->test_all(arr, n, st, SHMEM_CMP_EQ, 0) == 1);
    o->wait_all(arr, n, st, SHMEM_CMP_EQ, 0);
    o->wait_all_v(arr, n, NULL, SHMEM_CMP_EQ, vals);
    CHK(o->test_all_v(arr, n, NULL, SHMEM_CMP_EQ, vals) == 1);
}

static void overlap_all(int on_heap)
{
    ck_assert_int_le(shmem_n_pes(), P2P_MAXN);
    void *heap = shmem_malloc(P2P_MAXN * sizeof(long long));
    for (size_t t = 0; t < p2p_nops; t++)
        for (int form = 0; form < 4; form++)
            overlap_variant(&p2p_ops[t], on_heap ? heap : p2p_ops[t].glob, form);
    shmem_barrier_all();
    shmem_free(heap);
    CHK_DONE();
}

START_TEST(test_overlap_heap) { overlap_all(1); }
END_TEST

START_TEST(test_overlap_global) { overlap_all(0); }
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("sync_p2p");
    TCase *tc = tcase_create("typed");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, test_local_semantics);
    tcase_add_test(tc, test_nelems_zero);
    tcase_add_test(tc, test_any_fairness);
    tcase_add_test(tc, test_remote_heap);
    tcase_add_test(tc, test_remote_global);
    tcase_add_test(tc, test_overlap_heap);
    tcase_add_test(tc, test_overlap_global);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, p2p_legacy_tcase());
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
