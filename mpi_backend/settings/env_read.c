/*
 * mpishmem: the one place the library reads its environment (env_read.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "env_read.h"

#define MAX_ROWS 64

static struct {
    int frozen;
    const char *value[MAX_ROWS]; /* copies, for rows of our own variables */
} snap;

const mpishmem_env_var_t *mpishmem_env_row(const char *name)
{
    for (const mpishmem_env_var_t *v = mpishmem_env_vars; v->name; v++) {
        size_t n = strlen(v->name);
        if (n > 0 && v->name[n - 1] == '*' ? strncmp(name, v->name, n - 1) == 0
                                           : strcmp(name, v->name) == 0)
            return v;
    }
    return NULL;
}

const char *mpishmem_env(const char *name)
{
    const mpishmem_env_var_t *v = mpishmem_env_row(name);
    if (v == NULL) {
        /* Not mpishmem_fatal: this runs at program load too, before MPI. */
        fprintf(stderr, "mpishmem: internal error: the library read the environment variable "
                        "%s, which is not in its settings table (mpi_backend/settings/env_table.c)\n",
                name);
        abort();
    }
    size_t row = (size_t)(v - mpishmem_env_vars);
    if (__atomic_load_n(&snap.frozen, __ATOMIC_ACQUIRE) && v->scope != MPISHMEM_ENV_OUTSIDE &&
        row < MAX_ROWS)
        return snap.value[row];
    return getenv(name);
}

void mpishmem_env_freeze(void)
{
    if (snap.frozen)
        return;
    size_t rows = 0;
    while (mpishmem_env_vars[rows].name)
        rows++;
    if (rows > MAX_ROWS) {
        fprintf(stderr, "mpishmem: internal error: the settings table has %zu rows, more than "
                        "the %d env_read.c keeps\n", rows, MAX_ROWS);
        abort();
    }
    for (size_t row = 0; row < rows; row++) {
        const char *v = getenv(mpishmem_env_vars[row].name);
        /* Kept for the life of the process: the program may change its
         * environment later; we go on seeing what shmem_init saw. */
        snap.value[row] = v ? strdup(v) : NULL;
        if (v && snap.value[row] == NULL)
            snap.value[row] = v;
    }
    __atomic_store_n(&snap.frozen, 1, __ATOMIC_RELEASE);
}
