/*
 * Point-to-point synchronization, the other spellings: deprecated
 * shmem_TYPE_wait, untyped shmem_wait / shmem_wait_until,
 * shmem_signal_wait_until, and the C11 type-generic forms.  (Short and
 * unsigned short wait_until/test run with the typed tests in sync_p2p.c.)
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <shmem.h>
#include <mpishmem/type_tables.h>
#include "p2p_ops.h"
#include "soft_check.h"

/* ---- shmem_TYPE_wait: block while *ivar == value ---------------------- */
typedef struct {
    const char *name;
    void *glob;
    void (*set)(void *a, long v);
    long (*get)(const void *a);
    void (*p)(void *a, long v, int pe);
    void (*wait)(void *a, long v);
} wait_ops_t;

#define WAIT_OPS(T, N, A)                                                                 \
    static T wglob_##N;                                                                   \
    static void wset_##N(void *a, long v) { *(T *)a = (T)v; }                             \
    static long wget_##N(const void *a) { return (long)*(const T *)a; }                   \
    static void wp_##N(void *a, long v, int pe) { shmem_##N##_p(a, (T)v, pe); }           \
    static void wwait_##N(void *a, long v) { shmem_##N##_wait(a, (T)v); }
MPISHMEM_WAIT_LEGACY_TYPES(WAIT_OPS, _)
#define WAIT_ENTRY(T, N, A) {#N, &wglob_##N, wset_##N, wget_##N, wp_##N, wwait_##N},
static const wait_ops_t wait_ops[] = {MPISHMEM_WAIT_LEGACY_TYPES(WAIT_ENTRY, _)};
#define NWAIT (sizeof wait_ops / sizeof wait_ops[0])

START_TEST(test_typed_wait)
{
    long long *heap = shmem_malloc(sizeof(long long));
    for (size_t t = 0; t < NWAIT; t++) {
        const wait_ops_t *o = &wait_ops[t];
        for (int g = 0; g < 2; g++) {
            void *x = g ? o->glob : heap;
            WHERE("shmem_%s_wait on %s", o->name, g ? "global" : "heap");
            /* Waits only while equal: below and above return at once. */
            o->set(x, 5);
            o->wait(x, 4);
            o->wait(x, 6);
            /* The new value is below for some types, above for others. */
            long d = t % 2 ? 6 : 4;
            p2p_handshake();
            o->p(x, d, p2p_right());
            o->wait(x, 5);
            CHK(o->get(x) == d);
        }
    }
    shmem_barrier_all();
    shmem_free(heap);
    CHK_DONE();
}
END_TEST

/* ---- Untyped long forms --------------------------------------------------
 * The parentheses call the deprecated functions, not the C11 macro. */
static long glob_long;

START_TEST(test_untyped_long)
{
    long *heap = shmem_malloc(sizeof(long));
    for (int g = 0; g < 2; g++) {
        long *x = g ? &glob_long : heap;
        const char *mem = g ? "global" : "heap";
        WHERE("shmem_wait on %s", mem);
        *x = 7;
        (shmem_wait)(x, 8);
        (shmem_wait)(x, 6);
        p2p_handshake();
        shmem_long_p(x, 9, p2p_right());
        (shmem_wait)(x, 7);
        CHK(*x == 9);
        for (int c = 0; c < 6; c++) {
            int cmp = p2p_cmps[c];
            WHERE("shmem_wait_until %s on %s", p2p_cmp_name(cmp), mem);
            *x = p2p_init(cmp, 0);
            CHK(!shmem_long_test(x, cmp, p2p_cmpval(cmp, 0)));
            p2p_handshake();
            shmem_long_p(x, p2p_deliver(cmp, 0), p2p_right());
            (shmem_wait_until)(x, cmp, p2p_cmpval(cmp, 0));
            CHK(*x == p2p_deliver(cmp, 0));
            (shmem_wait_until)(x, cmp, p2p_cmpval(cmp, 0)); /* still satisfied */
        }
    }
    shmem_barrier_all();
    shmem_free(heap);
    CHK_DONE();
}
END_TEST

/* ---- shmem_signal_wait_until returns the value that satisfied it ------- */
static uint64_t glob_sig;

START_TEST(test_signal_wait_until)
{
    uint64_t *heap = shmem_malloc(sizeof(uint64_t));
    for (int g = 0; g < 2; g++) {
        uint64_t *sig = g ? &glob_sig : heap;
        const char *mem = g ? "global" : "heap";
        for (int c = 0; c < 6; c++) {
            int cmp = p2p_cmps[c];
            uint64_t cv = (uint64_t)p2p_cmpval(cmp, 0), d = (uint64_t)p2p_deliver(cmp, 0);
            WHERE("shmem_signal_wait_until %s on %s", p2p_cmp_name(cmp), mem);
            *sig = d; /* already satisfied: returns the current value */
            CHK(shmem_signal_wait_until(sig, cmp, cv) == d);
            *sig = (uint64_t)p2p_init(cmp, 0);
            p2p_handshake();
            shmem_uint64_p(sig, d, p2p_right());
            CHK(shmem_signal_wait_until(sig, cmp, cv) == d);
            CHK(*sig == d);
        }
        /* The full 64 bits take part in the comparison. */
        WHERE("shmem_signal_wait_until 64-bit value on %s", mem);
        *sig = UINT64_C(1) << 63;
        CHK(shmem_signal_wait_until(sig, SHMEM_CMP_GT, UINT64_C(1)) == UINT64_C(1) << 63);
        CHK(shmem_signal_wait_until(sig, SHMEM_CMP_NE, 0) == UINT64_C(1) << 63);
    }
    shmem_barrier_all();
    shmem_free(heap);
    CHK_DONE();
}
END_TEST

