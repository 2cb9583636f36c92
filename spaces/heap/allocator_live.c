/*
 * The TLSF allocator's live blocks: a treap keyed by offset, with
 * priorities from a hash of the offset so the shape depends only on the
 * request sequence (allocator_internal.h).
 */
#include "allocator_internal.h"

/* Fixed integer mix: spreads offsets into treap priorities reproducibly. */
uint32_t mpishmem_alloc_prio_of(size_t off)
{
    uint64_t x = (uint64_t)off + 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return (uint32_t)(x ^ (x >> 31));
}

uint32_t mpishmem_alloc_tr_insert(blk_t *b, uint32_t t, uint32_t n)
{
    if (t == NIL) return n;
    if (b[n].off < b[t].off) {
        uint32_t l = b[t].left = mpishmem_alloc_tr_insert(b, b[t].left, n);
        if (b[l].prio > b[t].prio) {
            b[t].left = b[l].right;
            b[l].right = t;
            return l;
        }
    } else {
        uint32_t r = b[t].right = mpishmem_alloc_tr_insert(b, b[t].right, n);
        if (b[r].prio > b[t].prio) {
            b[t].right = b[r].left;
            b[r].left = t;
            return r;
        }
    }
    return t;
}

static uint32_t mpishmem_alloc_tr_join(blk_t *b, uint32_t l, uint32_t r)
{
    if (l == NIL) return r;
    if (r == NIL) return l;
    if (b[l].prio > b[r].prio) {
        b[l].right = mpishmem_alloc_tr_join(b, b[l].right, r);
        return l;
    }
    b[r].left = mpishmem_alloc_tr_join(b, l, b[r].left);
    return r;
}

/* Removes the node with key off, which must be present. */
uint32_t mpishmem_alloc_tr_remove(blk_t *b, uint32_t t, size_t off)
{
    if (b[t].off == off) return mpishmem_alloc_tr_join(b, b[t].left, b[t].right);
    if (off < b[t].off) b[t].left = mpishmem_alloc_tr_remove(b, b[t].left, off);
    else b[t].right = mpishmem_alloc_tr_remove(b, b[t].right, off);
    return t;
}

/* Live block with the greatest offset <= off, or NIL. */
uint32_t mpishmem_alloc_tr_floor(const mpishmem_allocator_t *a, size_t off)
{
    uint32_t t = a->root, best = NIL;
    while (t != NIL) {
        if (a->b[t].off <= off) {
            best = t;
            if (a->b[t].off == off) break;
            t = a->b[t].right;
        } else {
            t = a->b[t].left;
        }
    }
    return best;
}

uint32_t mpishmem_alloc_tr_find(const mpishmem_allocator_t *a, size_t off)
{
    uint32_t t = mpishmem_alloc_tr_floor(a, off);
    return (t != NIL && a->b[t].off == off) ? t : NIL;
}
