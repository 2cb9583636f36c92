/*
 * Helpers shared by the memory-space tests.
 *
 * Tests call collectives, so a failed expectation must not stop one PE
 * half-way: EXPECT records it and SP_END asserts once the test's last
 * collective is done.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_TEST_SPACES_COMMON_H
#define MPISHMEM_TEST_SPACES_COMMON_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "shmem_check.h"

static struct {
    long count;
    char first[512];
} sp_errors;

static inline void __attribute__((format(printf, 3, 4)))
sp_fail(const char *file, int line, const char *fmt, ...)
{
    if (sp_errors.count++ == 0) {
        int n = snprintf(sp_errors.first, sizeof sp_errors.first, "%s:%d: ", file, line);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(sp_errors.first + n, sizeof sp_errors.first - (size_t)n, fmt, ap);
        va_end(ap);
    }
}

#define EXPECT(cond, ...)                                                                  \
    do {                                                                                   \
        if (!(cond))                                                                       \
            sp_fail(__FILE__, __LINE__, __VA_ARGS__);                                      \
    } while (0)

#define SP_BEGIN() (sp_errors.count = 0, sp_errors.first[0] = '\0')
#define SP_END()                                                                           \
    ck_assert_msg(sp_errors.count == 0, "PE %d: %ld failed expectation(s), first: %s",     \
                  shmem_my_pe(), sp_errors.count, sp_errors.first)

static inline shmem_space_config_t sp_config(shmem_device_type_t d, size_t size)
{
    shmem_space_config_t c = {.device_type = d, .size = size,
                              .flags = SHMEM_SPACE_FLAG_DEFAULT};
    return c;
}

/* Lines of /proc/self/maps: every leaked shared-memory segment adds one. */
static inline int sp_mappings(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    int n = 0, c;
    if (f == NULL)
        return -1;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

#endif
