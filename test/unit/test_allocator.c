/*
 * Unit tests for the symmetric-heap offset allocator (spaces/heap/allocator.c).
 *
 * Build and run:
 *   gcc -std=c11 -O2 -Wall -Wextra -I spaces spaces/heap/allocator.c \
 *       test/unit/test_allocator.c $(pkg-config --cflags --libs check) \
 *       -o /tmp/test_allocator && /tmp/test_allocator
 */
#include "allocator.h"

#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FAIL MPISHMEM_ALLOC_FAIL
#define KiB ((size_t)1024)
#define MiB (1024 * KiB)

/* Check's ck_assert_* log the location of every passing assertion to a file
 * (for crash reports), which makes millions of checks in the randomized
 * tests take minutes; these only call into Check when they fail. */
#define REQ(c)                                                               \
    do {                                                                     \
        if (!(c)) ck_abort_msg("Assertion '%s' failed", #c);                 \
    } while (0)
#define REQ_OP(x, op, y)                                                     \
    do {                                                                     \
        uintmax_t x_ = (uintmax_t)(x), y_ = (uintmax_t)(y);                  \
        if (!(x_ op y_))                                                     \
            ck_abort_msg("Assertion '%s %s %s' failed: %ju vs %ju", #x, #op, \
                         #y, x_, y_);                                        \
    } while (0)
#define REQ_EQ(x, y) REQ_OP(x, ==, y)
#define REQ_NE(x, y) REQ_OP(x, !=, y)
#define REQ_LT(x, y) REQ_OP(x, <, y)
#define REQ_LE(x, y) REQ_OP(x, <=, y)
#define REQ_GT(x, y) REQ_OP(x, >, y)
#define REQ_GE(x, y) REQ_OP(x, >=, y)

/* Tiny deterministic PRNG (xorshift64*) so failures are reproducible. */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}
static size_t rng_below(uint64_t *s, size_t n) { return (size_t)(rng_next(s) % n); }

static mpishmem_allocator_stats_t stats_of(const mpishmem_allocator_t *a)
{
    mpishmem_allocator_stats_t st;
    mpishmem_allocator_stats(a, &st);
    return st;
}

static void assert_stats_eq(const mpishmem_allocator_stats_t *x,
                            const mpishmem_allocator_stats_t *y)
{
    REQ_EQ(x->capacity, y->capacity);
    REQ_EQ(x->bytes_used, y->bytes_used);
    REQ_EQ(x->bytes_free, y->bytes_free);
    REQ_EQ(x->largest_free, y->largest_free);
    REQ_EQ(x->live_blocks, y->live_blocks);
    REQ_EQ(x->free_blocks, y->free_blocks);
}

/* Heap must be one free block covering everything. */
static void assert_pristine(const mpishmem_allocator_t *a, size_t cap)
{
    mpishmem_allocator_stats_t st = stats_of(a);
    REQ_EQ(st.capacity, cap);
    REQ_EQ(st.bytes_used, 0);
    REQ_EQ(st.bytes_free, cap);
    REQ_EQ(st.largest_free, cap);
    REQ_EQ(st.live_blocks, 0);
    REQ_EQ(st.free_blocks, 1);
}

START_TEST(test_basic)
{
    mpishmem_allocator_t *a = mpishmem_allocator_create(MiB + 17);
    ck_assert_ptr_nonnull(a);
    assert_pristine(a, MiB); /* rounded down to 64 */

    size_t x = mpishmem_allocator_alloc(a, 100, 0);
    REQ_NE(x, FAIL);
    REQ_EQ(x % 64, 0);
    REQ_EQ(mpishmem_allocator_usable_size(a, x), 128);
    size_t y = mpishmem_allocator_alloc(a, 1, 0);
    REQ_NE(y, FAIL);
    REQ_NE(x, y);
    REQ_EQ(mpishmem_allocator_usable_size(a, y), 64);

    mpishmem_allocator_stats_t st = stats_of(a);
    REQ_EQ(st.bytes_used, 192);
    REQ_EQ(st.bytes_free, MiB - 192);
    REQ_EQ(st.live_blocks, 2);

    REQ(mpishmem_allocator_contains(a, x, 128));
    REQ(!mpishmem_allocator_contains(a, x, 129)); /* past x's end */
    REQ(!mpishmem_allocator_contains(a, x + 64, 65));

    REQ_EQ(mpishmem_allocator_free(a, x), 0);
    REQ_EQ(mpishmem_allocator_usable_size(a, x), 0);
    REQ(!mpishmem_allocator_contains(a, x, 1));
    REQ_EQ(mpishmem_allocator_free(a, y), 0);
    assert_pristine(a, MiB);

    /* The whole heap is allocatable in one piece. */
    REQ_EQ(mpishmem_allocator_alloc(a, MiB, 0), 0);
    REQ_EQ(mpishmem_allocator_alloc(a, 1, 0), FAIL);
    REQ_EQ(mpishmem_allocator_free(a, 0), 0);
    assert_pristine(a, MiB);
    mpishmem_allocator_destroy(a);

    /* Degenerate capacities. */
    a = mpishmem_allocator_create(63);
    ck_assert_ptr_nonnull(a);
    REQ_EQ(stats_of(a).capacity, 0);
    REQ_EQ(mpishmem_allocator_alloc(a, 1, 0), FAIL);
    REQ_EQ(mpishmem_allocator_free(a, 0), -1);
    mpishmem_allocator_destroy(a);
    mpishmem_allocator_destroy(NULL);
}
END_TEST

START_TEST(test_alignment)
{
    /* Only offsets are managed, so a large capacity costs no memory. */
    size_t cap = SIZE_MAX > 0xffffffffu ? (size_t)64 << 30 : (size_t)1 << 30;
    int max_shift = SIZE_MAX > 0xffffffffu ? 32 : 28;
    mpishmem_allocator_t *a = mpishmem_allocator_create(cap);
    ck_assert_ptr_nonnull(a);
    size_t live[256];
    int n = 0;

    for (size_t al = 1; al <= 64; al <<= 1) { /* small aligns mean 64 */
        size_t o = mpishmem_allocator_alloc(a, 3, al);
        REQ_NE(o, FAIL);
        REQ_EQ(o % 64, 0);
        live[n++] = o;
    }
    for (int k = 7; k <= max_shift; k++) {
        size_t al = (size_t)1 << k;
        /* A small misaligning allocation in between forces real padding. */
        size_t s = mpishmem_allocator_alloc(a, 64, 0);
        REQ_NE(s, FAIL);
        live[n++] = s;
        size_t o = mpishmem_allocator_alloc(a, 1000, al);
        REQ_NE(o, FAIL);
        REQ_EQ(o % al, 0);
        REQ_GE(mpishmem_allocator_usable_size(a, o), 1000);
        REQ(mpishmem_allocator_contains(a, o, 1000));
        live[n++] = o;
    }
    /* Not a power of two. */
    REQ_EQ(mpishmem_allocator_alloc(a, 64, 96), FAIL);
    REQ_EQ(mpishmem_allocator_alloc(a, 64, 3), FAIL);

    for (int i = n - 1; i >= 0; i -= 2) /* free in a scrambled order */
        REQ_EQ(mpishmem_allocator_free(a, live[i]), 0);
    for (int i = n - 2; i >= 0; i -= 2)
        REQ_EQ(mpishmem_allocator_free(a, live[i]), 0);
    assert_pristine(a, cap);
    mpishmem_allocator_destroy(a);
}
END_TEST

START_TEST(test_exhaustion)
{
    mpishmem_allocator_t *a = mpishmem_allocator_create(MiB);
    ck_assert_ptr_nonnull(a);
    static size_t offs[1024];
    for (size_t i = 0; i < 1024; i++) {
        offs[i] = mpishmem_allocator_alloc(a, 1000, 0); /* 1024 usable */
        REQ_NE(offs[i], FAIL);
    }
    REQ_EQ(mpishmem_allocator_alloc(a, 1, 0), FAIL);
    mpishmem_allocator_stats_t st = stats_of(a);
    REQ_EQ(st.bytes_free, 0);
    REQ_EQ(st.free_blocks, 0);
    REQ_EQ(st.largest_free, 0);
    REQ_EQ(st.live_blocks, 1024);

    /* Free one: exactly that hole is reused, then full again. */
    REQ_EQ(mpishmem_allocator_free(a, offs[500]), 0);
    REQ_EQ(mpishmem_allocator_alloc(a, 1025, 0), FAIL);
    REQ_EQ(mpishmem_allocator_alloc(a, 1000, 0), offs[500]);
    REQ_EQ(mpishmem_allocator_alloc(a, 64, 0), FAIL);

    /* Free two neighbours: they coalesce into one 2 KiB hole. */
    size_t lo = offs[10] < offs[11] ? offs[10] : offs[11];
    REQ_EQ(mpishmem_allocator_free(a, offs[10]), 0);
    REQ_EQ(mpishmem_allocator_free(a, offs[11]), 0);
    st = stats_of(a);
    REQ_EQ(st.free_blocks, 1);
    REQ_EQ(st.largest_free, 2048);
    REQ_EQ(mpishmem_allocator_alloc(a, 2048, 0), lo);
    REQ_EQ(mpishmem_allocator_alloc(a, 64, 0), FAIL);
    mpishmem_allocator_destroy(a);
}
END_TEST

START_TEST(test_coalesce_random_free)
{
    const size_t cap = 16 * MiB;
    mpishmem_allocator_t *a = mpishmem_allocator_create(cap);
    ck_assert_ptr_nonnull(a);
    enum { N = 5000 };
    static size_t offs[N];
    uint64_t seed = 0x1234567ULL + (uint64_t)_i;
    int n = 0;
    while (n < N) {
        size_t sz = 1 + rng_below(&seed, rng_below(&seed, 8) ? 2048 : 64 * KiB);
        size_t al = rng_below(&seed, 6) ? 0 : (size_t)1 << (6 + rng_below(&seed, 10));
        size_t o = mpishmem_allocator_alloc(a, sz, al);
        if (o == FAIL) break;
        offs[n++] = o;
    }
    REQ_GT(n, 100);
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates shuffle */
        int j = (int)rng_below(&seed, (size_t)i + 1);
        size_t t = offs[i];
        offs[i] = offs[j];
        offs[j] = t;
    }
    for (int i = 0; i < n; i++) {
        REQ_EQ(mpishmem_allocator_free(a, offs[i]), 0);
        mpishmem_allocator_stats_t st = stats_of(a);
        /* Coalescing means no two free blocks touch: at most live+1 holes. */
        REQ_LE(st.free_blocks, st.live_blocks + 1);
    }
    assert_pristine(a, cap);
    REQ_EQ(mpishmem_allocator_alloc(a, cap, 0), 0);
    mpishmem_allocator_destroy(a);
}
END_TEST

