/*
 * mpishmem: checking values against the settings table (env_table.h).
 *
 * shmem_init checks every set variable of the library's own (every row
 * but the launcher's and MPI's) before it reads any, so a bad value stops
 * the start with the variable and what it allows, whatever later code
 * would read it and whenever.  A deprecated name is checked when it is the
 * one read (its new name unset).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_ENV_CHECK_H
#define MPISHMEM_ENV_CHECK_H

#include <stddef.h>
#include "env_table.h"

/* Whether text is a valid value of row; when not, why[] says so in full:
 * "NAME='text' is not <what the row allows>[: detail]". */
int mpishmem_env_value_ok(const mpishmem_env_var_t *row, const char *text, char *why,
                          size_t why_size);

/* Every set variable of ours: 0, or -1 with the first bad one's why[]. */
int mpishmem_env_check_all(char *why, size_t why_size);

/* What a row allows, in words ("a boolean (...)", "one of auto, shm, ..."). */
const char *mpishmem_env_allowed(const mpishmem_env_var_t *row, char *buf, size_t size);

/* A value the row refuses, for tests and mpishmem-info; NULL where every
 * text is valid (paths) or the variable is not ours. */
const char *mpishmem_env_bad_example(const mpishmem_env_var_t *row);

/* "bool", "size", "int", "choice", "devices", "path", "text". */
const char *mpishmem_env_type_name(mpishmem_env_type_t t);

#endif
