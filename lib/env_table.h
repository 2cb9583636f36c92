/*
 * mpishmem: the table of every environment variable the library reads, for
 * mpishmem-info and the documentation (test/tools/info_vars.sh checks it
 * against the sources).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_ENV_TABLE_H
#define MPISHMEM_ENV_TABLE_H

typedef struct {
    const char *name;
    const char *dflt;    /* what applies when unset */
    const char *meaning;
} mpishmem_env_var_t;

/* Terminated by an entry whose name is NULL. */
extern const mpishmem_env_var_t mpishmem_env_vars[];

#endif