START_TEST(test_bad_free)
{
    mpishmem_allocator_t *a = mpishmem_allocator_create(MiB);
    ck_assert_ptr_nonnull(a);
    size_t x = mpishmem_allocator_alloc(a, 300, 0);
    size_t y = mpishmem_allocator_alloc(a, 5000, 0);
    size_t z = mpishmem_allocator_alloc(a, 64, 0);
    REQ(x != FAIL && y != FAIL && z != FAIL);
    REQ_EQ(mpishmem_allocator_free(a, y), 0);
    mpishmem_allocator_stats_t before = stats_of(a), after;

    const size_t bogus[] = {y,         y + 64,   x + 64,  x + 1,   z + 1,
                            MiB,       MiB + 64, FAIL,    FAIL - 63};
    for (size_t i = 0; i < sizeof bogus / sizeof bogus[0]; i++) {
        REQ_EQ(mpishmem_allocator_free(a, bogus[i]), -1);
        REQ_EQ(mpishmem_allocator_resize_in_place(a, bogus[i], 64), -1);
        REQ_EQ(mpishmem_allocator_usable_size(a, bogus[i]), 0);
        after = stats_of(a);
        assert_stats_eq(&before, &after);
    }
    /* The failed frees must not have disturbed the live blocks. */
    REQ_EQ(mpishmem_allocator_usable_size(a, x), 320);
    REQ_EQ(mpishmem_allocator_usable_size(a, z), 64);
    REQ_EQ(mpishmem_allocator_free(a, x), 0);
    REQ_EQ(mpishmem_allocator_free(a, x), -1);
    REQ_EQ(mpishmem_allocator_free(a, z), 0);
    REQ_EQ(mpishmem_allocator_free(a, z), -1);
    assert_pristine(a, MiB);
    mpishmem_allocator_destroy(a);
}
END_TEST

