/*
 * amo_types: every AMO for every type of its table, generated from the
 * type tables, in every calling form:
 *   typed        shmem_TYPENAME_atomic_OP
 *   typed_ctx    shmem_ctx_TYPENAME_atomic_OP(shmem_check_ctx, ...)
 *   generic      C11 shmem_atomic_OP(dest, ...)        (generic types)
 *   generic_ctx  C11 shmem_atomic_OP(ctx, dest, ...)
 *   legacy       deprecated shmem_TYPENAME_fadd/finc/cswap/add/inc/fetch/set/swap
 *   depr         deprecated C11 shmem_fadd/finc/cswap/add/inc/fetch/set/swap
 * and the untyped 1.0 (shmem_swap)(long *, long, int).
 *
 * Each sequence runs on a word of the right neighbour and on one of this
 * PE, in the symmetric heap and in global data (the C11 forms in one of
 * them).  A word has one writer, so
 * every returned old value is known exactly, and after a barrier its owner
 * checks the final contents.  Values are bit patterns (high halves, sign
 * bits, carries across 32 bits, NaN payloads and -0.0 for floating types)
 * compared bit for bit, so a 64-bit AMO that moves 32 bits, or a float that
 * goes through a conversion, fails.  Non-fetching AMOs are followed by a
 * fence before a fetch relies on them (the spec orders AMOs to one PE only
 * across a fence); _nbi results are read after a quiet.
 *
 * Also: many fetching _nbi AMOs outstanding at once, completed by one
 * quiet; and fence/quiet ordering non-fetching AMOs before a flag AMO.
 */
#include "amo_common.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "values are built from the low bytes of 64-bit patterns");

/* Bit-pattern conversions: a value of T from the low bytes of b, and back. */
#define DEFINE_CONV(T, N, A)                                                               \
    static inline T to_##N(uint64_t b)                                                     \
    {                                                                                      \
        T v;                                                                               \
        memcpy(&v, &b, sizeof v);                                                          \
        return v;                                                                          \
    }                                                                                      \
    static inline uint64_t bits_##N(T v)                                                   \
    {                                                                                      \
        uint64_t b = 0;                                                                    \
        memcpy(&b, &v, sizeof v);                                                          \
        return b;                                                                          \
    }
MPISHMEM_AMO_EXT_TYPES(DEFINE_CONV, _)

/* The pattern for a type of `size` bytes. */
#define PAT(T, p8, p4) (sizeof(T) == 8 ? (uint64_t)(p8) : (uint64_t)(uint32_t)(p4))
#define MASK(T) (sizeof(T) == 8 ? ~0ull : 0xffffffffull)

static const char *cur_seq; /* for messages */

/* A function, not a macro taking the call as an argument: a DEFERred
 * generic call must not be rescanned before EVAL (see amo_common.h). */
static void chk(const char *what, uint64_t got, uint64_t want)
{
    if (got != want)
        amo_fail("%s: %s returned 0x%llx, expected 0x%llx", cur_seq, what,
                 (unsigned long long)got, (unsigned long long)want);
}

/* ---- Calling forms -------------------------------------------------------- */
#define CALL_typed(N, OP, ...) shmem_##N##_atomic_##OP(__VA_ARGS__)
#define CALL_typed_ctx(N, OP, ...) shmem_ctx_##N##_atomic_##OP(ctx, __VA_ARGS__)
/* Generic calls are DEFERred, their instantiations EVALuated: see
 * amo_common.h. */
#define CALL_generic(N, OP, ...) DEFER(shmem_atomic_##OP)(__VA_ARGS__)
#define CALL_generic_ctx(N, OP, ...) DEFER(shmem_atomic_##OP)(ctx, __VA_ARGS__)
/* Deprecated names: fetch_add -> fadd etc. */
#define DEPR_fetch_add fadd
#define DEPR_fetch_inc finc
#define DEPR_compare_swap cswap
#define DEPR_add add
#define DEPR_inc inc
#define DEPR_fetch fetch
#define DEPR_set set
#define DEPR_swap swap
#define CALL_legacy(N, OP, ...) LEGACY_(N, DEPR_##OP, __VA_ARGS__)
#define LEGACY_(N, NAME, ...) LEGACY__(N, NAME, __VA_ARGS__)
#define LEGACY__(N, NAME, ...) shmem_##N##_##NAME(__VA_ARGS__)
#define CALL_depr(N, OP, ...) DEPR_(DEPR_##OP, __VA_ARGS__)
#define DEPR_(NAME, ...) DEPR__(NAME, __VA_ARGS__)
#define DEPR__(NAME, ...) DEFER(shmem_##NAME)(__VA_ARGS__)

