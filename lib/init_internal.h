/*
 * mpishmem: settings read from the environment at shmem_init.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_INIT_INTERNAL_H
#define MPISHMEM_INIT_INTERNAL_H

#include <stddef.h>

#define MPISHMEM_DEFAULT_HEAP_SIZE ((size_t)256 << 20)

typedef struct mpishmem_settings {
    size_t heap_size;
    const char *heap_size_var;   /* which variable set it, or "default" */
    const char *heap_size_text;
    int debug;
    int shm;
    int yield;                   /* 1, 0, or -1 for "decide from the node" */
    int print_version;
    int print_info;
    int ctx_lanes;               /* extra windows per segment for contexts */
} mpishmem_settings_t;

#define MPISHMEM_DEFAULT_CTX_LANES 4

/* Parse every variable; a malformed value stops the job with a message
 * naming the variable and its value. */
void mpishmem_read_settings(mpishmem_settings_t *set);
/* Collective: stop if PEs disagree on a setting that must be uniform. */
void mpishmem_agree_settings(const mpishmem_settings_t *set);
/* SHMEM_VERSION / SHMEM_INFO output, from PE 0. */
void mpishmem_report_settings(const mpishmem_settings_t *set);

#endif