/* One random operation; returns a value that summarises its result. */
static size_t random_op(mpishmem_allocator_t *a, uint64_t *seed, size_t *live,
                        int *n, int max)
{
    size_t r = rng_below(seed, 100);
    if ((r < 55 && *n < max) || *n == 0) {
        size_t sz = 1 + rng_below(seed, rng_below(seed, 10) ? 4096 : 256 * KiB);
        size_t al = rng_below(seed, 8) ? 0 : (size_t)1 << rng_below(seed, 20);
        size_t o = mpishmem_allocator_alloc(a, sz, al);
        if (o != FAIL) live[(*n)++] = o;
        return o;
    }
    int k = (int)rng_below(seed, (size_t)*n);
    if (r < 85) {
        int rc = mpishmem_allocator_free(a, live[k]);
        live[k] = live[--(*n)];
        return (size_t)rc;
    }
    size_t ns = 1 + rng_below(seed, 64 * KiB);
    int rc = mpishmem_allocator_resize_in_place(a, live[k], ns);
    return (size_t)rc ^ mpishmem_allocator_usable_size(a, live[k]);
}

START_TEST(test_determinism)
{
    /* Several instances whose metadata sits at unrelated addresses (junk
     * allocations of assorted sizes in between, one large enough to be
     * mmap'd) must still agree on every single result. */
    enum { NI = 5, MAXL = 4096 };
    static const size_t junk_sz[NI] = {0, 24, 72, 4136, 300000};
    static size_t live[NI][MAXL];
    mpishmem_allocator_t *inst[NI];
    void *junk[NI];
    int n[NI];
    uint64_t seed[NI];
    for (int k = 0; k < NI; k++) {
        junk[k] = junk_sz[k] ? malloc(junk_sz[k]) : NULL;
        inst[k] = mpishmem_allocator_create(32 * MiB);
        ck_assert_ptr_nonnull(inst[k]);
        n[k] = 0;
        seed[k] = 42;
    }
    for (int i = 0; i < 20000; i++) {
        size_t r0 = random_op(inst[0], &seed[0], live[0], &n[0], MAXL);
        for (int k = 1; k < NI; k++) {
            size_t rk = random_op(inst[k], &seed[k], live[k], &n[k], MAXL);
            REQ_EQ(rk, r0);
        }
    }
    mpishmem_allocator_stats_t x = stats_of(inst[0]), y;
    for (int k = 0; k < NI; k++) {
        REQ_EQ(n[k], n[0]);
        REQ_EQ(memcmp(live[k], live[0], (size_t)n[0] * sizeof live[0][0]), 0);
        y = stats_of(inst[k]);
        assert_stats_eq(&x, &y);
    }
    for (int k = 0; k < NI; k++) {
        mpishmem_allocator_destroy(inst[k]);
        free(junk[k]);
    }
}
END_TEST

