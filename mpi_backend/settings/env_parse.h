/*
 * mpishmem: reading the environment variables the library understands.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_ENV_PARSE_H
#define MPISHMEM_ENV_PARSE_H


#include <stddef.h>
#include <stdint.h>

/* The largest size setting (PTRDIFF_MAX, as for any C object). */
#define MPISHMEM_SIZE_SETTING_MAX ((size_t)PTRDIFF_MAX)

/* "1.5G", "512m", "4096", "0.25k": a non-negative integer or decimal number
 * with an optional k/m/g/t suffix (powers of 1024), rounded up to a whole
 * byte.  Returns 0 and sets *bytes, -1 if the text is malformed, or -2 if
 * it is well formed but does not fit in size_t. */
int mpishmem_parse_size(const char *text, size_t *bytes);

/* "1/y/yes/true/on" -> 1, "0/n/no/false/off" and "" -> 0, other text -> -1. */
int mpishmem_parse_bool(const char *text);

/* A device list ("cpu,gpu1", see MPISHMEM_VISIBLE_DEVICES): sets *cpu,
 * *gpu_all and the bits of *gpu_mask (gpuN, N < 64) and returns 0, or
 * returns -1 and points *bad (*bad_len bytes) at the first word that is
 * not a device. */
int mpishmem_parse_devices(const char *text, int *cpu, int *gpu_all, uint64_t *gpu_mask,
                           const char **bad, size_t *bad_len);

/* The value of the first variable in names[] that is set, and which one. */
const char *mpishmem_getenv_first(const char *const *names, const char **which);

/* An environment value as a message may echo it to a terminal: v itself
 * when it has no control characters, otherwise a copy with each byte below
 * 0x20 and 0x7f written as \xNN (so "a<ESC>[2J" shows as "a\x1b[2J" instead
 * of clearing the screen).  The copy is never freed: use it only for
 * messages that stop the job or are printed once.  NULL stays NULL. */
const char *mpishmem_env_shown(const char *v);

#endif