/* ---- C11 generic forms: each must pick the routine of the pointer's type.
 * x = {1,2,3,4}.  A top-bit value checks the dispatch kept width and
 * signedness (the wrong routine would compare a truncated or sign-changed
 * value).
 *
 * The C11 macros expand MPISHMEM_P2P_GENERIC_TYPES, which the preprocessor
 * will not expand again inside our own expansion of that table.  G(name)
 * therefore emits the macro name apart from its arguments, and EVAL rescans
 * the generated functions after the table's expansion has finished. */
#define DEFER()
#define G(name) name DEFER()
#define EVAL(...) __VA_ARGS__
#define GENERIC_CHECKS(T, N, A)                                                           \
    static void generic_##N(void *scratch)                                                \
    {                                                                                     \
        T *x = scratch;                                                                   \
        T cv[4] = {1, 0, 3, 0};                                                           \
        int st[4] = {0, 1, 0, 1}, t;                                                      \
        size_t idx[4], r;                                                                 \
        WHERE("C11 generic, %s", #T);                                                     \
        for (int i = 0; i < 4; i++)                                                       \
            x[i] = (T)(i + 1);                                                            \
        t = G(shmem_test)(&x[0], SHMEM_CMP_EQ, (T)1);                                     \
        CHK(t == 1);                                                                      \
        t = G(shmem_test)(&x[1], SHMEM_CMP_EQ, (T)1);                                     \
        CHK(t == 0);                                                                      \
        G(shmem_wait_until)(&x[2], SHMEM_CMP_GE, (T)3);                                   \
        t = G(shmem_test_all)(x, 4, NULL, SHMEM_CMP_GT, (T)0);                            \
        CHK(t == 1);                                                                      \
        t = G(shmem_test_all)(x, 4, NULL, SHMEM_CMP_LT, (T)4);                            \
        CHK(t == 0);                                                                      \
        r = G(shmem_test_any)(x, 4, NULL, SHMEM_CMP_EQ, (T)3);                            \
        CHK(r == 2);                                                                      \
        r = G(shmem_test_some)(x, 4, idx, NULL, SHMEM_CMP_GE, (T)3);                      \
        CHK(r == 2 && idx[0] + idx[1] == 5 && idx[0] * idx[1] == 6);                      \
        G(shmem_wait_until_all)(x, 4, st, SHMEM_CMP_NE, (T)2);                            \
        r = G(shmem_wait_until_any)(x, 4, st, SHMEM_CMP_LE, (T)1);                        \
        CHK(r == 0);                                                                      \
        r = G(shmem_wait_until_some)(x, 4, idx, st, SHMEM_CMP_GT, (T)2);                  \
        CHK(r == 1 && idx[0] == 2);                                                       \
        t = G(shmem_test_all_vector)(x, 4, st, SHMEM_CMP_EQ, cv);                         \
        CHK(t == 1);                                                                      \
        r = G(shmem_test_any_vector)(x, 4, NULL, SHMEM_CMP_LT, cv);                       \
        CHK(r == SIZE_MAX);                                                               \
        r = G(shmem_test_some_vector)(x, 4, idx, NULL, SHMEM_CMP_GT, cv);                 \
        CHK(r == 2 && idx[0] + idx[1] == 4 && idx[0] * idx[1] == 3);                      \
        G(shmem_wait_until_all_vector)(x, 4, st, SHMEM_CMP_GE, cv);                       \
        r = G(shmem_wait_until_any_vector)(x, 4, st, SHMEM_CMP_EQ, cv);                   \
        CHK(r == 0 || r == 2);                                                            \
        r = G(shmem_wait_until_some_vector)(x, 4, idx, NULL, SHMEM_CMP_NE, cv);           \
        CHK(r == 2 && idx[0] + idx[1] == 4 && idx[0] * idx[1] == 3);                      \
        x[0] = (T)((uintmax_t)1 << (8 * sizeof(T) - 1));                                  \
        t = G(shmem_test)(&x[0], SHMEM_CMP_EQ, (T)0);                                     \
        CHK(t == 0);                                                                      \
        t = G(shmem_test)(&x[0], SHMEM_CMP_LT, (T)0);                                     \
        CHK(t == ((T)-1 < (T)1));                                                         \
    }
EVAL(MPISHMEM_P2P_GENERIC_TYPES(GENERIC_CHECKS, _))
#define GENERIC_CALL(T, N, A) generic_##N(A);

START_TEST(test_c11_generic)
{
    void *scratch = shmem_malloc(4 * sizeof(long long));
    MPISHMEM_P2P_GENERIC_TYPES(GENERIC_CALL, scratch)
    shmem_free(scratch);
    CHK_DONE();
}
END_TEST

TCase *p2p_legacy_tcase(void)
{
    TCase *tc = tcase_create("legacy_signal_c11");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, test_typed_wait);
    tcase_add_test(tc, test_untyped_long);
    tcase_add_test(tc, test_signal_wait_until);
    tcase_add_test(tc, test_c11_generic);
    return tc;
}
