/*
 * Typed RMA for every standard RMA type, generated from the type table:
 * put, p, put_nbi, iput, ibput, get, g, get_nbi, iget, ibget and their
 * shmem_ctx_* forms with shmem_check_ctx, into the symmetric heap and into
 * global arrays, to the right neighbour and to this PE.  The same body runs
 * again through the C11 generic macros for the generic types (on the heap:
 * the dispatch does not depend on where the target lives), and
 * test_generic_dispatch_width reaches globals through them.
 *
 * Every value encodes (source PE, index, type), and every destination
 * element is checked, including those a strided transfer must skip.
 */
#include <shmem.h>
#include "rma_common.h"

#define NE 12   /* elements per region; divisible by the strided layouts */
#define NOPS 10 /* 5 transfer shapes, plain and ctx */
#define NPG 4   /* elements moved one at a time by p and g (each is a round trip) */

enum {
#define TYPE_ID(T, N, A) TID_##N,
    MPISHMEM_RMA_TYPES(TYPE_ID, _) N_TYPES
};

/* A nonzero value exactly representable in a type of `size` bytes. */
static long long encode(int pe, size_t i, int tid, size_t size, int is_signed)
{
    long long span = size == 1 ? 126 : size == 2 ? 32000 : 1000000;
    long long v = 1 + ((long long)pe * 7919 + (long long)i * 131 + (long long)tid * 17) % span;
    if (size >= 8)
        v += (long long)(pe + 1) << 33; /* reaches the high bytes; exact in double */
    if (is_signed && (i & 1))
        v = -v;
    return v;
}

