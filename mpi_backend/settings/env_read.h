/*
 * mpishmem: the one place the library reads its environment.
 *
 * Every variable is looked up in the settings table (env_table.h); a name
 * that is not there stops the program (a library bug, caught by its tests).
 * shmem_init freezes the library's own variables once, before it reads any
 * of them, so every later read (a lazily chosen barrier route, say) sees
 * the values shmem_init saw.  Before that (code run at program load, or
 * before MPI starts) and for variables of the launcher and of MPI, reads
 * are live.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_ENV_READ_H
#define MPISHMEM_ENV_READ_H

#include "env_table.h"

/* The value of name, or NULL when unset. */
const char *mpishmem_env(const char *name);

/* Snapshot the library's own variables (shmem_init, first thing). */
void mpishmem_env_freeze(void);

/* The table row for name, or NULL. */
const mpishmem_env_var_t *mpishmem_env_row(const char *name);

#endif
