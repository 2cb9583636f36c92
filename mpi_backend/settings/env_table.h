/*
 * mpishmem: the settings table: every environment variable the library
 * reads, with its type (and so its parser), the values it allows, its
 * default, its meaning, who sets it and whether the PEs must agree on it.
 * shmem_init checks every set value of the library's own variables against
 * its row before it uses any (env_check.h), so a bad value stops the start,
 * never a later call.  mpishmem-info prints the table and
 * test/tools/info_vars.sh checks it against the sources.  Every read goes
 * through mpishmem_env (env_read.h), which refuses names that are not here.
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

/* How a value is parsed (env_parse.h) and so what it may be.  An empty
 * value means unset for every type. */
typedef enum {
    MPISHMEM_ENV_BOOL,    /* 1/y/yes/true/on or 0/n/no/false/off, any case */
    MPISHMEM_ENV_SIZE,    /* bytes: a number with an optional k/m/g/t suffix */
    MPISHMEM_ENV_INT,     /* an integer in [lo, hi] */
    MPISHMEM_ENV_CHOICE,  /* one word of `choices`, any case */
    MPISHMEM_ENV_DEVICES, /* a comma-separated list of cpu, gpu, gpuN, all, none */
    MPISHMEM_ENV_PATH,    /* a file name: any text */
    MPISHMEM_ENV_TEXT,    /* the launcher's or MPI's: not ours to check */
} mpishmem_env_type_t;

typedef struct {
    const char *name;    /* a trailing '*' matches every name with that prefix */
    mpishmem_env_type_t type;
    int lo, hi;          /* MPISHMEM_ENV_INT: the range */
    const char *choices; /* MPISHMEM_ENV_CHOICE: words separated by '|' */
    const char *alias_of; /* a deprecated name: the name that wins when both are set */
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