#define IS_SIGNED(T) (!((T)-1 > (T)0))
#define DEFINE_VAL(T, N, A)                                                                \
    static T val_##N(int pe, size_t i)                                                     \
    {                                                                                      \
        return (T)encode(pe, i, TID_##N, sizeof(T), IS_SIGNED(T));                         \
    }
MPISHMEM_RMA_TYPES(DEFINE_VAL, _)

/* Which source element lands at position pos of a region written by shape
 * op % 5, or -1 if that position must stay untouched:
 *   0 put/get, 2 nbi: contiguous; 1 p/g: the first NPG elements;
 *   3 iput/iget at +1, dest stride 3, source stride 2, 4 elements;
 *   4 ibput/ibget at +1, dest stride 4, source stride 3, blocks of 2, 3 blocks. */
static long src_index(int op, size_t pos)
{
    switch (op % 5) {
    case 1:
        return pos < NPG ? (long)pos : -1;
    case 3:
        return pos >= 1 && (pos - 1) % 3 == 0 && (pos - 1) / 3 < 4 ? (long)((pos - 1) / 3 * 2)
                                                                     : -1;
    case 4: {
        if (pos < 1)
            return -1;
        size_t b = (pos - 1) / 4, e = (pos - 1) % 4;
        return b < 3 && e < 2 ? (long)(b * 3 + e) : -1;
    }
    default:
        return (long)pos;
    }
}

static const char *const op_names[NOPS] = {"put",     "p",     "nbi",     "iput",     "ibput",
                                           "ctx put", "ctx p", "ctx nbi", "ctx iput", "ctx ibput"};

/* Routine names per mode: TYPED_* are the typed routines, GENERIC_* the
 * C11 macros (the ctx forms take shmem_check_ctx as first argument).
 *
 * The C11 macros expand to MPISHMEM_RMA_GENERIC_TYPES, which the
 * preprocessor will not expand again while it is expanding that same table
 * to generate our functions.  So a GENERIC_* name is emitted without being
 * invoked (DEFER() separates it from its arguments) and EVAL rescans the
 * generated code once the table's expansion is over. */
#define DEFER()
#define EVAL(...) __VA_ARGS__
#define TYPED_PUT(N) shmem_##N##_put
#define TYPED_P(N) shmem_##N##_p
#define TYPED_PUT_NBI(N) shmem_##N##_put_nbi
#define TYPED_IPUT(N) shmem_##N##_iput
#define TYPED_IBPUT(N) shmem_##N##_ibput
#define TYPED_GET(N) shmem_##N##_get
#define TYPED_G(N) shmem_##N##_g
#define TYPED_GET_NBI(N) shmem_##N##_get_nbi
#define TYPED_IGET(N) shmem_##N##_iget
#define TYPED_IBGET(N) shmem_##N##_ibget
#define TYPED_CTX_PUT(N) shmem_ctx_##N##_put
#define TYPED_CTX_P(N) shmem_ctx_##N##_p
#define TYPED_CTX_PUT_NBI(N) shmem_ctx_##N##_put_nbi
#define TYPED_CTX_IPUT(N) shmem_ctx_##N##_iput
#define TYPED_CTX_IBPUT(N) shmem_ctx_##N##_ibput
#define TYPED_CTX_GET(N) shmem_ctx_##N##_get
#define TYPED_CTX_G(N) shmem_ctx_##N##_g
#define TYPED_CTX_GET_NBI(N) shmem_ctx_##N##_get_nbi
#define TYPED_CTX_IGET(N) shmem_ctx_##N##_iget
#define TYPED_CTX_IBGET(N) shmem_ctx_##N##_ibget

#define GENERIC_PUT(N) shmem_put DEFER()
#define GENERIC_P(N) shmem_p DEFER()
#define GENERIC_PUT_NBI(N) shmem_put_nbi DEFER()
#define GENERIC_IPUT(N) shmem_iput DEFER()
#define GENERIC_IBPUT(N) shmem_ibput DEFER()
#define GENERIC_GET(N) shmem_get DEFER()
#define GENERIC_G(N) shmem_g DEFER()
#define GENERIC_GET_NBI(N) shmem_get_nbi DEFER()
#define GENERIC_IGET(N) shmem_iget DEFER()
#define GENERIC_IBGET(N) shmem_ibget DEFER()
#define GENERIC_CTX_PUT(N) shmem_put DEFER()
#define GENERIC_CTX_P(N) shmem_p DEFER()
#define GENERIC_CTX_PUT_NBI(N) shmem_put_nbi DEFER()
#define GENERIC_CTX_IPUT(N) shmem_iput DEFER()
#define GENERIC_CTX_IBPUT(N) shmem_ibput DEFER()
#define GENERIC_CTX_GET(N) shmem_get DEFER()
#define GENERIC_CTX_G(N) shmem_g DEFER()
#define GENERIC_CTX_GET_NBI(N) shmem_get_nbi DEFER()
#define GENERIC_CTX_IGET(N) shmem_iget DEFER()
#define GENERIC_CTX_IBGET(N) shmem_ibget DEFER()

/* Checks NOPS regions of NE elements written from PE `from`. */
#define DEFINE_CHECK(T, N, A)                                                              \
    static void check_##N(const char *mode, const char *where, const T *buf, int from)    \
    {                                                                                      \
        for (int op = 0; op < NOPS; op++)                                                  \
            for (size_t pos = 0; pos < NE; pos++) {                                        \
                long si = src_index(op, pos);                                              \
                T want = si < 0 ? (T)0 : val_##N(from, (size_t)si);                        \
                T got = buf[op * NE + pos];                                                \
                if (got != want)                                                           \
                    rma_fail("%s %s %s %s from PE %d: element %zu is %.17Lg, expected "   \
                             "%.17Lg", mode, #N, where, op_names[op], from, pos,           \
                             (long double)got, (long double)want);                         \
            }                                                                              \
    }
MPISHMEM_RMA_TYPES(DEFINE_CHECK, _)

/* Every type's arrays in one struct, so one allocation (or one global)
 * serves all types and each phase needs one barrier for all of them.  src
 * holds NE elements; dst holds 2 * NOPS regions of NE: the first NOPS are
 * written by the left neighbour, the rest by this PE itself. */
struct area {
#define AREA_FIELDS(T, N, A) T src_##N[NE]; T dst_##N[2 * NOPS * NE];
    MPISHMEM_RMA_TYPES(AREA_FIELDS, _)
};

static struct area global_area;

#define DEFINE_INIT(T, N, A)                                                               \
    static void init_##N(T *src, T *dst)                                                   \
    {                                                                                      \
        for (size_t i = 0; i < NE; i++)                                                    \
            src[i] = val_##N(shmem_my_pe(), i);                                            \
        memset(dst, 0, 2 * NOPS * NE * sizeof(T));                                         \
    }
MPISHMEM_RMA_TYPES(DEFINE_INIT, _)

/* The puts of type T in mode MODE (TYPED or GENERIC), to the right
 * neighbour and to this PE. */
#define DEFINE_PUTS(T, N, MODE)                                                            \
    static void puts_##MODE##_##N(T *src, T *dst)                                          \
    {                                                                                      \
        for (int k = 0; k < 2; k++) {                                                      \
            int pe = k ? shmem_my_pe() : rma_right();                                      \
            T *d = dst + k * NOPS * NE;                                                    \
            MODE##_PUT(N)(d, src, NE, pe);                                                 \
            for (size_t i = 0; i < NPG; i++)                                               \
                MODE##_P(N)(d + NE + i, src[i], pe);                                       \
            MODE##_PUT_NBI(N)(d + 2 * NE, src, NE, pe);                                    \
            MODE##_IPUT(N)(d + 3 * NE + 1, src, 3, 2, 4, pe);                              \
            MODE##_IBPUT(N)(d + 4 * NE + 1, src, 4, 3, 2, 3, pe);                          \
            MODE##_CTX_PUT(N)(shmem_check_ctx, d + 5 * NE, src, NE, pe);                 \
            for (size_t i = 0; i < NPG; i++)                                               \
                MODE##_CTX_P(N)(shmem_check_ctx, d + 6 * NE + i, src[i], pe);            \
            MODE##_CTX_PUT_NBI(N)(shmem_check_ctx, d + 7 * NE, src, NE, pe);             \
            MODE##_CTX_IPUT(N)(shmem_check_ctx, d + 8 * NE + 1, src, 3, 2, 4, pe);       \
            MODE##_CTX_IBPUT(N)(shmem_check_ctx, d + 9 * NE + 1, src, 4, 3, 2, 3, pe);   \
        }                                                                                  \
    }

/* The gets of type T from the right neighbour and from this PE into private
 * memory, with the same layouts, checked at once.  g reads through a const
 * pointer in the plain form and a non-const one in the ctx form. */
#define DEFINE_GETS(T, N, MODE)                                                            \
    static void gets_##MODE##_##N(const char *where, T *src)                               \
    {                                                                                      \
        const T *csrc = src;                                                               \
        T loc[NOPS * NE];                                                                  \
        for (int k = 0; k < 2; k++) {                                                      \
            int pe = k ? shmem_my_pe() : rma_right();                                      \
            memset(loc, 0, sizeof loc);                                                    \
            MODE##_GET(N)(loc, src, NE, pe);                                               \
            for (size_t i = 0; i < NPG; i++)                                               \
                loc[NE + i] = MODE##_G(N)(csrc + i, pe);                                   \
            MODE##_GET_NBI(N)(loc + 2 * NE, src, NE, pe);                                  \
            MODE##_IGET(N)(loc + 3 * NE + 1, src, 3, 2, 4, pe);                            \
            MODE##_IBGET(N)(loc + 4 * NE + 1, src, 4, 3, 2, 3, pe);                        \
            MODE##_CTX_GET(N)(shmem_check_ctx, loc + 5 * NE, src, NE, pe);               \
            for (size_t i = 0; i < NPG; i++)                                               \
                loc[6 * NE + i] = MODE##_CTX_G(N)(shmem_check_ctx, src + i, pe);         \
            MODE##_CTX_GET_NBI(N)(shmem_check_ctx, loc + 7 * NE, src, NE, pe);           \
            MODE##_CTX_IGET(N)(shmem_check_ctx, loc + 8 * NE + 1, src, 3, 2, 4, pe);     \
            MODE##_CTX_IBGET(N)(shmem_check_ctx, loc + 9 * NE + 1, src, 4, 3, 2, 3, pe); \
            check_quiet(); /* completes the nbi gets */                                    \
            check_##N(k ? #MODE " get from self" : #MODE " get", where, loc, pe);          \
        }                                                                                  \
    }

MPISHMEM_RMA_TYPES(DEFINE_PUTS, TYPED)
MPISHMEM_RMA_TYPES(DEFINE_GETS, TYPED)
EVAL(MPISHMEM_RMA_GENERIC_TYPES(DEFINE_PUTS, GENERIC))
EVAL(MPISHMEM_RMA_GENERIC_TYPES(DEFINE_GETS, GENERIC))

/* One phase for every type of a table: the X macro's A is the mode. */
#define CALL_INIT(T, N, MODE) init_##N(a->src_##N, a->dst_##N);
#define CALL_PUTS(T, N, MODE) puts_##MODE##_##N(a->src_##N, a->dst_##N);
#define CALL_CHECK_PUTS(T, N, MODE)                                                        \
    check_##N(#MODE " put", where, a->dst_##N, rma_left());                                \
    check_##N(#MODE " put to self", where, a->dst_##N + NOPS * NE, shmem_my_pe());
#define CALL_GETS(T, N, MODE) gets_##MODE##_##N(where, a->src_##N);

/* All puts of all types are in flight together before the one quiet. */
#define RUN(TABLE, MODE)                                                                   \
    do {                                                                                   \
        TABLE(CALL_INIT, MODE)                                                             \
        shmem_barrier_all();                                                               \
        TABLE(CALL_PUTS, MODE)                                                             \
        check_quiet();                                                                     \
        shmem_barrier_all();                                                               \
        TABLE(CALL_CHECK_PUTS, MODE)                                                       \
        TABLE(CALL_GETS, MODE)                                                             \
        /* Nobody rewrites src while a neighbour may still read it. */                     \
        shmem_barrier_all();                                                               \
    } while (0)

static void run_typed(const char *where, struct area *a)
{
    RUN(MPISHMEM_RMA_TYPES, TYPED);
}

static void run_generic(const char *where, struct area *a)
{
    RUN(MPISHMEM_RMA_GENERIC_TYPES, GENERIC);
}

START_TEST(test_typed_heap)
{
    RMA_BEGIN();
    struct area *a = shmem_malloc(sizeof *a);
    ck_assert_ptr_nonnull(a);
    run_typed("heap", a);
    shmem_free(a);
    RMA_END();
}
END_TEST

START_TEST(test_typed_global)
{
    RMA_BEGIN();
    run_typed("global", &global_area);
    RMA_END();
}
END_TEST

START_TEST(test_generic_heap)
{
    RMA_BEGIN();
    struct area *a = shmem_malloc(sizeof *a);
    ck_assert_ptr_nonnull(a);
    run_generic("heap", a);
    shmem_free(a);
    RMA_END();
}
END_TEST

/* The generic macros pick the routine of the pointed-to type: a value that
 * only fits the wider types survives a round trip unchanged. */
static long long wide_global;
static unsigned char narrow_global;

START_TEST(test_generic_dispatch_width)
{
    RMA_BEGIN();
    int right = rma_right(), left = rma_left();
    long long *wide = shmem_malloc(sizeof *wide);
    *wide = 0;
    wide_global = 0;
    narrow_global = 0;
    shmem_barrier_all();
    const long long big = 0x123456789abcdefLL + shmem_my_pe();
    shmem_p(wide, big, right);
    shmem_p(&wide_global, big, right);
    shmem_p(&narrow_global, (unsigned char)(0xF0 + shmem_my_pe()), right);
    shmem_barrier_all();
    if (*wide != 0x123456789abcdefLL + left)
        rma_fail("heap long long p: got %llx", *wide);
    if (wide_global != 0x123456789abcdefLL + left)
        rma_fail("global long long p: got %llx", wide_global);
    if (narrow_global != 0xF0 + left)
        rma_fail("global unsigned char p: got %x", narrow_global);
    const long long *cwide = wide;
    if (shmem_g(cwide, right) != 0x123456789abcdefLL + shmem_my_pe())
        rma_fail("generic g through const long long *");
    if (shmem_g(shmem_check_ctx, &wide_global, right) != 0x123456789abcdefLL + shmem_my_pe())
        rma_fail("generic ctx g of a global long long");
    shmem_barrier_all();
    shmem_free(wide);
    RMA_END();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("rma_typed");
    TCase *tc = tcase_create("typed");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, test_typed_heap);
    tcase_add_test(tc, test_typed_global);
    tcase_add_test(tc, test_generic_heap);
    tcase_add_test(tc, test_generic_dispatch_width);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