#define FENCE_typed() check_fence()
#define FENCE_typed_ctx() shmem_ctx_fence(ctx)
#define FENCE_generic() check_fence()
#define FENCE_generic_ctx() shmem_ctx_fence(ctx)
#define FENCE_legacy() check_fence()
#define FENCE_depr() check_fence()
#define QUIET_typed() check_quiet()
#define QUIET_typed_ctx() shmem_ctx_quiet(ctx)
#define QUIET_generic() check_quiet()
#define QUIET_generic_ctx() shmem_ctx_quiet(ctx)

/* Every sequence: uint64_t NAME(void *dest, int pe) returns the final bits
 * of the word. */
#define SEQ_BEGIN(T, NAME)                                                                 \
    static uint64_t NAME(void *vx, int pe)                                                 \
    {                                                                                      \
        T *x = vx;                                                                         \
        const uint64_t m = MASK(T);                                                        \
        shmem_ctx_t ctx = shmem_check_ctx;                                               \
        (void)ctx;                                                                         \
        (void)m;                                                                           \
        uint64_t e;
#define SEQ_END                                                                            \
        return e;                                                                          \
    }

/* compare_swap, fetch_inc, inc, fetch_add, add (and fetch, set). */
#define DEFINE_STD_BLK(T, N, MODE)                                                         \
    SEQ_BEGIN(T, std_blk_##MODE##_##N)                                                     \
    e = PAT(T, 0xffffffffull, 0xffffffffu); /* the next +1 carries / wraps */              \
    CALL_##MODE(N, set, x, to_##N(e), pe);                                                 \
    FENCE_##MODE();                                                                        \
    chk("fetch", bits_##N(CALL_##MODE(N, fetch, (const T *)x, pe)), e);                    \
    chk("fetch_inc", bits_##N(CALL_##MODE(N, fetch_inc, x, pe)), e);                       \
    e = (e + 1) & m;                                                                       \
    chk("fetch_add", bits_##N(CALL_##MODE(N, fetch_add, x, to_##N(3), pe)), e);            \
    e = (e + 3) & m;                                                                       \
    CALL_##MODE(N, inc, x, pe);                                                            \
    CALL_##MODE(N, add, x, to_##N(5), pe); /* adds commute: no fence between */            \
    FENCE_##MODE();                                                                        \
    e = (e + 6) & m;                                                                       \
    {                                                                                      \
        uint64_t b = PAT(T, 0xfedcba9876543210ull, 0xfedcba98u); /* negative if signed */  \
        chk("compare_swap (no match)", bits_##N(                                           \
            CALL_##MODE(N, compare_swap, x, to_##N(e ^ 1), to_##N(b), pe)), e);            \
        chk("compare_swap",                                                                \
            bits_##N(CALL_##MODE(N, compare_swap, x, to_##N(e), to_##N(b), pe)), e);       \
        e = b;                                                                             \
    }                                                                                      \
    {                                                                                      \
        uint64_t d = PAT(T, 0x8000000100000001ull, 0x80010001u); /* negative if signed */  \
        chk("fetch_add (sign bit)", bits_##N(CALL_##MODE(N, fetch_add, x, to_##N(d), pe)), e); \
        e = (e + d) & m;                                                                   \
    }                                                                                      \
    CALL_##MODE(N, add, x, to_##N(m), pe); /* all ones: -1 */                              \
    FENCE_##MODE();                                                                        \
    e = (e + m) & m;                                                                       \
    chk("fetch after add -1", bits_##N(CALL_##MODE(N, fetch, x, pe)), e);                  \
    SEQ_END

/* compare_swap_nbi, fetch_inc_nbi, fetch_add_nbi. */
#define DEFINE_STD_NBI(T, N, MODE)                                                         \
    SEQ_BEGIN(T, std_nbi_##MODE##_##N)                                                     \
    T f;                                                                                   \
    e = PAT(T, 0x00000001fffffffeull, 0x7ffffffeu);                                        \
    CALL_##MODE(N, set, x, to_##N(e), pe);                                                 \
    FENCE_##MODE();                                                                        \
    uint64_t c = PAT(T, 0x0123456789abcdefull, 0x01234567u);                               \
    f = to_##N(0x5a5a5a5a5a5a5a5aull);                                                     \
    CALL_##MODE(N, compare_swap_nbi, &f, x, to_##N(e ^ 2), to_##N(c), pe); /* no match */  \
    QUIET_##MODE();                                                                        \
    chk("compare_swap_nbi (no match)", bits_##N(f), e);                                    \
    CALL_##MODE(N, compare_swap_nbi, &f, x, to_##N(e), to_##N(c), pe);                     \
    QUIET_##MODE();                                                                        \
    chk("compare_swap_nbi", bits_##N(f), e);                                               \
    e = c;                                                                                 \
    f = to_##N(0x5a5a5a5a5a5a5a5aull);                                                     \
    CALL_##MODE(N, fetch_inc_nbi, &f, x, pe);                                              \
    QUIET_##MODE();                                                                        \
    chk("fetch_inc_nbi", bits_##N(f), e);                                                  \
    e = (e + 1) & m;                                                                       \
    uint64_t d = PAT(T, 0xffffffff00000001ull, 0xffff0001u);                               \
    f = to_##N(0x5a5a5a5a5a5a5a5aull);                                                     \
    CALL_##MODE(N, fetch_add_nbi, &f, x, to_##N(d), pe);                                   \
    QUIET_##MODE();                                                                        \
    chk("fetch_add_nbi", bits_##N(f), e);                                                  \
    e = (e + d) & m;                                                                       \
    chk("fetch after nbi", bits_##N(CALL_##MODE(N, fetch, x, pe)), e);                     \
    SEQ_END

/* fetch, set, swap.  For float and double the patterns are a normal
 * number, a NaN with payload, -0.0, a subnormal: bits must survive. */
#define EXT_V0(T) PAT(T, 0x0123456789abcdefull, 0x89abcdefu)
#define EXT_V1(T) PAT(T, 0xfedcba9876543210ull, 0x76543210u)
#define EXT_V2(T) PAT(T, 0x7ff8000000000123ull, 0x7fc00123u)
#define EXT_V3(T) PAT(T, 0x8000000000000000ull, 0x80000000u)
#define EXT_V4(T) PAT(T, 0x0000000000000123ull, 0x00000123u)
#define DEFINE_EXT_BLK(T, N, MODE)                                                         \
    SEQ_BEGIN(T, ext_blk_##MODE##_##N)                                                     \
    CALL_##MODE(N, set, x, to_##N(EXT_V0(T)), pe);                                         \
    FENCE_##MODE();                                                                        \
    chk("fetch (const)", bits_##N(CALL_##MODE(N, fetch, (const T *)x, pe)), EXT_V0(T));    \
    chk("swap", bits_##N(CALL_##MODE(N, swap, x, to_##N(EXT_V1(T)), pe)), EXT_V0(T));      \
    chk("fetch", bits_##N(CALL_##MODE(N, fetch, x, pe)), EXT_V1(T));                       \
    CALL_##MODE(N, set, x, to_##N(EXT_V2(T)), pe);                                         \
    FENCE_##MODE();                                                                        \
    chk("swap after set", bits_##N(CALL_##MODE(N, swap, x, to_##N(EXT_V3(T)), pe)), EXT_V2(T)); \
    chk("swap", bits_##N(CALL_##MODE(N, swap, x, to_##N(EXT_V4(T)), pe)), EXT_V3(T));      \
    e = EXT_V4(T);                                                                         \
    chk("fetch", bits_##N(CALL_##MODE(N, fetch, (const T *)x, pe)), e);                    \
    SEQ_END

/* fetch_nbi, swap_nbi. */
#define DEFINE_EXT_NBI(T, N, MODE)                                                         \
    SEQ_BEGIN(T, ext_nbi_##MODE##_##N)                                                     \
    T f = to_##N(0x5a5a5a5a5a5a5a5aull);                                                   \
    CALL_##MODE(N, set, x, to_##N(EXT_V2(T)), pe);                                         \
    FENCE_##MODE();                                                                        \
    CALL_##MODE(N, fetch_nbi, &f, (const T *)x, pe);                                       \
    QUIET_##MODE();                                                                        \
    chk("fetch_nbi", bits_##N(f), EXT_V2(T));                                              \
    f = to_##N(0x5a5a5a5a5a5a5a5aull);                                                     \
    CALL_##MODE(N, swap_nbi, &f, x, to_##N(EXT_V1(T)), pe);                                \
    QUIET_##MODE();                                                                        \
    chk("swap_nbi", bits_##N(f), EXT_V2(T));                                               \
    f = to_##N(0x5a5a5a5a5a5a5a5aull);                                                     \
    CALL_##MODE(N, swap_nbi, &f, x, to_##N(EXT_V3(T)), pe);                                \
    QUIET_##MODE();                                                                        \
    chk("swap_nbi", bits_##N(f), EXT_V1(T));                                               \
    f = to_##N(0x5a5a5a5a5a5a5a5aull);                                                     \
    CALL_##MODE(N, fetch_nbi, &f, x, pe);                                                  \
    QUIET_##MODE();                                                                        \
    e = EXT_V3(T);                                                                         \
    chk("fetch_nbi", bits_##N(f), e);                                                      \
    SEQ_END

/* fetch_and/or/xor, and/or/xor.  Non-fetching bitwise ops do not commute
 * with each other, so each is fenced. */
#define BIT_P(T) PAT(T, 0xf0f0f0f0f0f0f0f0ull, 0xf0f0f0f0u)
#define BIT_Q(T) PAT(T, 0xff00ff00ff00ff00ull, 0xff00ff00u)
#define BIT_R(T) PAT(T, 0x0f000000000000f1ull, 0x0f0000f1u)
#define BIT_S(T) PAT(T, 0xffffffff00000000ull, 0xffff0000u)
#define BIT_Q2(T) PAT(T, 0x7fffffff0ffffff7ull, 0x7ff0fff7u)
#define BIT_R2(T) PAT(T, 0x0000000100000000ull, 0x00010000u)
#define BIT_S2(T) PAT(T, 0x8000000000000080ull, 0x80000080u)
#define DEFINE_BIT_BLK(T, N, MODE)                                                         \
    SEQ_BEGIN(T, bit_blk_##MODE##_##N)                                                     \
    e = BIT_P(T);                                                                          \
    CALL_##MODE(N, set, x, to_##N(e), pe);                                                 \
    FENCE_##MODE();                                                                        \
    chk("fetch_and", bits_##N(CALL_##MODE(N, fetch_and, x, to_##N(BIT_Q(T)), pe)), e);     \
    e &= BIT_Q(T);                                                                         \
    chk("fetch_or", bits_##N(CALL_##MODE(N, fetch_or, x, to_##N(BIT_R(T)), pe)), e);       \
    e |= BIT_R(T);                                                                         \
    chk("fetch_xor", bits_##N(CALL_##MODE(N, fetch_xor, x, to_##N(BIT_S(T)), pe)), e);     \
    e ^= BIT_S(T);                                                                         \
    CALL_##MODE(N, and, x, to_##N(BIT_Q2(T)), pe);                                         \
    FENCE_##MODE();                                                                        \
    CALL_##MODE(N, or, x, to_##N(BIT_R2(T)), pe);                                          \
    FENCE_##MODE();                                                                        \
    CALL_##MODE(N, xor, x, to_##N(BIT_S2(T)), pe);                                         \
    FENCE_##MODE();                                                                        \
    e = ((e & BIT_Q2(T)) | BIT_R2(T)) ^ BIT_S2(T);                                         \
    chk("fetch after and/or/xor", bits_##N(CALL_##MODE(N, fetch, x, pe)), e);              \
    SEQ_END

#define DEFINE_BIT_NBI(T, N, MODE)                                                         \
    SEQ_BEGIN(T, bit_nbi_##MODE##_##N)                                                     \
    T f = to_##N(0x5a5a5a5a5a5a5a5aull);                                                   \
    e = BIT_Q(T);                                                                          \
    CALL_##MODE(N, set, x, to_##N(e), pe);                                                 \
    FENCE_##MODE();                                                                        \
    CALL_##MODE(N, fetch_and_nbi, &f, x, to_##N(BIT_P(T)), pe);                            \
    QUIET_##MODE();                                                                        \
    chk("fetch_and_nbi", bits_##N(f), e);                                                  \
    e &= BIT_P(T);                                                                         \
    f = to_##N(0x5a5a5a5a5a5a5a5aull);                                                     \
    CALL_##MODE(N, fetch_or_nbi, &f, x, to_##N(BIT_S2(T)), pe);                            \
    QUIET_##MODE();                                                                        \
    chk("fetch_or_nbi", bits_##N(f), e);                                                   \
    e |= BIT_S2(T);                                                                        \
    f = to_##N(0x5a5a5a5a5a5a5a5aull);                                                     \
    CALL_##MODE(N, fetch_xor_nbi, &f, x, to_##N(BIT_S(T)), pe);                            \
    QUIET_##MODE();                                                                        \
    chk("fetch_xor_nbi", bits_##N(f), e);                                                  \
    e ^= BIT_S(T);                                                                         \
    chk("fetch after nbi", bits_##N(CALL_##MODE(N, fetch, x, pe)), e);                     \
    SEQ_END

/* The 1.0 untyped swap on long. */
SEQ_BEGIN(long, untyped_swap)
    e = EXT_V1(long);
    shmem_long_set(x, to_long(EXT_V0(long)), pe);
    check_fence();
    chk("(shmem_swap)", bits_long((shmem_swap)(x, to_long(e), pe)), EXT_V0(long));
    chk("(shmem_swap)", bits_long((shmem_swap)(x, to_long(EXT_V3(long)), pe)), e);
    e = EXT_V3(long);
    chk("fetch after (shmem_swap)", bits_long(shmem_long_atomic_fetch(x, pe)), e);
SEQ_END

/* Instantiate every family in every form over its table. */
#define FOR_MODES(TABLE, DEF)                                                              \
    TABLE(DEF, typed) TABLE(DEF, typed_ctx)
#define FOR_GENERIC_MODES(TABLE, DEF) TABLE(DEF, generic) TABLE(DEF, generic_ctx)
FOR_MODES(MPISHMEM_AMO_STD_TYPES, DEFINE_STD_BLK)
FOR_MODES(MPISHMEM_AMO_STD_TYPES, DEFINE_STD_NBI)
FOR_MODES(MPISHMEM_AMO_EXT_TYPES, DEFINE_EXT_BLK)
FOR_MODES(MPISHMEM_AMO_EXT_TYPES, DEFINE_EXT_NBI)
FOR_MODES(MPISHMEM_AMO_BIT_TYPES, DEFINE_BIT_BLK)
FOR_MODES(MPISHMEM_AMO_BIT_TYPES, DEFINE_BIT_NBI)
EVAL(FOR_GENERIC_MODES(MPISHMEM_AMO_STD_GENERIC_TYPES, DEFINE_STD_BLK))
EVAL(FOR_GENERIC_MODES(MPISHMEM_AMO_STD_GENERIC_TYPES, DEFINE_STD_NBI))
EVAL(FOR_GENERIC_MODES(MPISHMEM_AMO_EXT_GENERIC_TYPES, DEFINE_EXT_BLK))
EVAL(FOR_GENERIC_MODES(MPISHMEM_AMO_EXT_GENERIC_TYPES, DEFINE_EXT_NBI))
EVAL(FOR_GENERIC_MODES(MPISHMEM_AMO_BIT_GENERIC_TYPES, DEFINE_BIT_BLK))
EVAL(FOR_GENERIC_MODES(MPISHMEM_AMO_BIT_GENERIC_TYPES, DEFINE_BIT_NBI))
MPISHMEM_AMO_LEGACY_TYPES(DEFINE_STD_BLK, legacy)
MPISHMEM_AMO_LEGACY_EXT_TYPES(DEFINE_EXT_BLK, legacy)
EVAL(MPISHMEM_AMO_STD_GENERIC_TYPES(DEFINE_STD_BLK, depr))
EVAL(MPISHMEM_AMO_EXT_GENERIC_TYPES(DEFINE_EXT_BLK, depr))

typedef struct {
    const char *name;
    uint64_t (*fn)(void *dest, int pe);
    size_t size;
} seq_t;

#define ENTRY(T, N, FN) {#FN "_" #N, FN##_##N, sizeof(T)},
#define ENTRY_LIST(TABLE, FN) TABLE(ENTRY, FN)

static const seq_t seqs_typed[] = {
    ENTRY_LIST(MPISHMEM_AMO_STD_TYPES, std_blk_typed)
    ENTRY_LIST(MPISHMEM_AMO_STD_TYPES, std_nbi_typed)
    ENTRY_LIST(MPISHMEM_AMO_EXT_TYPES, ext_blk_typed)
    ENTRY_LIST(MPISHMEM_AMO_EXT_TYPES, ext_nbi_typed)
    ENTRY_LIST(MPISHMEM_AMO_BIT_TYPES, bit_blk_typed)
    ENTRY_LIST(MPISHMEM_AMO_BIT_TYPES, bit_nbi_typed)
    {NULL, NULL, 0}};
static const seq_t seqs_typed_ctx[] = {
    ENTRY_LIST(MPISHMEM_AMO_STD_TYPES, std_blk_typed_ctx)
    ENTRY_LIST(MPISHMEM_AMO_STD_TYPES, std_nbi_typed_ctx)
    ENTRY_LIST(MPISHMEM_AMO_EXT_TYPES, ext_blk_typed_ctx)
    ENTRY_LIST(MPISHMEM_AMO_EXT_TYPES, ext_nbi_typed_ctx)
    ENTRY_LIST(MPISHMEM_AMO_BIT_TYPES, bit_blk_typed_ctx)
    ENTRY_LIST(MPISHMEM_AMO_BIT_TYPES, bit_nbi_typed_ctx)
    {NULL, NULL, 0}};
static const seq_t seqs_generic[] = {
    ENTRY_LIST(MPISHMEM_AMO_STD_GENERIC_TYPES, std_blk_generic)
    ENTRY_LIST(MPISHMEM_AMO_STD_GENERIC_TYPES, std_nbi_generic)
    ENTRY_LIST(MPISHMEM_AMO_EXT_GENERIC_TYPES, ext_blk_generic)
    ENTRY_LIST(MPISHMEM_AMO_EXT_GENERIC_TYPES, ext_nbi_generic)
    ENTRY_LIST(MPISHMEM_AMO_BIT_GENERIC_TYPES, bit_blk_generic)
    ENTRY_LIST(MPISHMEM_AMO_BIT_GENERIC_TYPES, bit_nbi_generic)
    {NULL, NULL, 0}};
static const seq_t seqs_generic_ctx[] = {
    ENTRY_LIST(MPISHMEM_AMO_STD_GENERIC_TYPES, std_blk_generic_ctx)
    ENTRY_LIST(MPISHMEM_AMO_STD_GENERIC_TYPES, std_nbi_generic_ctx)
    ENTRY_LIST(MPISHMEM_AMO_EXT_GENERIC_TYPES, ext_blk_generic_ctx)
    ENTRY_LIST(MPISHMEM_AMO_EXT_GENERIC_TYPES, ext_nbi_generic_ctx)
    ENTRY_LIST(MPISHMEM_AMO_BIT_GENERIC_TYPES, bit_blk_generic_ctx)
    ENTRY_LIST(MPISHMEM_AMO_BIT_GENERIC_TYPES, bit_nbi_generic_ctx)
    {NULL, NULL, 0}};
static const seq_t seqs_deprecated[] = {
    ENTRY_LIST(MPISHMEM_AMO_LEGACY_TYPES, std_blk_legacy)
    ENTRY_LIST(MPISHMEM_AMO_LEGACY_EXT_TYPES, ext_blk_legacy)
    ENTRY_LIST(MPISHMEM_AMO_STD_GENERIC_TYPES, std_blk_depr)
    ENTRY_LIST(MPISHMEM_AMO_EXT_GENERIC_TYPES, ext_blk_depr)
    {"untyped_swap", untyped_swap, sizeof(long)},
    {NULL, NULL, 0}};

/* Two 8-byte words per sequence: [0] written by the left neighbour, [1]
 * by the owner itself. */
#define MAX_SEQS 160
static uint64_t g_slots[MAX_SEQS][2];

/* Runs every sequence of `seqs` on slots (heap or global), then checks
 * the words this PE owns. */
static void run_seqs(const seq_t *seqs, uint64_t (*slots)[2])
{
    int me = shmem_my_pe(), right = amo_right();
    uint64_t want[MAX_SEQS];
    size_t n = 0;
    memset(slots, 0, MAX_SEQS * sizeof *slots);
    shmem_barrier_all();
    for (; seqs[n].fn != NULL; n++) {
        ck_assert_uint_lt(n, MAX_SEQS);
        cur_seq = seqs[n].name;
        want[n] = seqs[n].fn(&slots[n][0], right);
        uint64_t self = seqs[n].fn(&slots[n][1], me);
        chk("final value (self)", self, want[n]);
    }
    shmem_barrier_all();
    for (size_t k = 0; k < n; k++) {
        for (int w = 0; w < 2; w++) {
            uint64_t got = 0;
            memcpy(&got, &slots[k][w], seqs[k].size);
            if (got != want[k])
                amo_fail("%s: final word %s is 0x%llx, expected 0x%llx", seqs[k].name,
                         w == 0 ? "written by the left neighbour" : "written by its owner",
                         (unsigned long long)got, (unsigned long long)want[k]);
        }
    }
    shmem_barrier_all();
}

enum { ON_HEAP = 1, ON_GLOBAL = 2 };

static void run_on(const seq_t *seqs, int where)
{
    AMO_BEGIN();
    uint64_t(*heap)[2] = shmem_malloc(MAX_SEQS * sizeof *heap);
    ck_assert_ptr_nonnull(heap);
    if (where & ON_HEAP)
        run_seqs(seqs, heap);
    if (where & ON_GLOBAL)
        run_seqs(seqs, g_slots);
    shmem_free(heap);
    AMO_END();
}

/* The C11 forms reach the same typed routines (a wrong dispatch shows in
 * any segment), so each runs in one segment. */
START_TEST(test_typed) { run_on(seqs_typed, ON_HEAP | ON_GLOBAL); }
END_TEST
START_TEST(test_typed_ctx) { run_on(seqs_typed_ctx, ON_HEAP | ON_GLOBAL); }
END_TEST
START_TEST(test_generic) { run_on(seqs_generic, ON_HEAP); }
END_TEST
START_TEST(test_generic_ctx) { run_on(seqs_generic_ctx, ON_GLOBAL); }
END_TEST
START_TEST(test_deprecated) { run_on(seqs_deprecated, ON_HEAP | ON_GLOBAL); }
END_TEST

/* Many fetching _nbi AMOs to distinct words outstanding at once, one quiet
 * completes them all: each result lands in its own fetch buffer. */
#define NB 96
static uint64_t g_nbi64[NB];
static uint32_t g_nbi32[NB];

static void nbi_batch(uint64_t *w64, uint32_t *w32)
{
    int me = shmem_my_pe(), right = amo_right();
    uint64_t f64[NB];
    uint32_t f32[NB];
    for (int k = 0; k < NB; k++) {
        w64[k] = ((uint64_t)(me + 1) << 40) + (uint64_t)k * 0x100000001ull;
        w32[k] = ((uint32_t)(me + 1) << 24) + (uint32_t)k * 0x10001u;
    }
    shmem_barrier_all();
    for (int k = 0; k < NB; k++) {
        switch (k % 4) {
        case 0: shmem_uint64_atomic_fetch_add_nbi(&f64[k], &w64[k], 7, right); break;
        case 1: shmem_uint64_atomic_fetch_nbi(&f64[k], &w64[k], right); break;
        case 2:
            shmem_ctx_uint64_atomic_swap_nbi(shmem_check_ctx, &f64[k], &w64[k], k, right);
            break;
        default: shmem_uint64_atomic_fetch_xor_nbi(&f64[k], &w64[k], 1ull << 63, right); break;
        }
        switch (k % 3) {
        case 0: shmem_uint32_atomic_fetch_inc_nbi(&f32[k], &w32[k], right); break;
        case 1: /* matches the right neighbour's initial value */
            shmem_uint32_atomic_compare_swap_nbi(
                &f32[k], &w32[k], ((uint32_t)(right + 1) << 24) + (uint32_t)k * 0x10001u, 5, right);
            break;
        default: shmem_uint32_atomic_fetch_or_nbi(&f32[k], &w32[k], 1u << 31, right); break;
        }
    }
    check_quiet();
    /* Old values are the right neighbour's initial contents. */
    for (int k = 0; k < NB; k++) {
        uint64_t r64 = ((uint64_t)(right + 1) << 40) + (uint64_t)k * 0x100000001ull;
        uint32_t r32 = ((uint32_t)(right + 1) << 24) + (uint32_t)k * 0x10001u;
        AMO_EXPECT("nbi batch 64-bit result", f64[k], r64);
        AMO_EXPECT("nbi batch 32-bit result", f32[k], r32);
    }
    shmem_barrier_all();
    /* Our words were updated by the left neighbour. */
    for (int k = 0; k < NB; k++) {
        uint64_t i64 = ((uint64_t)(me + 1) << 40) + (uint64_t)k * 0x100000001ull;
        uint32_t i32 = ((uint32_t)(me + 1) << 24) + (uint32_t)k * 0x10001u;
        uint64_t x64 = k % 4 == 0 ? i64 + 7 : k % 4 == 1 ? i64 : k % 4 == 2 ? (uint64_t)k
                                                                     : i64 ^ (1ull << 63);
        uint32_t x32 = k % 3 == 0 ? i32 + 1 : k % 3 == 1 ? 5 : i32 | (1u << 31);
        AMO_EXPECT("nbi batch 64-bit word", w64[k], x64);
        AMO_EXPECT("nbi batch 32-bit word", w32[k], x32);
    }
    shmem_barrier_all();
}

START_TEST(test_nbi_batch)
{
    AMO_BEGIN();
    uint64_t *h64 = shmem_malloc(NB * sizeof *h64);
    uint32_t *h32 = shmem_malloc(NB * sizeof *h32);
    nbi_batch(h64, h32);
    nbi_batch(g_nbi64, g_nbi32);
    shmem_free(h32);
    shmem_free(h64);
    AMO_END();
}
END_TEST

/* shmem_fence (and quiet) order non-fetching AMOs: data AMOs to the
 * right neighbour, a fence, then a flag AMO; the neighbour waits for the
 * flag and must see every data AMO.  Data and flag in different segments,
 * so the fence must cover both.  The neighbour acknowledges each round
 * before the next one overwrites the data. */
#define FENCE_ROUNDS 12
static uint64_t g_fdata[4], g_fflag[2];
static uint32_t g_fdata32[2];

static void fence_order(uint64_t *data, uint32_t *data32, uint64_t *flag, uint64_t *ack,
                        int use_quiet)
{
    int me = shmem_my_pe(), right = amo_right(), left = amo_left();
    shmem_uint64_atomic_set(flag, 0, me);
    shmem_uint64_atomic_set(ack, 0, me);
    for (int k = 0; k < 4; k++)
        shmem_uint64_atomic_set(&data[k], 0, me);
    for (int k = 0; k < 2; k++)
        shmem_uint32_atomic_set(&data32[k], 0, me);
    shmem_barrier_all();
    uint64_t sum = 0, xr = 0;
    uint32_t sum32 = 0;
    for (int r = 0; r < FENCE_ROUNDS; r++) {
        uint64_t setv = 0x0123456789abcdefull ^ ((uint64_t)r << 40);
        if (r > 0)
            shmem_uint64_wait_until(ack, SHMEM_CMP_EQ, (uint64_t)r);
        shmem_uint64_atomic_add(&data[0], (uint64_t)r + 0x100000000ull, right);
        shmem_uint64_atomic_set(&data[1], setv, right);
        shmem_uint64_atomic_xor(&data[2], 1ull << (r * 5 % 64), right);
        shmem_ctx_uint64_atomic_inc(shmem_check_ctx, &data[3], right);
        shmem_uint32_atomic_add(&data32[0], 0x10001u, right);
        shmem_uint32_atomic_or(&data32[1], 1u << r, right);
        if (use_quiet)
            check_quiet();
        else
            check_fence();
        shmem_uint64_atomic_set(flag, (uint64_t)r + 1, right);
        /* Our words, updated the same way by the left neighbour. */
        shmem_uint64_wait_until(flag, SHMEM_CMP_EQ, (uint64_t)r + 1);
        sum += (uint64_t)r + 0x100000000ull;
        xr ^= 1ull << (r * 5 % 64);
        sum32 += 0x10001u;
        AMO_EXPECT("add before fence", shmem_uint64_atomic_fetch(&data[0], me), sum);
        AMO_EXPECT("set before fence", shmem_uint64_atomic_fetch(&data[1], me), setv);
        AMO_EXPECT("xor before fence", shmem_uint64_atomic_fetch(&data[2], me), xr);
        AMO_EXPECT("ctx inc before fence", shmem_uint64_atomic_fetch(&data[3], me), r + 1);
        AMO_EXPECT("32-bit add before fence", shmem_uint32_atomic_fetch(&data32[0], me), sum32);
        AMO_EXPECT("32-bit or before fence", shmem_uint32_atomic_fetch(&data32[1], me),
                   (1u << (r + 1)) - 1);
        shmem_uint64_atomic_set(ack, (uint64_t)r + 1, left);
    }
    shmem_uint64_wait_until(ack, SHMEM_CMP_EQ, FENCE_ROUNDS);
    shmem_barrier_all();
}

START_TEST(test_fence_order)
{
    AMO_BEGIN();
    uint64_t *h = shmem_malloc(8 * sizeof *h);
    uint32_t *h32 = shmem_malloc(2 * sizeof *h32);
    fence_order(g_fdata, g_fdata32, &h[4], &h[5], 0); /* global data, heap flag */
    fence_order(h, h32, &g_fflag[0], &g_fflag[1], 0); /* heap data, global flag */
    fence_order(h, g_fdata32, &h[4], &g_fflag[1], 1); /* quiet instead of fence */
    shmem_free(h32);
    shmem_free(h);
    AMO_END();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("amo_types");
    TCase *tc = tcase_create("types");
    tcase_add_test(tc, test_typed);
    tcase_add_test(tc, test_typed_ctx);
    tcase_add_test(tc, test_generic);
    tcase_add_test(tc, test_generic_ctx);
    tcase_add_test(tc, test_deprecated);
    tcase_add_test(tc, test_nbi_batch);
    tcase_add_test(tc, test_fence_order);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