/* ---- randomized model test ---- */

typedef struct { size_t off, req, us; } live_t; /* us: usable size */

static int cmp_live(const void *p, const void *q)
{
    const live_t *x = p, *y = q;
    return (x->off > y->off) - (x->off < y->off);
}

/* Every op: a new or resized range must be in bounds, aligned and disjoint
 * from all other live ranges (linear scan, independent of the allocator). */
static void check_range(const live_t *lv, int n, int self, size_t cap)
{
    const live_t *m = &lv[self];
    REQ_EQ(m->off % 64, 0);
    REQ_EQ(m->us % 64, 0);
    REQ_GE(m->us, m->req);
    REQ(m->us <= cap && m->off <= cap - m->us);
    for (int i = 0; i < n; i++)
        if (i != self) REQ(m->off + m->us <= lv[i].off || lv[i].off + lv[i].us <= m->off);
}

/* Periodically: compare the whole model against the allocator, including
 * that every gap between live ranges is exactly one (coalesced) free block. */
static void check_model(const mpishmem_allocator_t *a, size_t cap, const live_t *lv,
                        int n, uint64_t *seed)
{
    static live_t s[1024];
    memcpy(s, lv, (size_t)n * sizeof *lv);
    qsort(s, (size_t)n, sizeof *s, cmp_live);
    size_t used = 0, prev_end = 0, max_gap = 0, gaps = 0;
    for (int i = 0; i < n; i++) {
        size_t us = s[i].us;
        REQ_EQ(mpishmem_allocator_usable_size(a, s[i].off), us);
        REQ_GE(s[i].off, prev_end); /* no overlap */
        if (s[i].off > prev_end) {
            gaps++;
            if (s[i].off - prev_end > max_gap) max_gap = s[i].off - prev_end;
        }
        REQ(mpishmem_allocator_contains(a, s[i].off, s[i].req));
        REQ(mpishmem_allocator_contains(a, s[i].off + us - 1, 1));
        REQ(mpishmem_allocator_contains(a, s[i].off, 0));
        REQ(!mpishmem_allocator_contains(a, s[i].off, us + 1));
        if (s[i].off > 0) REQ(!mpishmem_allocator_contains(a, s[i].off - 1, 2));
        if (us > 64) REQ_EQ(mpishmem_allocator_usable_size(a, s[i].off + 64), 0);
        used += us;
        prev_end = s[i].off + us;
    }
    if (cap > prev_end) {
        gaps++;
        if (cap - prev_end > max_gap) max_gap = cap - prev_end;
    }
    mpishmem_allocator_stats_t st = stats_of(a);
    REQ_EQ(st.capacity, cap);
    REQ_EQ(st.bytes_used, used);
    REQ_EQ(st.bytes_free, cap - used);
    REQ_EQ(st.live_blocks, (size_t)n);
    REQ_EQ(st.free_blocks, gaps);
    REQ_EQ(st.largest_free, max_gap);

    /* Random points in free space are not contained in anything. */
    for (int t = 0; t < 8 && n > 0; t++) {
        int k = (int)rng_below(seed, (size_t)n);
        size_t end = s[k].off + s[k].us;
        size_t next = k + 1 < n ? s[k + 1].off : cap;
        if (next > end) {
            size_t p = end + rng_below(seed, next - end);
            REQ(!mpishmem_allocator_contains(a, p, 1));
            REQ(!mpishmem_allocator_contains(a, p, 0));
            REQ_EQ(mpishmem_allocator_usable_size(a, p), 0);
        }
    }
}

