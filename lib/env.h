/*
 * mpishmem: reading the environment variables the library understands.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_ENV_H
#define MPISHMEM_ENV_H

#include "../mpi_backend/error.h"

#include <stddef.h>

/* "1.5G", "512m", "4096", "0.25k": a non-negative integer or decimal number
 * with an optional k/m/g/t suffix (powers of 1024), rounded up to a whole
 * byte.  Returns 0 and sets *bytes, -1 if the text is malformed, or -2 if
 * it is well formed but does not fit in size_t. */
int mpishmem_parse_size(const char *text, size_t *bytes);

/* "1/y/yes/true/on" -> 1, "0/n/no/false/off" and "" -> 0, other text -> -1. */
int mpishmem_parse_bool(const char *text);

/* The value of the first variable in names[] that is set, and which one. */
const char *mpishmem_getenv_first(const char *const *names, const char **which);

/* mpishmem_env_shown (escaping values for messages): mpi_backend/error.h. */

#endif
