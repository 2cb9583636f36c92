/*
 * TLSF allocator over an abstract offset range (see allocator.h).
 *
 * Every block of [0, capacity) -- free or live -- has a descriptor in a
 * private pool, linked to its physical neighbours.  Free blocks sit in
 * segregated lists indexed by (first level = log2 class, second level =
 * linear subdivision); two bitmaps find a non-empty list in O(1).  Live
 * blocks sit in a treap keyed by offset so free/usable_size/contains are
 * O(log n).  Sizes are handled in 64-byte granules.
 *
 * Determinism: descriptor indices, list order (LIFO) and treap priorities
 * (a hash of the offset) depend only on the request sequence, never on
 * metadata addresses.
 */
#include "allocator.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "allocator_internal.h"

/* ---- bit helpers ---- */

static int log2_floor(size_t x) /* x > 0 */
{
#if defined(__GNUC__)
    return (int)(sizeof(unsigned long long) * CHAR_BIT) - 1 -
           __builtin_clzll((unsigned long long)x);
#else
    int r = 0;
    while (x >>= 1) r++;
    return r;
#endif
}

static int lowest_bit(uint64_t x) /* x != 0 */
{
#if defined(__GNUC__)
    return __builtin_ctzll((unsigned long long)x);
#else
    int r = 0;
    while (!(x & 1)) { x >>= 1; r++; }
    return r;
#endif
}

static int highest_bit(uint64_t x) /* x != 0 */
{
    int r = 0;
    while (x >>= 1) r++;
    return r;
}

/* Map a size in granules to its list.  Below SL_COUNT granules the classes
 * are exact; above, each power of two is split into SL_COUNT ranges. */
static void mapping(size_t u, int *fl, int *sl)
{
    if (u < SL_COUNT) {
        *fl = 0;
        *sl = (int)u;
        return;
    }
    int t = log2_floor(u);
    *fl = t - SL_BITS + 1;
    *sl = (int)((u >> (t - SL_BITS)) - SL_COUNT);
}

/* Padding needed to move off up to a multiple of align (no overflow). */
static size_t pad_for(size_t off, size_t align)
{
    return (align - off % align) % align;
}

/* ---- descriptor pool ---- */

/* Make sure n descriptors can be taken without failing, before any state
 * change, so an out-of-metadata condition leaves the allocator untouched. */
static int reserve(mpishmem_allocator_t *a, uint32_t n)
{
    if ((size_t)a->nspare + (a->cap_b - a->nb) >= n) return 0;
    size_t ncap = a->cap_b ? (size_t)a->cap_b * 2 : 64;
    if (ncap >= NIL) ncap = NIL - 1;
    if (ncap - a->nb < n || ncap > SIZE_MAX / sizeof(blk_t)) return -1;
    blk_t *nbk = realloc(a->b, ncap * sizeof(blk_t));
    if (!nbk) return -1;
    a->b = nbk;
    a->cap_b = (uint32_t)ncap;
    return 0;
}

static uint32_t desc_new(mpishmem_allocator_t *a)
{
    uint32_t i;
    if (a->spare != NIL) {
        i = a->spare;
        a->spare = a->b[i].next_free;
        a->nspare--;
    } else {
        i = a->nb++;
    }
    return i;
}

static void desc_release(mpishmem_allocator_t *a, uint32_t i)
{
    a->b[i].next_free = a->spare;
    a->spare = i;
    a->nspare++;
}

/* ---- segregated free lists ---- */

static void fl_insert(mpishmem_allocator_t *a, uint32_t i)
{
    blk_t *b = a->b;
    int fl, sl;
    mapping(b[i].size >> GRAN_SHIFT, &fl, &sl);
    b[i].is_free = 1;
    b[i].prev_free = NIL;
    b[i].next_free = a->heads[fl][sl];
    if (b[i].next_free != NIL) b[b[i].next_free].prev_free = i;
    a->heads[fl][sl] = i;
    a->sl_map[fl] |= 1u << sl;
    a->fl_map |= (uint64_t)1 << fl;
    a->free_blocks++;
}

static void fl_remove(mpishmem_allocator_t *a, uint32_t i)
{
    blk_t *b = a->b;
    int fl, sl;
    mapping(b[i].size >> GRAN_SHIFT, &fl, &sl);
    if (b[i].prev_free != NIL) b[b[i].prev_free].next_free = b[i].next_free;
    else a->heads[fl][sl] = b[i].next_free;
    if (b[i].next_free != NIL) b[b[i].next_free].prev_free = b[i].prev_free;
    if (a->heads[fl][sl] == NIL) {
        a->sl_map[fl] &= ~(1u << sl);
        if (!a->sl_map[fl]) a->fl_map &= ~((uint64_t)1 << fl);
    }
    b[i].is_free = 0;
    a->free_blocks--;
}

