/*
 * amo_hammer: every PE issues thousands of mixed AMOs on ONE word on PE 0,
 * in the symmetric heap and in global data, for a 64-bit and a 32-bit
 * type.  Then a "swap chain" and a set/fetch race on the same word.
 *
 * The word is split into fields so that the final value is exact for any
 * interleaving:
 *   counter   bits [0, CB)       add, fetch_add, inc, fetch_inc, fetch_add_nbi
 *                                and compare_swap loops; the total stays below
 *                                2^CB, so nothing carries out of the field;
 *   OR lane   next LB bits       or / fetch_or, only in the low half;
 *   AND lane  next LB bits       and / fetch_and, starts all ones, only the
 *                                low half is ever cleared;
 *   XOR lane  next LB bits       xor / fetch_xor, and every compare_swap
 *                                flips one bit there too;
 *   spare     the rest (64-bit)  a fixed pattern nobody may touch.
 * Each op touches one field and ops on a field commute, so a lost or torn
 * update shows in the final word.  Every PE can replay every PE's sequence
 * (it is a hash of PE and index), so every PE knows the final word.
 *
 * Values returned by fetching AMOs are checked too: the counter never goes
 * below what this PE knows is delivered; the OR lane holds every bit this
 * PE has set, the AND lane none it has cleared.  A non-fetching AMO counts
 * as delivered only after the next shmem_fence (the spec orders AMOs to
 * one PE only across a fence).
 */
#include "amo_common.h"

#define FENCE_EVERY 64

enum {
    OP_ADD, OP_FADD, OP_INC, OP_FINC, OP_CAS, OP_OR, OP_FOR, OP_AND, OP_FAND,
    OP_XOR, OP_FXOR, OP_FADD_NBI, OP_FETCH, OP_CTX_FADD, N_OPS
};

typedef struct {
    unsigned cb, lb;          /* counter bits, bits per lane */
    unsigned os, as, xs, ss;  /* first bit of OR, AND, XOR lanes and spare */
    uint64_t spare;           /* spare pattern, already shifted */
} layout_t;

static layout_t layout_of(unsigned width)
{
    layout_t L;
    L.cb = width == 64 ? 32 : 20;
    L.lb = width == 64 ? 8 : 4;
    L.os = L.cb;
    L.as = L.os + L.lb;
    L.xs = L.as + L.lb;
    L.ss = L.xs + L.lb;
    L.spare = width == 64 ? 0xa5ull << L.ss : 0;
    return L;
}

static uint64_t lane(uint64_t w, unsigned shift, unsigned bits)
{
    return (w >> shift) & ((1ull << bits) - 1);
}

typedef struct {
    int op;
    unsigned v;   /* amount added (0 for bitwise ops) */
    unsigned bit; /* lane bit for or/and/xor/cas */
} step_t;

/* The i-th AMO of PE pe: a pure function, so any PE can replay it. */
static step_t step_of(int pe, long i, const layout_t *L, uint64_t salt)
{
    uint64_t h = amo_hash(((uint64_t)pe << 40) ^ salt, (uint64_t)i);
    step_t s;
    s.op = (int)(h % N_OPS);
    int orand = s.op == OP_OR || s.op == OP_FOR || s.op == OP_AND || s.op == OP_FAND;
    s.bit = (unsigned)((h >> 24) % (orand ? L->lb / 2 : L->lb));
    switch (s.op) {
    case OP_INC: case OP_FINC: s.v = 1; break;
    case OP_ADD: case OP_FADD: case OP_CAS: case OP_FADD_NBI: case OP_CTX_FADD:
        s.v = 1 + (unsigned)((h >> 16) % 8);
        break;
    default: s.v = 0;
    }
    return s;
}

typedef struct {
    uint64_t add, or_set, and_clr, xor_flip; /* lane masks are lane-relative */
} effect_t;

static void apply(effect_t *e, const step_t *s)
{
    e->add += s->v;
    switch (s->op) {
    case OP_OR: case OP_FOR: e->or_set |= 1ull << s->bit; break;
    case OP_AND: case OP_FAND: e->and_clr |= 1ull << s->bit; break;
    case OP_XOR: case OP_FXOR: case OP_CAS: e->xor_flip ^= 1ull << s->bit; break;
    default: break;
    }
}

static uint64_t initial_word(const layout_t *L)
{
    return (((1ull << L->lb) - 1) << L->as) | L->spare;
}

