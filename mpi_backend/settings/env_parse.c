/*
 * mpishmem: parsing environment variable values (the types of env_table.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "env_parse.h"
#include "env_read.h"

int mpishmem_parse_size(const char *text, size_t *bytes)
{
    if (text == NULL)
        return -1;
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    /* Digits with at most one decimal point, and at least one digit.  We
     * scan by hand: strtod would also take hex, exponents, inf and nan. */
    unsigned long long whole = 0;
    double frac = 0.0, scale = 0.1;
    int digits = 0, dot = 0, too_big = 0;
    for (; *p; p++) {
        if (isdigit((unsigned char)*p)) {
            digits++;
            if (dot) {
                frac += (*p - '0') * scale;
                scale /= 10.0;
            } else {
                unsigned d = (unsigned)(*p - '0');
                if (whole > (ULLONG_MAX - d) / 10)
                    too_big = 1; /* still scanned, so malformed text says so */
                else
                    whole = whole * 10 + d;
            }
        } else if (*p == '.' && !dot) {
            dot = 1;
        } else {
            break;
        }
    }
    if (digits == 0)
        return -1;
    unsigned shift = 0;
    switch (*p) {
    case 'k': case 'K': shift = 10; p++; break;
    case 'm': case 'M': shift = 20; p++; break;
    case 'g': case 'G': shift = 30; p++; break;
    case 't': case 'T': shift = 40; p++; break;
    default: break;
    }
    if (shift && (*p == 'b' || *p == 'B'))
        p++; /* accept "512MB" as well as "512M" */
    while (isspace((unsigned char)*p))
        p++;
    if (*p != '\0')
        return -1;
    unsigned long long unit = 1ULL << shift;
    if (too_big || whole > SIZE_MAX / unit)
        return -2;
    unsigned long long total = whole * unit;
    /* Round the fraction up to a whole byte (no libm: users link only us). */
    double fbytes = frac * (double)unit;
    unsigned long long extra = (unsigned long long)fbytes;
    if ((double)extra < fbytes)
        extra++;
    if (total > SIZE_MAX - extra)
        return -2;
    *bytes = (size_t)(total + extra);
    return 0;
}

int mpishmem_parse_bool(const char *text)
{
    static const char *const yes[] = {"1", "y", "yes", "true", "on"};
    static const char *const no[] = {"0", "n", "no", "false", "off", ""};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        if (strcasecmp(text, yes[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if (strcasecmp(text, no[i]) == 0)
            return 0;
    return -1;
}

const char *mpishmem_getenv_first(const char *const *names, const char **which)
{
    for (; *names; names++) {
        const char *v = mpishmem_env(*names);
        if (v != NULL) {
            if (which)
                *which = *names;
            return v;
        }
    }
    return NULL;
}

/* One word of a device list; 0 if understood. */
static int parse_device(const char *t, size_t len, int *cpu, int *gpu_all, uint64_t *mask)
{
    if (len == 3 && strncasecmp(t, "cpu", 3) == 0) {
        *cpu = 1;
        return 0;
    }
    if (len == 3 && strncasecmp(t, "all", 3) == 0) {
        *cpu = *gpu_all = 1;
        return 0;
    }
    if (len == 4 && strncasecmp(t, "none", 4) == 0)
        return 0;
    if (len < 3 || strncasecmp(t, "gpu", 3) != 0)
        return -1;
    if (len == 3) {
        *gpu_all = 1;
        return 0;
    }
    size_t i = t[3] == ':' ? 4 : 3;
    if (i == len)
        return -1;
    unsigned n = 0;
    for (; i < len; i++) {
        if (!isdigit((unsigned char)t[i]) || n > 63)
            return -1;
        n = n * 10 + (unsigned)(t[i] - '0');
    }
    if (n > 63)
        return -1;
    *mask |= 1ULL << n;
    return 0;
}

int mpishmem_parse_devices(const char *text, int *cpu, int *gpu_all, uint64_t *gpu_mask,
                           const char **bad, size_t *bad_len)
{
    *cpu = *gpu_all = 0;
    *gpu_mask = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        const char *start = p;
        while (*p && *p != ',' && *p != ' ')
            p++;
        if (p > start && parse_device(start, (size_t)(p - start), cpu, gpu_all, gpu_mask) != 0) {
            *bad = start;
            *bad_len = (size_t)(p - start);
            return -1;
        }
    }
    return 0;
}

static int is_control(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

const char *mpishmem_env_shown(const char *v)
{
    if (v == NULL)
        return NULL;
    size_t len = 0, controls = 0;
    for (const unsigned char *p = (const unsigned char *)v; *p; p++, len++)
        controls += is_control(*p);
    if (controls == 0)
        return v;
    char *s = malloc(len + 3 * controls + 1); /* each control: 1 byte -> 4 */
    if (s == NULL)
        return "(a value with control characters)";
    char *q = s;
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        if (is_control(*p)) {
            snprintf(q, 5, "\\x%02x", *p);
            q += 4;
        } else {
            *q++ = (char)*p;
        }
    }
    *q = '\0';
    return s;
}
