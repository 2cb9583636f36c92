/*
 * Helpers shared by the AMO, signal and lock tests.
 *
 * A test that calls collectives must not stop half-way on one PE (the
 * others would wait for it forever), so mismatches are recorded with
 * amo_fail() and asserted only after the test's last collective:
 * AMO_BEGIN() at the start, AMO_END() at the end.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_TEST_AMO_COMMON_H
#define MPISHMEM_TEST_AMO_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "shmem_check.h"

static struct {
    long count;
    char first[512];
} amo_errors;

static inline void __attribute__((format(printf, 1, 2))) amo_fail(const char *fmt, ...)
{
    if (amo_errors.count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(amo_errors.first, sizeof amo_errors.first, fmt, ap);
        va_end(ap);
    }
}

#define AMO_BEGIN() (amo_errors.count = 0, amo_errors.first[0] = '\0')
#define AMO_END()                                                                          \
    ck_assert_msg(amo_errors.count == 0, "PE %d: %ld mismatch(es), first: %s",             \
                  shmem_my_pe(), amo_errors.count, amo_errors.first)

/* Records a mismatch of two integers (printed as 64-bit hex). */
#define AMO_EXPECT(what, got, want)                                                        \
    do {                                                                                   \
        unsigned long long g_ = (unsigned long long)(got);                                 \
        unsigned long long w_ = (unsigned long long)(want);                                \
        if (g_ != w_)                                                                      \
            amo_fail("%s:%d: %s: got 0x%llx, expected 0x%llx", __FILE__, __LINE__, what,   \
                     g_, w_);                                                              \
    } while (0)

static inline int amo_right(void) { return (shmem_my_pe() + 1) % shmem_n_pes(); }
static inline int amo_left(void) { return (shmem_my_pe() + shmem_n_pes() - 1) % shmem_n_pes(); }

/* A well-mixed 64-bit hash (splitmix64 finalizer) of two inputs. */
static inline uint64_t amo_hash(uint64_t a, uint64_t b)
{
    uint64_t z = a * 0x9e3779b97f4a7c15ull + b + 0x632be59bd9b4e019ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A positive integer from the environment, or def. */
static inline long amo_env_long(const char *name, long def)
{
    const char *s = getenv(name);
    if (s == NULL || *s == '\0')
        return def;
    long v = strtol(s, NULL, 10);
    return v > 0 ? v : def;
}

/* Hang detector for polling loops: a wait that should end within
 * milliseconds is reported as "no progress" after AMO_HANG_SECONDS instead
 * of blocking the whole job until the launcher kills it.  This bounds a
 * hang; it is not a performance check. */
#define AMO_HANG_SECONDS 5
typedef struct {
    struct timespec t0;
    unsigned long polls;
} amo_watch_t;

static inline void amo_watch_start(amo_watch_t *w)
{
    clock_gettime(CLOCK_MONOTONIC, &w->t0);
    w->polls = 0;
}

/* Call once per poll; true when the wait has made no progress for long. */
static inline int amo_watch_expired(amo_watch_t *w)
{
    if (++w->polls % 256 != 0)
        return 0;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec - w->t0.tv_sec > AMO_HANG_SECONDS;
}

/* The C11 macros of <shmem.h> expand the type tables, and a test that
 * instantiates code per type does so inside an expansion of those same
 * tables, where they may not expand again.  So generated code calls a
 * generic macro as DEFER(name)(args), leaving the name not yet followed by
 * its parenthesis, and the instantiation is wrapped in EVAL(...), which
 * rescans it once the table expansion is complete.  Do not pass a DEFERred
 * call as an argument to another macro: that rescans it too early. */
#define AMO_NOTHING()
#define DEFER(id) id AMO_NOTHING()
#define EVAL(...) __VA_ARGS__

#endif
