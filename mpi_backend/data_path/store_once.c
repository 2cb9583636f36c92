/*
 * mpishmem: the copies of the load/store path (rma_path.h): into a peer's
 * memory writing every destination byte exactly once (mpishmem_store_once
 * has the why: memcpy's overlapping head and tail stores let a put's second
 * store undo what a waiter wrote after seeing the first), and a get's copy
 * where the C library's would be slowed by 4 KiB aliasing.  Out of line:
 * the inline parts (rma_path.h) handle the puts up to 256 bytes and the
 * plain gets.
 *
 * Why not always `rep movsb` (each byte stored once too): it costs a start
 * of about 8 ns, several times a 256-byte vector copy, and it slows down
 * (here 2.5x at 256 bytes, 1.4x at 4 KiB; 24x at 4 KiB on a user's Zen
 * machine) when the destination lies 1-63 bytes past the source modulo
 * 4 KiB: its loads then match its own just-issued stores in address bits
 * 0-11 and wait for them (bench/align_sweep, docs/performance.md
 * "Alignment and size sweep").
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rma_path.h"

#if defined(__x86_64__)
typedef long long v32_u __attribute__((vector_size(32), may_alias, aligned(1)));

static inline void rep_movsb(char *d, const char *s, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

/* 32-byte loads and stores, forward, each destination byte stored once,
 * the stores 32-byte aligned (an unaligned one may straddle two lines).
 * The loads run a 128-byte block ahead of the stores, so no load meets a
 * store still in flight to the same address bits 0-11 when the
 * destination lies less than 128 bytes past the source modulo 4 KiB (a
 * source ahead of the destination never meets one). */
__attribute__((target("avx2"))) static void copy_avx2(char *d, const char *s, size_t n)
{
    size_t head = -(uintptr_t)d & 31;
    mpishmem_store_small(d, s, head);
    d += head, s += head, n -= head;
    if (n >= 256) {
        v32_u a = *(const v32_u *)s, b = *(const v32_u *)(s + 32);
        v32_u c = *(const v32_u *)(s + 64), e = *(const v32_u *)(s + 96);
        for (s += 128, n -= 128; n >= 128; d += 128, s += 128, n -= 128) {
            v32_u a2 = *(const v32_u *)s, b2 = *(const v32_u *)(s + 32);
            v32_u c2 = *(const v32_u *)(s + 64), e2 = *(const v32_u *)(s + 96);
            *(volatile v32_u *)d = a;
            *(volatile v32_u *)(d + 32) = b;
            *(volatile v32_u *)(d + 64) = c;
            *(volatile v32_u *)(d + 96) = e;
            a = a2, b = b2, c = c2, e = e2;
        }
        *(volatile v32_u *)d = a;
        *(volatile v32_u *)(d + 32) = b;
        *(volatile v32_u *)(d + 64) = c;
        *(volatile v32_u *)(d + 96) = e;
        d += 128;
    }
    mpishmem_store_small(d, s, n); /* under 128 bytes left, or under 256 */
}

static inline int have_avx2(void)
{
    return __builtin_cpu_supports("avx2");
}
#endif

void mpishmem_store_once_any(void *dst, const void *src, size_t n)
{
#if defined(__x86_64__)
    if (MPISHMEM_UNLIKELY(n >= 256)) {
        if ((n < MPISHMEM_MOVSB_MIN || (n < MPISHMEM_ALIASED_MAX &&
                                        mpishmem_4k_aliased(dst, src))) && have_avx2())
            copy_avx2(dst, src, n);
        else /* string moves store each byte once */
            rep_movsb(dst, src, n);
        return;
    }
#endif
    if (n < 256) {
        mpishmem_store_small(dst, src, n);
        return;
    }
    for (; n >= 8; dst = (char *)dst + 8, src = (const char *)src + 8, n -= 8)
        *(volatile mpishmem_u64_u *)dst = *(const mpishmem_u64_u *)src;
    mpishmem_store_small(dst, src, n);
}

void mpishmem_load_aliased(void *dst, const void *src, size_t n)
{
#if defined(__x86_64__)
    if (have_avx2()) {
        copy_avx2(dst, src, n);
        return;
    }
#endif
    memcpy(dst, src, n);
}
