/*
 * mpishmem: the memory-space environment variables.
 *
 *   SHMEM_ENABLE_CPU_SPACE, SHMEM_ENABLE_GPU_SPACE   booleans (the rule of
 *       settings.c: empty = unset, anything but a true/false word is fatal)
 *   SHMEM_DEFAULT_SPACE                              CPU or GPU (any case)
 *   SHMEM_CPU_SYMMETRIC_SIZE, SHMEM_GPU_SYMMETRIC_SIZE   sizes, as
 *       SHMEM_SYMMETRIC_SIZE
 *   MPISHMEM_GPU_AWARE                               boolean: RMA on GPU memory
 *       by MPI (1: required, checked; 0: never; unset: if MPI says so and
 *       the check passes)
 * Every one must read the same on every PE (the proposal's rule);
 * SHMEM_SYMMETRIC_SIZE is checked with the other settings (settings.c).  What they mean together is decided in
 * spaces/memory_spaces/predefined.c (docs/spaces.md has the table).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <limits.h>
#include <stdlib.h>
#include <strings.h>
#include <shmem.h>
#include "../mpi_backend/settings/env_parse.h"
#include "../mpi_backend/runtime/error.h"
#include "init_internal.h"
#include "../mpi_backend/runtime/runtime.h"
#include "../mpi_backend/progress/progress.h"
#include "../mpi_backend/settings/env_read.h"

static int read_enable(const char *name)
{
    const char *const names[] = {name, NULL};
    return mpishmem_read_bool(names, -1);
}

static void read_size(const char *name, int *set, size_t *bytes, const char **text)
{
    const char *v = mpishmem_env(name);
    *set = 0;
    *text = v;
    if (v == NULL)
        return;
    *bytes = mpishmem_size_setting(name, v);
    *set = 1;
}

void mpishmem_read_space_settings(mpishmem_space_settings_t *sp)
{
    sp->enable_cpu = read_enable("SHMEM_ENABLE_CPU_SPACE");
    sp->enable_gpu = read_enable("SHMEM_ENABLE_GPU_SPACE");
    const char *d = mpishmem_env("SHMEM_DEFAULT_SPACE");
    sp->default_space = -1;
    if (d != NULL && *d != '\0') {
        if (strcasecmp(d, "CPU") == 0)
            sp->default_space = SHMEM_DEVICE_CPU;
        else if (strcasecmp(d, "GPU") == 0)
            sp->default_space = SHMEM_DEVICE_GPU;
        else
            mpishmem_fatal("shmem_init", "SHMEM_DEFAULT_SPACE='%s' is neither CPU nor GPU",
                           mpishmem_env_shown(d));
    }
    read_size("SHMEM_CPU_SYMMETRIC_SIZE", &sp->cpu_size_set, &sp->cpu_size,
              &sp->cpu_size_text);
    read_size("SHMEM_GPU_SYMMETRIC_SIZE", &sp->gpu_size_set, &sp->gpu_size,
              &sp->gpu_size_text);
    sp->gpu_aware = read_enable("MPISHMEM_GPU_AWARE");
}

int mpishmem_peek_gpu_wanted(void)
{
    const char *d = mpishmem_env("SHMEM_DEFAULT_SPACE"), *e = mpishmem_env("SHMEM_ENABLE_GPU_SPACE");
    return (d != NULL && strcasecmp(d, "GPU") == 0) || (e != NULL && mpishmem_parse_bool(e) == 1);
}

#define N_AGREE 6

void mpishmem_agree_space_settings(const mpishmem_settings_t *set)
{
    const mpishmem_space_settings_t *sp = &set->spaces;
    static const char *const names[N_AGREE] = {
        "SHMEM_ENABLE_CPU_SPACE", "SHMEM_ENABLE_GPU_SPACE", "SHMEM_DEFAULT_SPACE",
        "SHMEM_CPU_SYMMETRIC_SIZE", "SHMEM_GPU_SYMMETRIC_SIZE", "MPISHMEM_GPU_AWARE"};
    /* Values as given; "unset" is its own value, so set-here-unset-there
     * differs too. */
    unsigned long long mine[N_AGREE] = {
        (unsigned long long)(sp->enable_cpu + 1), (unsigned long long)(sp->enable_gpu + 1),
        (unsigned long long)(sp->default_space + 1),
        sp->cpu_size_set ? sp->cpu_size : ULLONG_MAX,
        sp->gpu_size_set ? sp->gpu_size : ULLONG_MAX, (unsigned long long)(sp->gpu_aware + 1)};
    unsigned long long v[2 * N_AGREE], r[2 * N_AGREE];
    for (int i = 0; i < N_AGREE; i++) {
        v[i] = mine[i];
        v[N_AGREE + i] = ~mine[i];
    }
    mpishmem_allreduce(v, r, 2 * N_AGREE, MPI_UNSIGNED_LONG_LONG, MPI_MIN, mpishmem_rt.world);
    for (int i = 0; i < N_AGREE; i++) {
        if (r[i] == ~r[N_AGREE + i])
            continue;
        const char *here = mpishmem_env(names[i]);
        mpishmem_fatal("shmem_init", "%s must be the same on every PE, but PEs disagree (this "
                       "PE: %s%s%s)", names[i], here ? "'" : "", here ? mpishmem_env_shown(here) : "unset",
                       here ? "'" : "");
    }
}
