/*
 * mpishmem: settings read from the environment at shmem_init.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_INIT_INTERNAL_H
#define MPISHMEM_INIT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <mpi.h>
#include "../spaces/memory_spaces/space_settings.h"
#include "../mpi_backend/settings/env_parse.h"

typedef struct mpishmem_settings {
    size_t heap_size;
    const char *heap_size_var;   /* which variable set it, or "default" */
    const char *heap_size_text;
    int debug;
    int shm;
    int shm_globals;             /* MPISHMEM_SHM_GLOBALS (globals_shm.c acts on it at load) */
    int yield;                   /* 1, 0, or -1 for "decide from the node" */
    int progress_thread;         /* MPISHMEM_PROGRESS_THREAD: 1, 0, or -1 (decide) */
    int amo_am;                  /* MPISHMEM_AMO_AM: 1, 0, or -1 (decide) */
    int win_allocate;            /* MPISHMEM_WIN_ALLOCATE: 1, 0, or -1 (decide) */
    int print_version;
    int print_info;
    int ctx_lanes;               /* extra windows per segment for contexts */
    int barrier;                 /* MPISHMEM_BARRIER: enum mpishmem_barrier_setting */
    int heap_size_set;           /* SHMEM_SYMMETRIC_SIZE (or SMA_) was given */
    mpishmem_space_settings_t spaces;
} mpishmem_settings_t;

#define MPISHMEM_DEFAULT_CTX_LANES 4

/* A boolean variable (the first of names[] that is set): 1 or 0, dflt when
 * unset or empty (mpishmem_read_settings has checked every value). */
int mpishmem_read_bool(const char *const *names, int dflt);
/* MPISHMEM_SIZE_SETTING_MAX: mpi_backend/settings/env_parse.h. */
/* The size variable `var` set to `text`, parsed, or stop shmem_init with a
 * message that quotes text as given: malformed, or too large. */
size_t mpishmem_size_setting(const char *var, const char *text);
/* MPISHMEM_PROGRESS_THREAD before MPI starts (so shmem_init knows whether
 * to ask for MPI_THREAD_MULTIPLE): 1, 0, or -1 when unset.  A malformed
 * value reads as -1 here; mpishmem_read_settings then stops the job. */
int mpishmem_peek_progress_thread(void);
/* MPISHMEM_SHM as shmem_init will read it (1 when unset or invalid: the
 * check that stops the job comes later), before MPI starts. */
int mpishmem_peek_shm(void);
/* Parse every variable; a malformed value stops the job with a message
 * naming the variable and its value. */
void mpishmem_read_settings(mpishmem_settings_t *set);
/* Collective: stop if PEs disagree on a setting that must be uniform. */
void mpishmem_agree_settings(const mpishmem_settings_t *set);
/* The memory-space variables: read (fatal when malformed) and agreed on
 * (fatal, naming the variable, when PEs differ).  space_settings.c. */
void mpishmem_read_space_settings(mpishmem_space_settings_t *sp);
/* Whether SHMEM_DEFAULT_SPACE or SHMEM_ENABLE_GPU_SPACE asks for the GPU
 * space, read before MPI starts (malformed values are reported later). */
int mpishmem_peek_gpu_wanted(void);
void mpishmem_agree_space_settings(const mpishmem_settings_t *set);
/* The node communicator and map (node_map.c); whether every PE runs on
 * this machine (set by it). */
void mpishmem_map_node(void);
int mpishmem_job_on_one_machine(void);
/* The plan of routes (init_plan.c): waiting, lanes and the barrier from
 * the settings and the node (*cores: the node's); then, once the heap and
 * global data exist, the progress thread and the AMO route. */
void mpishmem_plan_before_heap(const mpishmem_settings_t *set, int *cores);
void mpishmem_plan_after_heap(const mpishmem_settings_t *set, int mpi_provided, int cores);
/* Stop the job when a PE leaves while running, unless intended (exit_check.c);
 * finalize: what finishes a PE that left with the whole job (shmem_finalize). */
void mpishmem_exit_check_register(void (*finalize)(void));
void mpishmem_exit_intended(void);

/* MPI's text for an error code: messages never show a bare number. */
typedef struct { char s[MPI_MAX_ERROR_STRING]; } mpishmem_mpi_text_t;
static inline mpishmem_mpi_text_t mpishmem_mpi_text(int rc)
{
    mpishmem_mpi_text_t t;
    int len = 0;
    if (MPI_Error_string(rc, t.s, &len) != MPI_SUCCESS)
        snprintf(t.s, sizeof t.s, "unknown MPI error");
    return t;
}

/* SHMEM_VERSION / SHMEM_INFO output, from PE 0. */
void mpishmem_report_settings(const mpishmem_settings_t *set);

#endif