START_TEST(test_random_model)
{
    const size_t cap = 8 * MiB;
    enum { MAXL = 1024 };
    mpishmem_allocator_t *a = mpishmem_allocator_create(cap);
    ck_assert_ptr_nonnull(a);
    static live_t lv[MAXL];
    int n = 0, fails = 0;
    size_t used = 0;
    uint64_t seed = 0xC0FFEEULL + (uint64_t)_i * 7919;
    for (int step = 0; step < 20000; step++) {
        size_t r = rng_below(&seed, 100);
        if ((r < 50 && n < MAXL) || n == 0) {
            size_t sz = 1 + rng_below(&seed, rng_below(&seed, 10) ? 4096 : 512 * KiB);
            size_t al = rng_below(&seed, 6) ? 0 : (size_t)1 << rng_below(&seed, 21);
            mpishmem_allocator_stats_t st = stats_of(a);
            size_t o = mpishmem_allocator_alloc(a, sz, al);
            if (o == FAIL) {
                /* Must not fail while a clearly big enough hole exists:
                 * good-fit rounding costs < 1/32, padding < align. */
                size_t need = ((sz + 63) & ~(size_t)63) + (al > 64 ? al - 64 : 0);
                REQ_LT(st.largest_free, need + need / 16 + 64);
                mpishmem_allocator_stats_t st2 = stats_of(a);
                assert_stats_eq(&st, &st2);
                fails++;
            } else {
                REQ_EQ(o % (al > 64 ? al : 64), 0);
                lv[n] = (live_t){o, sz, mpishmem_allocator_usable_size(a, o)};
                used += lv[n].us;
                n++;
                check_range(lv, n, n - 1, cap);
            }
        } else if (r < 85) {
            int k = (int)rng_below(&seed, (size_t)n);
            REQ_EQ(mpishmem_allocator_free(a, lv[k].off), 0);
            REQ_EQ(mpishmem_allocator_usable_size(a, lv[k].off), 0);
            REQ(!mpishmem_allocator_contains(a, lv[k].off, 0));
            used -= lv[k].us;
            lv[k] = lv[--n];
        } else {
            int k = (int)rng_below(&seed, (size_t)n);
            size_t old = lv[k].us;
            size_t ns = 1 + rng_below(&seed, rng_below(&seed, 2) ? old : 4 * old);
            mpishmem_allocator_stats_t st = stats_of(a);
            int rc = mpishmem_allocator_resize_in_place(a, lv[k].off, ns);
            if (ns <= old) REQ_EQ(rc, 0); /* shrink always works */
            if (rc == 0) {
                lv[k].req = ns;
                lv[k].us = mpishmem_allocator_usable_size(a, lv[k].off);
                used = used - old + lv[k].us;
                check_range(lv, n, k, cap);
            } else {
                REQ_EQ(mpishmem_allocator_usable_size(a, lv[k].off), old);
                mpishmem_allocator_stats_t st2 = stats_of(a);
                assert_stats_eq(&st, &st2);
            }
        }
        mpishmem_allocator_stats_t st = stats_of(a);
        REQ_EQ(st.bytes_used, used);
        REQ_EQ(st.live_blocks, (size_t)n);
        REQ_LE(st.free_blocks, (size_t)n + 1); /* neighbours coalesced */
        if (step % 16 == 0) check_model(a, cap, lv, n, &seed);
    }
    check_model(a, cap, lv, n, &seed);
    REQ_GT(fails, 0); /* the heap was driven into exhaustion too */
    while (n > 0) REQ_EQ(mpishmem_allocator_free(a, lv[--n].off), 0);
    assert_pristine(a, cap);
    mpishmem_allocator_destroy(a);
}
END_TEST