/* The word after every PE's sequence, whatever the interleaving. */
static uint64_t final_word(const layout_t *L, int npes, long iters, uint64_t salt,
                           effect_t *all)
{
    effect_t e = {0, 0, 0, 0};
    for (int pe = 0; pe < npes; pe++)
        for (long i = 0; i < iters; i++) {
            step_t s = step_of(pe, i, L, salt);
            apply(&e, &s);
        }
    *all = e;
    uint64_t full = (1ull << L->lb) - 1;
    return e.add | (e.or_set << L->os) | ((full & ~e.and_clr) << L->as) |
           (e.xor_flip << L->xs) | L->spare;
}

/* What this PE knows about the word at any later fetch. */
typedef struct {
    const layout_t *L;
    effect_t all;          /* every PE's effect: bounds for any fetched value */
    uint64_t min_count;    /* counter lower bound */
    effect_t done, pend;   /* this PE's effect, delivered / not yet ordered */
    long i;
} track_t;

static void check_fetched(track_t *t, uint64_t old, const char *op)
{
    const layout_t *L = t->L;
    uint64_t count = lane(old, 0, L->cb);
    uint64_t orl = lane(old, L->os, L->lb), andl = lane(old, L->as, L->lb);
    uint64_t full = (1ull << L->lb) - 1;
    if (count < t->min_count || count > t->all.add)
        amo_fail("iter %ld %s: counter %llu outside [%llu, %llu] (word 0x%llx)", t->i, op,
                 (unsigned long long)count, (unsigned long long)t->min_count,
                 (unsigned long long)t->all.add, (unsigned long long)old);
    if ((orl & t->done.or_set) != t->done.or_set || (orl & ~t->all.or_set) != 0)
        amo_fail("iter %ld %s: OR lane 0x%llx, must hold 0x%llx and lie within 0x%llx", t->i,
                 op, (unsigned long long)orl, (unsigned long long)t->done.or_set,
                 (unsigned long long)t->all.or_set);
    uint64_t and_kept = full & ~t->all.and_clr; /* bits nobody clears */
    if ((andl & t->done.and_clr) != 0 || (andl & and_kept) != and_kept)
        amo_fail("iter %ld %s: AND lane 0x%llx, bits 0x%llx must be clear, 0x%llx set", t->i,
                 op, (unsigned long long)andl, (unsigned long long)t->done.and_clr,
                 (unsigned long long)and_kept);
    if (L->ss < 64 && (old >> L->ss) != (L->spare >> L->ss))
        amo_fail("iter %ld %s: spare bits of 0x%llx changed", t->i, op,
                 (unsigned long long)old);
}

/* A fetching op returned old and (atomically) applied s. */
static void fetched(track_t *t, uint64_t old, const step_t *s, const char *op)
{
    check_fetched(t, old, op);
    apply(&t->done, s);
    uint64_t after = lane(old, 0, t->L->cb) + s->v;
    t->min_count = after > t->done.add ? after : t->done.add;
}

static void fence(track_t *t)
{
    shmem_fence();
    t->done.add += t->pend.add;
    t->done.or_set |= t->pend.or_set;
    t->done.and_clr |= t->pend.and_clr;
    if (t->done.add > t->min_count)
        t->min_count = t->done.add;
    t->pend = (effect_t){0, 0, 0, 0};
}

/* hammer_N(word, iters, salt): this PE's sequence on *word at PE 0,
 * then the check of the final word. */
