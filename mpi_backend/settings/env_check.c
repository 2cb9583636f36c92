/*
 * mpishmem: checking values against the settings table (env_check.h).
 * Each type has one parser (env_parse.h); the words here are the ones the
 * messages, mpishmem-info and docs/environment.md show.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "env_check.h"
#include "env_parse.h"
#include "env_read.h"

const char *mpishmem_env_type_name(mpishmem_env_type_t t)
{
    static const char *const names[] = {"bool", "size", "int", "choice", "devices", "path",
                                        "text"};
    return (unsigned)t < sizeof names / sizeof *names ? names[t] : "text";
}

const char *mpishmem_env_allowed(const mpishmem_env_var_t *row, char *buf, size_t size)
{
    switch (row->type) {
    case MPISHMEM_ENV_BOOL:
        return "a boolean (use 1/0, yes/no, true/false or on/off)";
    case MPISHMEM_ENV_SIZE:
        return "a valid size (expected a non-negative number with an optional k, m, g or t "
               "suffix, e.g. 512M or 1.5G)";
    case MPISHMEM_ENV_INT:
        snprintf(buf, size, "an integer in [%d, %d]", row->lo, row->hi);
        return buf;
    case MPISHMEM_ENV_CHOICE: {
        size_t n = (size_t)snprintf(buf, size, "one of ");
        for (const char *w = row->choices; *w && n < size; w++)
            n += (size_t)snprintf(buf + n, size - n, *w == '|' ? ", " : "%c", *w);
        return buf;
    }
    case MPISHMEM_ENV_DEVICES:
        return "a comma-separated list of cpu, gpu, gpuN, all, none";
    default:
        return "any text";
    }
}

/* Whether text is one of row's words (any case). */
static int is_choice(const mpishmem_env_var_t *row, const char *text)
{
    size_t len = strlen(text);
    for (const char *w = row->choices; *w;) {
        size_t n = strcspn(w, "|");
        if (n == len && strncasecmp(w, text, n) == 0)
            return 1;
        w += n + (w[n] == '|');
    }
    return 0;
}

/* 0 if valid; else the detail for the message ("" for none). */
static int check(const mpishmem_env_var_t *row, const char *text, char *detail, size_t size)
{
    detail[0] = '\0';
    switch (row->type) {
    case MPISHMEM_ENV_BOOL:
        return mpishmem_parse_bool(text) < 0 ? -1 : 0;
    case MPISHMEM_ENV_SIZE: {
        size_t bytes = 0;
        int rc = mpishmem_parse_size(text, &bytes);
        if (rc == 0 && bytes <= MPISHMEM_SIZE_SETTING_MAX)
            return 0;
        if (rc != -1)
            snprintf(detail, size, "too large: a size is at most %zu bytes",
                     (size_t)MPISHMEM_SIZE_SETTING_MAX);
        return -1;
    }
    case MPISHMEM_ENV_INT: {
        char *end;
        long n = strtol(text, &end, 10);
        return *end != '\0' || n < row->lo || n > row->hi ? -1 : 0;
    }
    case MPISHMEM_ENV_CHOICE:
        return is_choice(row, text) ? 0 : -1;
    case MPISHMEM_ENV_DEVICES: {
        int cpu, all;
        uint64_t mask;
        const char *bad = NULL;
        size_t bad_len = 0;
        if (mpishmem_parse_devices(text, &cpu, &all, &mask, &bad, &bad_len) == 0)
            return 0;
        snprintf(detail, size, "'%.*s' is not a device", (int)(bad_len < 40 ? bad_len : 40),
                 bad);
        return -1;
    }
    default:
        return 0;
    }
}

int mpishmem_env_value_ok(const mpishmem_env_var_t *row, const char *text, char *why,
                          size_t why_size)
{
    if (text == NULL || *text == '\0' || row->scope == MPISHMEM_ENV_OUTSIDE)
        return 1; /* unset (empty is unset for every type), or not ours */
    char detail[96], words[160];
    if (check(row, text, detail, sizeof detail) == 0)
        return 1;
    const char *shown = mpishmem_env_shown(text);
    if (strncmp(detail, "too large", 9) == 0)
        snprintf(why, why_size, "%s='%s' is %s", row->name, shown, detail);
    else
        snprintf(why, why_size, "%s='%s' is not %s%s%s", row->name, shown,
                 mpishmem_env_allowed(row, words, sizeof words), detail[0] ? ": " : "",
                 detail);
    return 0;
}

int mpishmem_env_check_all(char *why, size_t why_size)
{
    for (const mpishmem_env_var_t *row = mpishmem_env_vars; row->name; row++) {
        if (row->scope == MPISHMEM_ENV_OUTSIDE || strchr(row->name, '*'))
            continue;
        if (row->alias_of && mpishmem_env(row->alias_of) != NULL)
            continue; /* the new name wins; the old one is not read */
        if (!mpishmem_env_value_ok(row, mpishmem_env(row->name), why, why_size))
            return -1;
    }
    return 0;
}

const char *mpishmem_env_bad_example(const mpishmem_env_var_t *row)
{
    if (row->scope == MPISHMEM_ENV_OUTSIDE)
        return NULL;
    switch (row->type) {
    case MPISHMEM_ENV_BOOL: return "maybe";
    case MPISHMEM_ENV_SIZE: return "12x";
    case MPISHMEM_ENV_INT: return "99999";
    case MPISHMEM_ENV_CHOICE: return "fastest";
    case MPISHMEM_ENV_DEVICES: return "floppy";
    default: return NULL;
    }
}