START_TEST(test_resize)
{
    const size_t cap = 64 * KiB;
    mpishmem_allocator_t *a = mpishmem_allocator_create(cap);
    ck_assert_ptr_nonnull(a);
    size_t x = mpishmem_allocator_alloc(a, 256, 0);
    size_t y = mpishmem_allocator_alloc(a, 256, 0);
    size_t z = mpishmem_allocator_alloc(a, 256, 0);
    /* A fresh heap hands out consecutive blocks. */
    REQ_EQ(x, 0);
    REQ_EQ(y, 256);
    REQ_EQ(z, 512);

    /* Grow x into the hole left by y. */
    REQ_EQ(mpishmem_allocator_free(a, y), 0);
    REQ_EQ(mpishmem_allocator_resize_in_place(a, x, 500), 0);
    REQ_EQ(mpishmem_allocator_usable_size(a, x), 512);
    REQ(mpishmem_allocator_contains(a, x, 512));
    REQ_EQ(stats_of(a).free_blocks, 1); /* hole fully absorbed */

    /* z is live right after x: growing further fails, nothing changes. */
    mpishmem_allocator_stats_t before = stats_of(a), after;
    REQ_EQ(mpishmem_allocator_resize_in_place(a, x, 513), -1);
    after = stats_of(a);
    assert_stats_eq(&before, &after);
    REQ_EQ(mpishmem_allocator_usable_size(a, x), 512);

    /* Shrink x; the tail becomes a hole that a new allocation fits. */
    REQ_EQ(mpishmem_allocator_resize_in_place(a, x, 100), 0);
    REQ_EQ(mpishmem_allocator_usable_size(a, x), 128);
    REQ(!mpishmem_allocator_contains(a, x, 129));
    REQ_EQ(stats_of(a).bytes_used, 128 + 256);
    REQ_EQ(mpishmem_allocator_alloc(a, 384, 0), 128);

    /* Grow z into the rest of the heap, exactly and then one byte too far. */
    REQ_EQ(mpishmem_allocator_resize_in_place(a, z, cap - 512), 0);
    REQ_EQ(mpishmem_allocator_usable_size(a, z), cap - 512);
    REQ_EQ(stats_of(a).free_blocks, 0);
    REQ_EQ(mpishmem_allocator_resize_in_place(a, z, cap - 511), -1);
    REQ_EQ(mpishmem_allocator_alloc(a, 1, 0), FAIL);

    /* Shrink z (no free neighbour), then shrink again (free neighbour
     * absorbs the tail, so no new hole appears). */
    REQ_EQ(mpishmem_allocator_resize_in_place(a, z, 1024), 0);
    REQ_EQ(stats_of(a).free_blocks, 1);
    REQ_EQ(stats_of(a).largest_free, cap - 512 - 1024);
    REQ_EQ(mpishmem_allocator_resize_in_place(a, z, 64), 0);
    REQ_EQ(stats_of(a).free_blocks, 1);
    REQ_EQ(stats_of(a).largest_free, cap - 512 - 64);
    REQ_EQ(mpishmem_allocator_resize_in_place(a, z, 64), 0); /* no-op */

    /* Invalid sizes and offsets. */
    REQ_EQ(mpishmem_allocator_resize_in_place(a, z, 0), -1);
    REQ_EQ(mpishmem_allocator_resize_in_place(a, 64, 64), -1);
    REQ_EQ(mpishmem_allocator_resize_in_place(a, y + 1024, 64), -1);

    REQ_EQ(mpishmem_allocator_free(a, 128), 0);
    REQ_EQ(mpishmem_allocator_free(a, z), 0);
    REQ_EQ(mpishmem_allocator_free(a, x), 0);
    assert_pristine(a, cap);
    mpishmem_allocator_destroy(a);
}
END_TEST

