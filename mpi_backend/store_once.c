/*
 * mpishmem: copies into a peer's memory that write every destination byte
 * exactly once (rma_path.h, mpishmem_store_once, has the why: memcpy's
 * overlapping head and tail stores let a put's second store undo what a
 * waiter wrote after seeing the first).  Out of line: the inline part
 * handles the 4- and 8-byte puts.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stddef.h>
#include <stdint.h>

#include "rma_path.h"

void mpishmem_store_once_any(void *dst, const void *src, size_t n)
{
    typedef uint64_t __attribute__((may_alias, aligned(1))) u64_u;
    typedef uint32_t __attribute__((may_alias, aligned(1))) u32_u;
    typedef uint16_t __attribute__((may_alias, aligned(1))) u16_u;
    char *d = dst;
    const char *s = src;
#if defined(__x86_64__)
    if (n >= 256) { /* string moves store each byte once */
        __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
        return;
    }
#endif
    for (; n >= 8; d += 8, s += 8, n -= 8)
        *(volatile u64_u *)d = *(const u64_u *)s;
    if (n >= 4) {
        *(volatile u32_u *)d = *(const u32_u *)s;
        d += 4, s += 4, n -= 4;
    }
    if (n >= 2) {
        *(volatile u16_u *)d = *(const u16_u *)s;
        d += 2, s += 2, n -= 2;
    }
    if (n)
        *(volatile char *)d = *s;
}