/* Good fit: round the request up to the next list boundary so that any
 * block in the first non-empty list at or above it is large enough. */
static uint32_t find_good_fit(const mpishmem_allocator_t *a, size_t u)
{
    int fl, sl;
    if (u >= SL_COUNT) u += ((size_t)1 << (log2_floor(u) - SL_BITS)) - 1;
    mapping(u, &fl, &sl);
    uint32_t m = a->sl_map[fl] & (~0u << sl);
    if (!m) {
        uint64_t f = fl + 1 < FL_COUNT ? a->fl_map & (~(uint64_t)0 << (fl + 1)) : 0;
        if (!f) return NIL;
        fl = lowest_bit(f);
        m = a->sl_map[fl];
    }
    return a->heads[fl][lowest_bit(m)];
}

/* The good-fit rounding skips the request's own list; peek at the first few
 * blocks there so requests that exactly fit (e.g. the whole heap) succeed. */
static uint32_t find_exact_list(const mpishmem_allocator_t *a, size_t sz,
                                size_t align)
{
    int fl, sl;
    mapping(sz >> GRAN_SHIFT, &fl, &sl);
    uint32_t i = a->heads[fl][sl];
    for (int k = 0; i != NIL && k < FALLBACK_SCAN; k++, i = a->b[i].next_free) {
        const blk_t *bk = &a->b[i];
        if (bk->size >= sz && bk->size - sz >= pad_for(bk->off, align)) return i;
    }
    return NIL;
}

/* ---- physical neighbours ---- */

/* Cut block i after `keep` bytes; the new right part is returned, not
 * listed anywhere yet.  Needs one reserved descriptor. */
static uint32_t split(mpishmem_allocator_t *a, uint32_t i, size_t keep)
{
    uint32_t j = desc_new(a);
    blk_t *b = a->b;
    b[j].off = b[i].off + keep;
    b[j].size = b[i].size - keep;
    b[j].prev_phys = i;
    b[j].next_phys = b[i].next_phys;
    b[j].is_free = 0;
    if (b[i].next_phys != NIL) b[b[i].next_phys].prev_phys = j;
    b[i].next_phys = j;
    b[i].size = keep;
    return j;
}

/* Merge i's next physical neighbour (already unlisted) into i. */
static void absorb_next(mpishmem_allocator_t *a, uint32_t i)
{
    blk_t *b = a->b;
    uint32_t j = b[i].next_phys;
    b[i].size += b[j].size;
    b[i].next_phys = b[j].next_phys;
    if (b[j].next_phys != NIL) b[b[j].next_phys].prev_phys = i;
    desc_release(a, j);
}

/* ---- public API ---- */

mpishmem_allocator_t *mpishmem_allocator_create(size_t capacity)
{
    mpishmem_allocator_t *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    memset(a->heads, 0xff, sizeof a->heads); /* all NIL */
    a->capacity = capacity & ~(GRAN - 1);
    a->spare = NIL;
    a->root = NIL;
    if (a->capacity) {
        if (reserve(a, 1)) {
            free(a);
            return NULL;
        }
        uint32_t i = desc_new(a);
        a->b[i].off = 0;
        a->b[i].size = a->capacity;
        a->b[i].prev_phys = a->b[i].next_phys = NIL;
        fl_insert(a, i);
    }
    return a;
}

void mpishmem_allocator_destroy(mpishmem_allocator_t *a)
{
    if (!a) return;
    free(a->b);
    free(a);
}

size_t mpishmem_allocator_alloc(mpishmem_allocator_t *a, size_t size,
                                size_t align)
{
    if (!a || size == 0) return MPISHMEM_ALLOC_FAIL;
    if (align == 0) align = GRAN;
    if (align & (align - 1)) return MPISHMEM_ALLOC_FAIL;
    if (align < GRAN) align = GRAN; /* every offset is 64-aligned anyway */
    /* capacity <= SIZE_MAX - 63, so rounding below cannot wrap */
    if (size > a->capacity) return MPISHMEM_ALLOC_FAIL;
    size_t sz = (size + GRAN - 1) & ~(GRAN - 1);
    if (sz > a->capacity) return MPISHMEM_ALLOC_FAIL;
    /* Worst-case padding is align - 64, since block offsets are 64-aligned. */
    int padded_fits = align - GRAN <= a->capacity - sz;
    if (reserve(a, 2)) return MPISHMEM_ALLOC_FAIL;

    uint32_t i = padded_fits ? find_good_fit(a, (sz + align - GRAN) >> GRAN_SHIFT)
                             : NIL;
    if (i == NIL) i = find_exact_list(a, sz, align);
    if (i == NIL) return MPISHMEM_ALLOC_FAIL;

    fl_remove(a, i);
    /* A free block's neighbours are never free, so the leftovers created
     * here need no coalescing. */
    size_t pad = pad_for(a->b[i].off, align);
    if (pad) {
        uint32_t j = split(a, i, pad);
        fl_insert(a, i);
        i = j;
    }
    if (a->b[i].size > sz) fl_insert(a, split(a, i, sz));

    blk_t *b = a->b;
    b[i].left = b[i].right = NIL;
    b[i].prio = mpishmem_alloc_prio_of(b[i].off);
    a->root = mpishmem_alloc_tr_insert(b, a->root, i);
    a->bytes_used += sz;
    a->live_blocks++;
    return b[i].off;
}

