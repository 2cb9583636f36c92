/*
 * sync tests: the per-type operation tables (see p2p_ops.h), generated from
 * the library's own type tables, plus the ring handshake.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <check.h>
#include <stdint.h>
#include <shmem.h>
#include <mpishmem/type_tables.h>
#include "p2p_ops.h"

/* Converts a long array to T for the vector forms. */
#define TO_T(T, dst, src, n)                                                              \
    T dst[P2P_MAXN];                                                                      \
    ck_assert_uint_le(n, P2P_MAXN);                                                       \
    for (size_t i_ = 0; i_ < (n); i_++)                                                   \
        dst[i_] = (T)(src)[i_];

/* Wrappers every type has: element access, RMA delivery, wait_until, test. */
#define OPS_BASIC(T, N, A)                                                                \
    static T glob_##N[P2P_MAXN];                                                          \
    static void set_##N(void *a, size_t i, long v) { ((T *)a)[i] = (T)v; }                \
    static long get_##N(const void *a, size_t i) { return (long)((const T *)a)[i]; }      \
    static int width_ok_##N(void *scratch)                                                \
    {                                                                                     \
        T *x = scratch;                                                                   \
        int is_signed = (T)-1 < (T)1;                                                     \
        *x = (T)((uintmax_t)1 << (8 * sizeof(T) - 1));                                    \
        return shmem_##N##_test(x, SHMEM_CMP_EQ, (T)0) == 0 &&                            \
               shmem_##N##_test(x, SHMEM_CMP_NE, (T)0) == 1 &&                            \
               shmem_##N##_test(x, SHMEM_CMP_GT, (T)0) == !is_signed &&                   \
               shmem_##N##_test(x, SHMEM_CMP_LT, (T)0) == is_signed;                      \
    }                                                                                     \
    static void p_##N(void *a, size_t i, long v, int pe)                                  \
    { shmem_##N##_p((T *)a + i, (T)v, pe); }                                              \
    static void put_##N(void *a, const long *v, size_t n, int pe)                         \
    {                                                                                     \
        TO_T(T, tv, v, n);                                                                \
        shmem_##N##_put((T *)a, tv, n, pe);                                               \
    }                                                                                     \
    static void wait_until_##N(void *a, size_t i, int cmp, long v)                        \
    { shmem_##N##_wait_until((T *)a + i, cmp, (T)v); }                                   \
    static int test_##N(void *a, size_t i, int cmp, long v)                               \
    { return shmem_##N##_test((T *)a + i, cmp, (T)v); }

/* Wrappers of the set and vector forms. */
#define OPS_SETS(T, N, A)                                                                 \
    static void wait_all_##N(void *a, size_t n, const int *st, int cmp, long v)           \
    { shmem_##N##_wait_until_all(a, n, st, cmp, (T)v); }                                  \
    static size_t wait_any_##N(void *a, size_t n, const int *st, int cmp, long v)         \
    { return shmem_##N##_wait_until_any(a, n, st, cmp, (T)v); }                           \
    static size_t wait_some_##N(void *a, size_t n, size_t *idx, const int *st, int cmp,   \
                                long v)                                                   \
    { return shmem_##N##_wait_until_some(a, n, idx, st, cmp, (T)v); }                     \
    static void wait_all_v_##N(void *a, size_t n, const int *st, int cmp, const long *v)  \
    {                                                                                     \
        TO_T(T, tv, v, n);                                                                \
        shmem_##N##_wait_until_all_vector(a, n, st, cmp, tv);                             \
    }                                                                                     \
    static size_t wait_any_v_##N(void *a, size_t n, const int *st, int cmp,               \
                                 const long *v)                                           \
    {                                                                                     \
        TO_T(T, tv, v, n);                                                                \
        return shmem_##N##_wait_until_any_vector(a, n, st, cmp, tv);                      \
    }                                                                                     \
    static size_t wait_some_v_##N(void *a, size_t n, size_t *idx, const int *st, int cmp, \
                                  const long *v)                                          \
    {                                                                                     \
        TO_T(T, tv, v, n);                                                                \
        return shmem_##N##_wait_until_some_vector(a, n, idx, st, cmp, tv);                \
    }                                                                                     \
    static int test_all_##N(void *a, size_t n, const int *st, int cmp, long v)            \
    { return shmem_##N##_test_all(a, n, st, cmp, (T)v); }                                 \
    static size_t test_any_##N(void *a, size_t n, const int *st, int cmp, long v)         \
    { return shmem_##N##_test_any(a, n, st, cmp, (T)v); }                                 \
    static size_t test_some_##N(void *a, size_t n, size_t *idx, const int *st, int cmp,   \
                                long v)                                                   \
    { return shmem_##N##_test_some(a, n, idx, st, cmp, (T)v); }                           \
    static int test_all_v_##N(void *a, size_t n, const int *st, int cmp, const long *v)   \
    {                                                                                     \
        TO_T(T, tv, v, n);                                                                \
        return shmem_##N##_test_all_vector(a, n, st, cmp, tv);                            \
    }                                                                                     \
    static size_t test_any_v_##N(void *a, size_t n, const int *st, int cmp,               \
                                 const long *v)                                           \
    {                                                                                     \
        TO_T(T, tv, v, n);                                                                \
        return shmem_##N##_test_any_vector(a, n, st, cmp, tv);                            \
    }                                                                                     \
    static size_t test_some_v_##N(void *a, size_t n, size_t *idx, const int *st, int cmp, \
                                  const long *v)                                          \
    {                                                                                     \
        TO_T(T, tv, v, n);                                                                \
        return shmem_##N##_test_some_vector(a, n, idx, st, cmp, tv);                     \
    }

#define OPS_FULL(T, N, A) OPS_BASIC(T, N, A) OPS_SETS(T, N, A)
MPISHMEM_P2P_TYPES(OPS_FULL, _)
MPISHMEM_P2P_LEGACY_TYPES(OPS_BASIC, _)

#define ENTRY_BASIC(T, N)                                                                 \
    .name = #N, .size = sizeof(T), .glob = glob_##N, .set = set_##N, .get = get_##N,      \
    .width_ok = width_ok_##N, .p = p_##N, .put = put_##N, .wait_until = wait_until_##N,   \
    .test = test_##N
#define ENTRY_FULL(T, N, A)                                                               \
    {ENTRY_BASIC(T, N), .wait_all = wait_all_##N, .wait_any = wait_any_##N,              \
     .wait_some = wait_some_##N, .wait_all_v = wait_all_v_##N,                            \
     .wait_any_v = wait_any_v_##N, .wait_some_v = wait_some_v_##N,                        \
     .test_all = test_all_##N, .test_any = test_any_##N, .test_some = test_some_##N,      \
     .test_all_v = test_all_v_##N, .test_any_v = test_any_v_##N,                          \
     .test_some_v = test_some_v_##N},
#define ENTRY_LEGACY(T, N, A) {ENTRY_BASIC(T, N)},

const p2p_ops_t p2p_ops[] = {MPISHMEM_P2P_TYPES(ENTRY_FULL, _)};
const size_t p2p_nops = sizeof p2p_ops / sizeof p2p_ops[0];
const p2p_ops_t p2p_legacy_ops[] = {MPISHMEM_P2P_LEGACY_TYPES(ENTRY_LEGACY, _)};
const size_t p2p_legacy_nops = sizeof p2p_legacy_ops / sizeof p2p_legacy_ops[0];

const int p2p_cmps[6] = {SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT,
                         SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE};

const char *p2p_cmp_name(int cmp)
{
    switch (cmp) {
    case SHMEM_CMP_EQ: return "EQ";
    case SHMEM_CMP_NE: return "NE";
    case SHMEM_CMP_GT: return "GT";
    case SHMEM_CMP_GE: return "GE";
    case SHMEM_CMP_LT: return "LT";
    case SHMEM_CMP_LE: return "LE";
    default: return "?";
    }
}

int p2p_left(void)
{
    return (shmem_my_pe() + shmem_n_pes() - 1) % shmem_n_pes();
}

int p2p_right(void)
{
    return (shmem_my_pe() + 1) % shmem_n_pes();
}

/* Written only by the right neighbour; counts rounds, so never reset. */
static long ready;
static long round_no;

void p2p_handshake(void)
{
    round_no++;
    shmem_long_p(&ready, round_no, p2p_left());
    shmem_long_wait_until(&ready, SHMEM_CMP_GE, round_no);
}

/* Element i works around base 10*(i+1), so vector forms see a different
 * comparison value per element.  GE and LE deliver the boundary value. */
long p2p_init(int cmp, size_t i)
{
    (void)cmp;
    return 10 * (long)(i + 1);
}

long p2p_cmpval(int cmp, size_t i)
{
    long b = p2p_init(cmp, i);
    switch (cmp) {
    case SHMEM_CMP_EQ: return b + 2;
    case SHMEM_CMP_NE: return b;
    case SHMEM_CMP_GT: return b + 1;
    case SHMEM_CMP_GE: return b + 2;
    case SHMEM_CMP_LT: return b;
    default: return b - 2;
    }
}

long p2p_deliver(int cmp, size_t i)
{
    long b = p2p_init(cmp, i);
    switch (cmp) {
    case SHMEM_CMP_EQ: return b + 2;
    case SHMEM_CMP_NE: return b + 3;
    case SHMEM_CMP_GT: return b + 3;
    case SHMEM_CMP_GE: return b + 2;
    case SHMEM_CMP_LT: return b - 1;
    default: return b - 2;
    }
}