START_TEST(test_overflow)
{
    mpishmem_allocator_t *a = mpishmem_allocator_create(MiB);
    ck_assert_ptr_nonnull(a);
    size_t x = mpishmem_allocator_alloc(a, 64, 0);
    REQ_NE(x, FAIL);
    mpishmem_allocator_stats_t before = stats_of(a), after;

    const size_t sizes[] = {0, SIZE_MAX, SIZE_MAX - 62, SIZE_MAX - 63,
                            SIZE_MAX - 64, SIZE_MAX / 2 + 1, MiB + 1};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        REQ_EQ(mpishmem_allocator_alloc(a, sizes[i], 0), FAIL);
        REQ_EQ(mpishmem_allocator_alloc(a, sizes[i], 4096), FAIL);
        if (sizes[i])
            REQ_EQ(mpishmem_allocator_resize_in_place(a, x, sizes[i]), -1);
    }
    /* Alignment overflow: huge power of two, or not a power of two. */
    REQ_EQ(mpishmem_allocator_alloc(a, 64, (SIZE_MAX >> 1) + 1), FAIL);
    REQ_EQ(mpishmem_allocator_alloc(a, 64, SIZE_MAX), FAIL);
    REQ_EQ(mpishmem_allocator_alloc(a, SIZE_MAX, (SIZE_MAX >> 1) + 1), FAIL);
    REQ_EQ(mpishmem_allocator_alloc(a, MiB, 0), FAIL); /* x is live */
    REQ_EQ(mpishmem_allocator_alloc(a, 2 * MiB, MiB), FAIL);
    REQ(!mpishmem_allocator_contains(a, x, SIZE_MAX));
    REQ(!mpishmem_allocator_contains(a, SIZE_MAX - 10, 20));
    after = stats_of(a);
    assert_stats_eq(&before, &after);
    REQ_EQ(mpishmem_allocator_free(a, x), 0);
    mpishmem_allocator_destroy(a);

    /* A heap as large as size_t allows: no arithmetic may wrap. */
    const size_t big = SIZE_MAX & ~(size_t)63;
    a = mpishmem_allocator_create(SIZE_MAX);
    ck_assert_ptr_nonnull(a);
    assert_pristine(a, big);
    REQ_EQ(mpishmem_allocator_alloc(a, SIZE_MAX, 0), FAIL);
    REQ_EQ(mpishmem_allocator_alloc(a, SIZE_MAX - 62, 0), FAIL);
    REQ_EQ(mpishmem_allocator_alloc(a, big, 0), 0);
    REQ_EQ(mpishmem_allocator_usable_size(a, 0), big);
    REQ(mpishmem_allocator_contains(a, big - 64, 64));
    REQ(!mpishmem_allocator_contains(a, big - 64, 65));
    REQ_EQ(mpishmem_allocator_alloc(a, 1, 0), FAIL);
    REQ_EQ(mpishmem_allocator_resize_in_place(a, 0, SIZE_MAX), -1);
    REQ_EQ(mpishmem_allocator_resize_in_place(a, 0, 64), 0);
    size_t y = mpishmem_allocator_alloc(a, big - 128, (SIZE_MAX >> 1) + 1);
    REQ(y == FAIL || y % ((SIZE_MAX >> 1) + 1) == 0);
    size_t z = mpishmem_allocator_alloc(a, SIZE_MAX / 4, 0);
    REQ_NE(z, FAIL);
    REQ_LE(mpishmem_allocator_usable_size(a, z), big - z);
    REQ_EQ(mpishmem_allocator_free(a, z), 0);
    if (y != FAIL) REQ_EQ(mpishmem_allocator_free(a, y), 0);
    REQ_EQ(mpishmem_allocator_free(a, 0), 0);
    assert_pristine(a, big);
    mpishmem_allocator_destroy(a);
}
END_TEST