int mpishmem_allocator_free(mpishmem_allocator_t *a, size_t offset)
{
    if (!a) return -1;
    uint32_t i = mpishmem_alloc_tr_find(a, offset);
    if (i == NIL) return -1;
    blk_t *b = a->b;
    a->root = mpishmem_alloc_tr_remove(b, a->root, offset);
    a->bytes_used -= b[i].size;
    a->live_blocks--;

    uint32_t p = b[i].prev_phys;
    if (p != NIL && b[p].is_free) {
        fl_remove(a, p);
        absorb_next(a, p);
        i = p;
    }
    uint32_t n = b[i].next_phys;
    if (n != NIL && b[n].is_free) {
        fl_remove(a, n);
        absorb_next(a, i);
    }
    fl_insert(a, i);
    return 0;
}

size_t mpishmem_allocator_usable_size(const mpishmem_allocator_t *a,
                                      size_t offset)
{
    if (!a) return 0;
    uint32_t i = mpishmem_alloc_tr_find(a, offset);
    return i == NIL ? 0 : a->b[i].size;
}

int mpishmem_allocator_resize_in_place(mpishmem_allocator_t *a, size_t offset,
                                       size_t new_size)
{
    if (!a || new_size == 0 || new_size > a->capacity) return -1;
    uint32_t i = mpishmem_alloc_tr_find(a, offset);
    if (i == NIL) return -1;
    size_t sz = (new_size + GRAN - 1) & ~(GRAN - 1);
    size_t cur = a->b[i].size;
    uint32_t n = a->b[i].next_phys;

    if (sz <= cur) {
        size_t cut = cur - sz;
        if (!cut) return 0;
        if (n != NIL && a->b[n].is_free) {
            /* Hand the tail to the free neighbour: its list may change. */
            fl_remove(a, n);
            a->b[n].off -= cut;
            a->b[n].size += cut;
            a->b[i].size = sz;
            fl_insert(a, n);
        } else if (reserve(a, 1) == 0) {
            fl_insert(a, split(a, i, sz));
        } else {
            return 0; /* no metadata: keeping the larger block is still valid */
        }
        a->bytes_used -= cut;
        return 0;
    }

    size_t extra = sz - cur;
    if (n == NIL || !a->b[n].is_free || a->b[n].size < extra) return -1;
    fl_remove(a, n);
    if (a->b[n].size == extra) {
        absorb_next(a, i);
    } else {
        a->b[n].off += extra;
        a->b[n].size -= extra;
        a->b[i].size = sz;
        fl_insert(a, n);
    }
    a->bytes_used += extra;
    return 0;
}

int mpishmem_allocator_contains(const mpishmem_allocator_t *a, size_t offset,
                                size_t len)
{
    if (!a || offset + len < offset) return 0;
    uint32_t i = mpishmem_alloc_tr_floor(a, offset);
    if (i == NIL) return 0;
    size_t end = a->b[i].off + a->b[i].size;
    return offset < end && len <= end - offset;
}

int mpishmem_allocator_block_of(const mpishmem_allocator_t *a, size_t offset,
                                size_t *start, size_t *size)
{
    if (!a) return 0;
    uint32_t i = mpishmem_alloc_tr_floor(a, offset);
    if (i == NIL || offset - a->b[i].off >= a->b[i].size) return 0;
    *start = a->b[i].off;
    *size = a->b[i].size;
    return 1;
}

void mpishmem_allocator_stats(const mpishmem_allocator_t *a,
                              mpishmem_allocator_stats_t *out)
{
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (!a) return;
    out->capacity = a->capacity;
    out->bytes_used = a->bytes_used;
    out->bytes_free = a->capacity - a->bytes_used;
    out->live_blocks = a->live_blocks;
    out->free_blocks = a->free_blocks;
    if (a->fl_map) {
        /* The largest block is in the highest non-empty list; sizes within a
         * list differ, so scan that one list. */
        int fl = highest_bit(a->fl_map);
        int sl = highest_bit(a->sl_map[fl]);
        for (uint32_t i = a->heads[fl][sl]; i != NIL; i = a->b[i].next_free)
            if (a->b[i].size > out->largest_free) out->largest_free = a->b[i].size;
    }
}
