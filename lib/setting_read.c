/*
 * mpishmem: reading one setting's value: the rules every boolean and size
 * variable follows (docs/environment.md).  Apart from settings.c so that
 * space_settings.c, which settings.c calls, reads values without calling
 * back into it.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include "init_internal.h"
#include "../mpi_backend/settings/env_parse.h"
#include "../mpi_backend/runtime/error.h"

/* Every boolean variable follows one rule (docs/environment.md): true is
 * 1/y/yes/true/on, false is 0/n/no/false/off (any case); unset or empty
 * means the default.  Anything else has stopped shmem_init already
 * (mpishmem_env_check_all). */
int mpishmem_read_bool(const char *const *names, int dflt)
{
    const char *v = mpishmem_getenv_first(names, NULL);
    int b = v == NULL ? -1 : mpishmem_parse_bool(v);
    return v == NULL || *v == '\0' || b < 0 ? dflt : b;
}

size_t mpishmem_size_setting(const char *var, const char *text)
{
    size_t bytes = 0;
    int rc = mpishmem_parse_size(text, &bytes);
    if (rc == -1)
        mpishmem_fatal("shmem_init", "%s='%s' is not a valid size (expected a non-negative "
                       "number with an optional k, m, g or t suffix, e.g. 512M or 1.5G)", var,
                       mpishmem_env_shown(text));
    /* Larger sizes could not be backed anyway, and arithmetic on them
     * (rounding to pages, times the PEs of a node) would wrap. */
    if (rc != 0 || bytes > MPISHMEM_SIZE_SETTING_MAX)
        mpishmem_fatal("shmem_init", "%s='%s' is too large: a size is at most %zu bytes",
                       var, mpishmem_env_shown(text),
                       (size_t)MPISHMEM_SIZE_SETTING_MAX);
    return bytes;
}
