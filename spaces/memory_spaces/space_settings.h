/*
 * mpishmem: what the predefined spaces are planned from.  shmem_init reads
 * the variables (lib/space_settings.c) and passes them down here, so this
 * layer never reads the library's settings itself.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_SPACE_SETTINGS_H
#define MPISHMEM_SPACE_SETTINGS_H

#include <stddef.h>

#define MPISHMEM_DEFAULT_HEAP_SIZE ((size_t)256 << 20)

/* The memory-space variables, as given: -1 when unset. */
typedef struct mpishmem_space_settings {
    int enable_cpu, enable_gpu;   /* SHMEM_ENABLE_*_SPACE: -1 unset, 0 off, 1 on */
    int default_space;            /* SHMEM_DEFAULT_SPACE: -1 or SHMEM_DEVICE_CPU/_GPU */
    int cpu_size_set, gpu_size_set;
    size_t cpu_size, gpu_size;    /* SHMEM_CPU/GPU_SYMMETRIC_SIZE when set */
    const char *cpu_size_text, *gpu_size_text;
    int gpu_aware;                /* MPISHMEM_GPU_AWARE: -1 unset, 0 off, 1 on */
} mpishmem_space_settings_t;

/* Decide the enabled spaces, the default space and the default heap's
 * size from sp, SHMEM_SYMMETRIC_SIZE (heap_size_set: given; *heap_size,
 * *heap_size_var, *heap_size_text: its value, variable and text, replaced
 * by the heap shmem_init must make) and the devices every PE has.
 * Collective over the world; stops shmem_init when no valid default
 * exists.  predefined.c. */
void mpishmem_spaces_plan(const mpishmem_space_settings_t *sp, int heap_size_set,
                          size_t *heap_size, const char **heap_size_var,
                          const char **heap_size_text);
/* SHMEM_INFO lines about spaces and devices (PE 0). */
void mpishmem_spaces_report(void);

#endif
