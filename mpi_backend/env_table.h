/*
 * mpishmem: the settings table: every environment variable the library
 * reads, with its default, its meaning, who sets it and whether the PEs
 * must agree on it.  mpishmem-info prints it and test/tools/info_vars.sh
 * checks it against the sources.  Every read goes through mpishmem_env
 * (env_read.h), which refuses names that are not here.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_ENV_TABLE_H
#define MPISHMEM_ENV_TABLE_H

typedef enum {
    MPISHMEM_ENV_ALL_PES, /* ours; every PE must have the same value (shmem_init checks) */
    MPISHMEM_ENV_PER_PE,  /* ours; each PE may have its own */
    MPISHMEM_ENV_PE0,     /* ours; only PE 0's value is used */
    MPISHMEM_ENV_OUTSIDE, /* set by the launcher or read by MPI itself; we only look */
} mpishmem_env_scope_t;

typedef struct {
    const char *name;    /* a trailing '*' matches every name with that prefix */
    const char *dflt;    /* what applies when unset */
    const char *layer;   /* the layer that uses it */
    mpishmem_env_scope_t scope;
    const char *meaning;
} mpishmem_env_var_t;

/* Terminated by an entry whose name is NULL. */
extern const mpishmem_env_var_t mpishmem_env_vars[];

/* "all PEs", "per PE", "PE 0", "launcher/MPI". */
const char *mpishmem_env_scope_name(mpishmem_env_scope_t s);

#endif
