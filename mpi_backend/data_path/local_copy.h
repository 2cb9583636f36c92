/*
 * mpishmem: the copies of the load/store path (rma_path.h): a put's copy
 * into a peer's memory that stores each destination byte once, and a
 * get's copy, both inline for the small sizes (store_once.c has the large
 * ones).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_LOCAL_COPY_H
#define MPISHMEM_LOCAL_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "runtime.h"

/* A put's load/store route: copies src into a peer's memory writing every
 * destination byte exactly once.  glibc's memcpy does not: below 32 bytes
 * (and in the tail of larger copies) it stores overlapping head and tail
 * words, so an 8-byte put stores the same 8 bytes twice.  A PE waiting on
 * that element sees the first store, returns, and may write the element
 * itself (sync_p2p resets it for the next round); if the putting PE is
 * preempted between its two stores, the second one then brings the old
 * value back.  OpenSHMEM requires that a wait or test does not return
 * before the update of ivar is fully complete; with one store per byte,
 * seeing the new value means the update is complete. */
void mpishmem_store_once_any(void *dst, const void *src, size_t n); /* store_once.c */
void mpishmem_load_aliased(void *dst, const void *src, size_t n);   /* store_once.c */

/* Up to 256 bytes inline: 16-byte SSE2 stores (baseline on x86-64), then
 * one store per power of two in the last n % 16 bytes, so no byte is
 * stored twice and no loop runs.  A put of a fixed size folds
 * to its stores; the 8-byte put stays one store. */
typedef uint64_t __attribute__((may_alias, aligned(1))) mpishmem_u64_u;
typedef uint32_t __attribute__((may_alias, aligned(1))) mpishmem_u32_u;
typedef uint16_t __attribute__((may_alias, aligned(1))) mpishmem_u16_u;
/* GCC's generic vectors: SSE2 on x86-64, split where a target has none. */
typedef long long mpishmem_v16_u __attribute__((vector_size(16), may_alias, aligned(1)));

/* One 16-byte part of a put's copy, at offset o of both. */
#define MPISHMEM_STORE16(d, s, o)                                                          \
    (*(volatile mpishmem_v16_u *)((d) + (o)) = *(const mpishmem_v16_u *)((s) + (o)))

/* The last n % 16 bytes. */
static inline __attribute__((always_inline)) void mpishmem_store_tail(char *d, const char *s,
                                                                       size_t n)
{
    if (n & 8)
        *(volatile mpishmem_u64_u *)d = *(const mpishmem_u64_u *)s, d += 8, s += 8;
    if (n & 4)
        *(volatile mpishmem_u32_u *)d = *(const mpishmem_u32_u *)s, d += 4, s += 4;
    if (n & 2)
        *(volatile mpishmem_u16_u *)d = *(const mpishmem_u16_u *)s, d += 2, s += 2;
    if (n & 1)
        *(volatile char *)d = *s;
}

/* Up to 256 bytes: the 16-byte parts through one jump into a run of
 * stores (a jump table on n / 16, falling through from the highest part
 * down), then the rest.  A chain of tests, one per power of two in n,
 * cost more: 4.1 against 2.0 ns for a 64-byte copy alone, memcpy 2.0. */
static inline __attribute__((always_inline)) void mpishmem_store_small(char *d, const char *s,
                                                                        size_t n)
{
    switch (n >> 4) {
    case 16: MPISHMEM_STORE16(d, s, 240); /* fall through */
    case 15: MPISHMEM_STORE16(d, s, 224); /* fall through */
    case 14: MPISHMEM_STORE16(d, s, 208); /* fall through */
    case 13: MPISHMEM_STORE16(d, s, 192); /* fall through */
    case 12: MPISHMEM_STORE16(d, s, 176); /* fall through */
    case 11: MPISHMEM_STORE16(d, s, 160); /* fall through */
    case 10: MPISHMEM_STORE16(d, s, 144); /* fall through */
    case 9: MPISHMEM_STORE16(d, s, 128); /* fall through */
    case 8: MPISHMEM_STORE16(d, s, 112); /* fall through */
    case 7: MPISHMEM_STORE16(d, s, 96); /* fall through */
    case 6: MPISHMEM_STORE16(d, s, 80); /* fall through */
    case 5: MPISHMEM_STORE16(d, s, 64); /* fall through */
    case 4: MPISHMEM_STORE16(d, s, 48); /* fall through */
    case 3: MPISHMEM_STORE16(d, s, 32); /* fall through */
    case 2: MPISHMEM_STORE16(d, s, 16); /* fall through */
    case 1: MPISHMEM_STORE16(d, s, 0); /* fall through */
    default: break;
    }
    if (MPISHMEM_UNLIKELY(n & 15))
        mpishmem_store_tail(d + (n & ~(size_t)15), s + (n & ~(size_t)15), n);
}

