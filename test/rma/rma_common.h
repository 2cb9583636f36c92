/*
 * Helpers shared by the RMA and ordering tests.
 *
 * A test that calls collectives must not stop half-way on one PE (the
 * others would wait for it forever), so mismatches are recorded here and
 * asserted only once the test's last collective is done: RMA_BEGIN() at the
 * start, RMA_END() at the end.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_TEST_RMA_COMMON_H
#define MPISHMEM_TEST_RMA_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "shmem_check.h"

static struct {
    long count;
    char first[512];
} rma_errors;

static inline void rma_reset(void)
{
    rma_errors.count = 0;
    rma_errors.first[0] = '\0';
}

/* Records one mismatch; only the first message is kept. */
static inline void __attribute__((format(printf, 1, 2))) rma_fail(const char *fmt, ...)
{
    if (rma_errors.count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rma_errors.first, sizeof rma_errors.first, fmt, ap);
        va_end(ap);
    }
}

#define RMA_BEGIN() rma_reset()
#define RMA_END()                                                                          \
    ck_assert_msg(rma_errors.count == 0, "PE %d: %ld mismatch(es), first: %s",             \
                  shmem_my_pe(), rma_errors.count, rma_errors.first)

static inline int rma_right(void) { return (shmem_my_pe() + 1) % shmem_n_pes(); }
static inline int rma_left(void)
{
    return (shmem_my_pe() + shmem_n_pes() - 1) % shmem_n_pes();
}

/* The byte at position k of a buffer filled by PE pe with tag `tag`: a
 * multiplicative hash, so a shifted or misplaced block does not match. */
static inline uint8_t rma_byte(int pe, unsigned tag, size_t k)
{
    uint32_t x = (uint32_t)k * 2654435761u + (uint32_t)pe * 40503u + tag * 97u;
    return (uint8_t)((x >> 24) ^ (x >> 11) ^ (uint32_t)pe);
}

static inline void rma_fill(void *buf, size_t n, int pe, unsigned tag)
{
    uint8_t *b = buf;
    for (size_t k = 0; k < n; k++)
        b[k] = rma_byte(pe, tag, k);
}

/* Compares buf[0..n) with the pattern of (pe, tag); records the first bad
 * byte under `what`.  Returns 1 if all match. */
static inline int rma_check_fill(const char *what, const void *buf, size_t n, int pe,
                                 unsigned tag)
{
    const uint8_t *b = buf;
    for (size_t k = 0; k < n; k++) {
        if (b[k] != rma_byte(pe, tag, k)) {
            rma_fail("%s: byte %zu of %zu is 0x%02x, expected 0x%02x (from PE %d, tag %u)",
                     what, k, n, b[k], rma_byte(pe, tag, k), pe, tag);
            return 0;
        }
    }
    return 1;
}

/* Compares n bytes exactly with an expected image. */
static inline int rma_check_bytes(const char *what, const void *got, const void *want,
                                  size_t n)
{
    const uint8_t *g = got, *w = want;
    if (memcmp(g, w, n) == 0)
        return 1;
    for (size_t k = 0; k < n; k++) {
        if (g[k] != w[k]) {
            rma_fail("%s: byte %zu of %zu is 0x%02x, expected 0x%02x", what, k, n, g[k], w[k]);
            break;
        }
    }
    return 0;
}

#endif