#define DEFINE_HAMMER(T, N)                                                                \
    static void hammer_##N(T *word, long iters, uint64_t salt)                             \
    {                                                                                      \
        const unsigned width = 8 * sizeof(T);                                              \
        const layout_t L = layout_of(width);                                               \
        int me = shmem_my_pe(), npes = shmem_n_pes();                                      \
        track_t t = {.L = &L};                                                             \
        uint64_t want = final_word(&L, npes, iters, salt, &t.all);                         \
        if (t.all.add >> L.cb)                                                             \
            amo_fail("too many iterations (%ld): the counter would overflow", iters);      \
        if (me == 0)                                                                       \
            shmem_##N##_atomic_set(word, (T)initial_word(&L), 0);                          \
        shmem_barrier_all();                                                               \
        for (long i = 0; i < iters; i++) {                                                 \
            step_t s = step_of(me, i, &L, salt);                                           \
            T v = (T)s.v, old;                                                             \
            T orb = (T)1 << (L.os + s.bit), andm = (T) ~((T)1 << (L.as + s.bit));          \
            T xorb = (T)1 << (L.xs + s.bit);                                               \
            t.i = i;                                                                       \
            switch (s.op) {                                                                \
            case OP_ADD: shmem_##N##_atomic_add(word, v, 0); apply(&t.pend, &s); break;    \
            case OP_INC: shmem_##N##_atomic_inc(word, 0); apply(&t.pend, &s); break;       \
            case OP_OR: shmem_##N##_atomic_or(word, orb, 0); apply(&t.pend, &s); break;    \
            case OP_AND: shmem_##N##_atomic_and(word, andm, 0); apply(&t.pend, &s); break; \
            case OP_XOR: shmem_##N##_atomic_xor(word, xorb, 0); apply(&t.pend, &s); break; \
            case OP_FADD:                                                                  \
                fetched(&t, shmem_##N##_atomic_fetch_add(word, v, 0), &s, "fetch_add");    \
                break;                                                                     \
            case OP_CTX_FADD:                                                              \
                old = shmem_ctx_##N##_atomic_fetch_add(SHMEM_CTX_DEFAULT, word, v, 0);     \
                fetched(&t, old, &s, "ctx_fetch_add");                                     \
                break;                                                                     \
            case OP_FINC:                                                                  \
                fetched(&t, shmem_##N##_atomic_fetch_inc(word, 0), &s, "fetch_inc");       \
                break;                                                                     \
            case OP_FOR:                                                                   \
                fetched(&t, shmem_##N##_atomic_fetch_or(word, orb, 0), &s, "fetch_or");    \
                break;                                                                     \
            case OP_FAND:                                                                  \
                fetched(&t, shmem_##N##_atomic_fetch_and(word, andm, 0), &s, "fetch_and"); \
                break;                                                                     \
            case OP_FXOR:                                                                  \
                fetched(&t, shmem_##N##_atomic_fetch_xor(word, xorb, 0), &s, "fetch_xor"); \
                break;                                                                     \
            case OP_FETCH:                                                                 \
                fetched(&t, shmem_##N##_atomic_fetch(word, 0), &s, "fetch");               \
                break;                                                                     \
            case OP_FADD_NBI:                                                              \
                old = 0;                                                                   \
                shmem_##N##_atomic_fetch_add_nbi(&old, word, v, 0);                        \
                shmem_quiet();                                                             \
                fetched(&t, old, &s, "fetch_add_nbi");                                     \
                break;                                                                     \
            case OP_CAS: {                                                                 \
                /* Read-modify-write by compare_swap: add v, flip one XOR bit. */          \
                T cur = shmem_##N##_atomic_fetch(word, 0);                                 \
                for (;;) {                                                                 \
                    check_fetched(&t, cur, "compare_swap");                                \
                    T next = (T)((T)(cur + v) ^ xorb);                                     \
                    T got = shmem_##N##_atomic_compare_swap(word, cur, next, 0);           \
                    if (got == cur)                                                        \
                        break;                                                             \
                    cur = got;                                                             \
                }                                                                          \
                fetched(&t, cur, &s, "compare_swap");                                      \
                break;                                                                     \
            }                                                                              \
            }                                                                              \
            if ((i + 1) % FENCE_EVERY == 0)                                                \
                fence(&t);                                                                 \
        }                                                                                  \
        shmem_barrier_all();                                                               \
        AMO_EXPECT(#N " final word (fetch)", shmem_##N##_atomic_fetch(word, 0), want);     \
        shmem_barrier_all();                                                               \
        if (me == 0)                                                                       \
            AMO_EXPECT(#N " final word (local)", *(volatile T *)word, want);               \
    }

/* Swap chain: every PE swaps distinct values 1..n*R into the word (which
 * starts at 0); the returned values plus the final one must be exactly
 * {0, 1, ..., n*R}: nothing lost, nothing duplicated. */
#define DEFINE_SWAP_CHAIN(T, N)                                                            \
    static void swap_chain_##N(T *word, long R)                                            \
    {                                                                                      \
        int me = shmem_my_pe(), npes = shmem_n_pes();                                      \
        size_t total = (size_t)npes * (size_t)R;                                           \
        T *res = shmem_malloc(total * sizeof(T));                                          \
        T *mine = malloc((size_t)R * sizeof(T));                                           \
        ck_assert(res != NULL && mine != NULL);                                            \
        if (me == 0)                                                                       \
            shmem_##N##_atomic_set(word, 0, 0);                                            \
        shmem_barrier_all();                                                               \
        for (long r = 0; r < R; r++) {                                                     \
            T val = (T)((size_t)me * (size_t)R + (size_t)r + 1);                           \
            switch (r % 3) {                                                               \
            case 0: mine[r] = shmem_##N##_atomic_swap(word, val, 0); break;                \
            case 1: mine[r] = shmem_ctx_##N##_atomic_swap(SHMEM_CTX_DEFAULT, word, val, 0); break; \
            default: shmem_##N##_atomic_swap_nbi(&mine[r], word, val, 0); break;           \
            }                                                                              \
            if (r % 16 == 15)                                                              \
                shmem_quiet();                                                             \
        }                                                                                  \
        shmem_quiet();                                                                     \
        for (long r = 0; r < R; r++)                                                       \
            if (mine[r] == (T)((size_t)me * (size_t)R + (size_t)r + 1))                    \
                amo_fail(#N " swap %ld returned the value it swapped in", r);              \
        shmem_putmem(res + (size_t)me * (size_t)R, mine, (size_t)R * sizeof(T), 0);        \
        shmem_barrier_all();                                                               \
        if (me == 0) {                                                                     \
            unsigned char *seen = calloc(total + 1, 1);                                    \
            T last = shmem_##N##_atomic_fetch(word, 0);                                    \
            for (size_t k = 0; k <= total; k++) {                                          \
                T x = k < total ? res[k] : last;                                           \
                if ((uint64_t)x > total)                                                   \
                    amo_fail(#N " swap chain: value %llu out of range", (unsigned long long)x); \
                else if (seen[x]++)                                                        \
                    amo_fail(#N " swap chain: value %llu seen twice", (unsigned long long)x); \
            }                                                                              \
            free(seen);                                                                    \
        }                                                                                  \
        free(mine);                                                                        \
        shmem_free(res);                                                                   \
    }

/* Set and fetch race: every PE sets the word to values whose two halves
 * mirror each other (the low half is the complement of the high half, which
 * names the PE and round), while fetching it.  A fetched value must be one
 * that was set (no torn read or write), and the final value must be some
 * PE's last. */
#define DEFINE_SET_RACE(T, N)                                                              \
    static T set_value_##N(int pe, long r)                                                 \
    {                                                                                      \
        const unsigned half = 4 * sizeof(T);                                               \
        uint64_t hmask = (1ull << half) - 1;                                               \
        uint64_t h = ((uint64_t)pe * 2048 + (uint64_t)r + 1) & hmask;                      \
        return (T)((h << half) | (~h & hmask));                                            \
    }                                                                                      \
    static int set_valid_##N(T x, int npes, long R, long *r)                               \
    {                                                                                      \
        const unsigned half = 4 * sizeof(T);                                               \
        uint64_t hmask = (1ull << half) - 1;                                               \
        uint64_t h = ((uint64_t)x >> half) & hmask;                                        \
        if (((uint64_t)x & hmask) != (~h & hmask) || h == 0)                               \
            return 0;                                                                      \
        *r = (long)((h - 1) % 2048);                                                       \
        return (long)((h - 1) / 2048) < npes && *r < R;                                    \
    }                                                                                      \
    static void set_race_##N(T *word, long R)                                              \
    {                                                                                      \
        int me = shmem_my_pe(), npes = shmem_n_pes();                                      \
        long r;                                                                            \
        if (R > 2047)                                                                      \
            R = 2047;                                                                      \
        if (me == 0)                                                                       \
            shmem_##N##_atomic_set(word, set_value_##N(0, 0), 0);                          \
        shmem_barrier_all();                                                               \
        for (long i = 0; i < R; i++) {                                                     \
            T v = set_value_##N(me, i), x;                                                 \
            if (i == R - 1)                                                                \
                shmem_fence(); /* our earlier sets land before our last */                 \
            switch (i % 3) {                                                               \
            case 0: shmem_##N##_atomic_set(word, v, 0); break;                             \
            case 1: shmem_ctx_##N##_atomic_set(SHMEM_CTX_DEFAULT, word, v, 0); break;      \
            default:                                                                       \
                shmem_##N##_atomic_set(word, v, 0);                                        \
                shmem_##N##_atomic_fetch_nbi(&x, word, 0);                                 \
                shmem_quiet();                                                             \
                if (!set_valid_##N(x, npes, R, &r))                                        \
                    amo_fail(#N " set race: fetch_nbi returned 0x%llx, never set",         \
                             (unsigned long long)x);                                       \
                break;                                                                     \
            }                                                                              \
            x = shmem_##N##_atomic_fetch(word, 0);                                         \
            if (!set_valid_##N(x, npes, R, &r))                                            \
                amo_fail(#N " set race: fetch returned 0x%llx, never set",                 \
                         (unsigned long long)x);                                           \
        }                                                                                  \
        shmem_barrier_all();                                                               \
        T last = shmem_##N##_atomic_fetch(word, 0);                                        \
        if (!set_valid_##N(last, npes, R, &r) || r != R - 1)                               \
            amo_fail(#N " set race: final value 0x%llx is no PE's last",                   \
                     (unsigned long long)last);                                            \
        shmem_barrier_all();                                                               \
    }

#define DEFINE_ALL(T, N) DEFINE_HAMMER(T, N) DEFINE_SWAP_CHAIN(T, N) DEFINE_SET_RACE(T, N)
DEFINE_ALL(uint64_t, uint64)
DEFINE_ALL(uint32_t, uint32)

static uint64_t g_word64;
static uint32_t g_word32;

/* Per-PE counts: a fixed total split over the PEs (with a floor), so 8
 * oversubscribed PEs take about as long as 2. */
static long per_pe(long total, long floor)
{
    long n = total / shmem_n_pes();
    return n > floor ? n : floor;
}
static long iters(void) { return amo_env_long("AMO_HAMMER_ITERS", per_pe(2400, 300)); }
static long swaps(void) { return amo_env_long("AMO_HAMMER_SWAPS", per_pe(640, 40)); }

START_TEST(test_hammer_heap64)
{
    AMO_BEGIN();
    uint64_t *w = shmem_malloc_with_hints(sizeof *w, SHMEM_MALLOC_ATOMICS_REMOTE);
    hammer_uint64(w, iters(), 1);
    shmem_free(w);
    AMO_END();
}
END_TEST

START_TEST(test_hammer_global64)
{
    AMO_BEGIN();
    hammer_uint64(&g_word64, iters(), 2);
    AMO_END();
}
END_TEST

START_TEST(test_hammer_heap32)
{
    AMO_BEGIN();
    /* Not the first heap word, to exercise a nonzero displacement. */
    uint32_t *w = shmem_malloc(4 * sizeof *w);
    hammer_uint32(w + 3, iters(), 3);
    shmem_free(w);
    AMO_END();
}
END_TEST

START_TEST(test_hammer_global32)
{
    AMO_BEGIN();
    hammer_uint32(&g_word32, iters(), 4);
    AMO_END();
}
END_TEST

START_TEST(test_swap_chain_heap)
{
    AMO_BEGIN();
    uint64_t *w = shmem_malloc(2 * sizeof *w);
    swap_chain_uint64(w, swaps());
    swap_chain_uint32((uint32_t *)(w + 1), swaps());
    shmem_free(w);
    AMO_END();
}
END_TEST

START_TEST(test_swap_chain_global)
{
    AMO_BEGIN();
    swap_chain_uint64(&g_word64, swaps());
    swap_chain_uint32(&g_word32, swaps());
    AMO_END();
}
END_TEST

START_TEST(test_set_race)
{
    AMO_BEGIN();
    /* Both widths, both segments, in two runs. */
    uint64_t *w = shmem_malloc(sizeof *w);
    set_race_uint64(w, swaps());
    set_race_uint32(&g_word32, swaps());
    shmem_free(w);
    AMO_END();
}
END_TEST

/* One case per test, so CK_RUN_CASE can pick one. */
static void add_case(Suite *s, const char *name, const TTest *test)
{
    TCase *tc = tcase_create(name);
    tcase_add_test(tc, test);
    suite_add_tcase(s, tc);
}

static Suite *make_suite(void)
{
    Suite *s = suite_create("amo_hammer");
    add_case(s, "heap64", test_hammer_heap64);
    add_case(s, "global64", test_hammer_global64);
    add_case(s, "heap32", test_hammer_heap32);
    add_case(s, "global32", test_hammer_global32);
    add_case(s, "swap_chain_heap", test_swap_chain_heap);
    add_case(s, "swap_chain_global", test_swap_chain_global);
    add_case(s, "set_race", test_set_race);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