static inline __attribute__((always_inline)) void
mpishmem_store_once(void *dst, const void *src, size_t n)
{
    if (MPISHMEM_LIKELY(n == 8)) {
        *(volatile mpishmem_u64_u *)dst = *(const mpishmem_u64_u *)src;
        return;
    }
    if (MPISHMEM_LIKELY(n <= 256)) {
        mpishmem_store_small(dst, src, n);
        return;
    }
    mpishmem_store_once_any(dst, src, n);
}

/* x86 copies from this size up use `rep movsb`, as glibc's memcpy does from
 * here (with FSRM) up to 1 MiB; below it, 32-byte vectors (a 2 KiB put:
 * 22-23 ns against 25-29 with `rep movsb`, memcpy 11-13; bench/small_copies). */
#define MPISHMEM_MOVSB_MIN 2112
/* ... except below this size when the destination lies 1-63 bytes past
 * the source modulo 4 KiB, where `rep movsb` waits on its own stores (4 KiB
 * aliasing; store_once.c).  Above it, here, the vector copy loses more
 * (1.1x at 64 KiB, from L2) than `rep movsb` does to aliasing. */
#define MPISHMEM_ALIASED_MAX ((size_t)32 << 10)
static inline int mpishmem_4k_aliased(const void *dst, const void *src)
{
    return ((((uintptr_t)dst - (uintptr_t)src) & 4095) - 1) < 63;
}

/* A get of up to 64 bytes, inline: a head and a tail part that may
 * overlap, all loads before the stores (the destination is this PE's own,
 * so a byte may be stored twice).  Fixed-size memcpy compiles to one move. */
static inline __attribute__((always_inline)) void mpishmem_load_small(char *d, const char *s,
                                                                       size_t n)
{
    if (n >= 16) {
        mpishmem_v16_u a, b, c, e;
        memcpy(&a, s, 16), memcpy(&b, s + n - 16, 16);
        if (n > 32) {
            memcpy(&c, s + 16, 16), memcpy(&e, s + n - 32, 16);
            memcpy(d + 16, &c, 16), memcpy(d + n - 32, &e, 16);
        }
        memcpy(d, &a, 16), memcpy(d + n - 16, &b, 16);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8), memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8), memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4), memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4), memcpy(d + n - 4, &b, 4);
    } else if (n > 0) {
        char a = s[0], b = s[n / 2], c = s[n - 1];
        d[0] = a, d[n / 2] = b, d[n - 1] = c;
    }
}

/* A get's load/store route: memcpy, but not glibc's `rep movsb` where 4 KiB
 * aliasing slows it down (one compare for the small gets), and inline up to
 * 64 bytes, where the call is most of the cost. */
static inline __attribute__((always_inline)) void mpishmem_load_copy(void *dst, const void *src,
                                                                      size_t n)
{
    if (n <= 64)
        mpishmem_load_small(dst, src, n);
    else if (MPISHMEM_UNLIKELY(n >= MPISHMEM_MOVSB_MIN) && n < MPISHMEM_ALIASED_MAX &&
        mpishmem_4k_aliased(dst, src))
        mpishmem_load_aliased(dst, src, n);
    else
        memcpy(dst, src, n);
}

#endif