/* block_of: the live block holding an offset, for SHMEM_DEBUG's bounds
 * check of every transfer (issue 14). */
START_TEST(test_block_of)
{
    mpishmem_allocator_t *a = mpishmem_allocator_create(MiB);
    size_t start = 1, size = 1;
    REQ(!mpishmem_allocator_block_of(a, 0, &start, &size)); /* nothing live */
    size_t x = mpishmem_allocator_alloc(a, 32, 0);
    size_t y = mpishmem_allocator_alloc(a, 500, 0);
    size_t z = mpishmem_allocator_alloc(a, 64, 4096);
    REQ(mpishmem_allocator_block_of(a, x + 10, &start, &size));
    REQ_EQ(start, x);
    REQ_EQ(size, 64);
    REQ(mpishmem_allocator_block_of(a, y + 511, &start, &size));
    REQ_EQ(start, y);
    REQ_EQ(size, 512);
    REQ(mpishmem_allocator_block_of(a, z, &start, &size));
    REQ_EQ(start, z);
    /* Alignment padding before z and the free tail belong to no block. */
    REQ(!mpishmem_allocator_block_of(a, z - 64, &start, &size));
    REQ(!mpishmem_allocator_block_of(a, z + 64, &start, &size));
    REQ_EQ(mpishmem_allocator_free(a, y), 0);
    REQ(!mpishmem_allocator_block_of(a, y, &start, &size));
    REQ(!mpishmem_allocator_block_of(NULL, 0, &start, &size));
    mpishmem_allocator_destroy(a);
}
END_TEST

static Suite *allocator_suite(void)
{
    Suite *s = suite_create("allocator");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_basic);
    tcase_add_test(tc, test_alignment);
    tcase_add_test(tc, test_exhaustion);
    tcase_add_test(tc, test_bad_free);
    tcase_add_test(tc, test_resize);
    tcase_add_test(tc, test_overflow);
    tcase_add_test(tc, test_block_of);
    suite_add_tcase(s, tc);

    TCase *tr = tcase_create("randomized");
    tcase_set_timeout(tr, 600); /* generous: also run under valgrind */
    tcase_add_loop_test(tr, test_coalesce_random_free, 0, 3);
    tcase_add_test(tr, test_determinism);
    tcase_add_loop_test(tr, test_random_model, 0, 2);
    suite_add_tcase(s, tr);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(allocator_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
