/*
 * mpishmem: MPI control variables changed around the library's own calls.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi_cvar.h"
#include "env_read.h"

/* Whether the user chose the variable: MPICH reads MPIR_CVAR_X, MPICH_X
 * and MPIR_PARAM_X. */
static int user_set(const char *name)
{
    const char *prefix = "MPIR_CVAR_";
    size_t plen = strlen(prefix);
    if (mpishmem_env(name) != NULL)
        return 1;
    if (strncmp(name, prefix, plen) != 0)
        return 0;
    char alias[256];
    snprintf(alias, sizeof alias, "MPICH_%s", name + plen);
    if (mpishmem_env(alias) != NULL)
        return 1;
    snprintf(alias, sizeof alias, "MPIR_PARAM_%s", name + plen);
    return mpishmem_env(alias) != NULL;
}

/* MPIR_CVAR_ names exist only in MPICH and its derivatives.  Elsewhere
 * the MPI_T session is not just useless but slow: Open MPI's
 * MPI_T_init_thread took 0.7 s at 8 PEs on 2 cores. */
static int mpi_is_mpich(void)
{
    static int known = -1;
    if (known < 0) {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        known = MPI_Get_library_version(version, &len) == MPI_SUCCESS &&
                strstr(version, "MPICH") != NULL;
    }
    return known;
}

void mpishmem_cvar_override(mpishmem_cvar_override_t *o, const char *name, int value)
{
    o->active = 0;
    if (user_set(name))
        return;
    if (strncmp(name, "MPIR_CVAR_", 10) == 0 && !mpi_is_mpich())
        return;
    int provided, index, count = 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return;
    /* No such variable: not MPICH, or an MPICH without it. */
    if (MPI_T_cvar_get_index(name, &index) != MPI_SUCCESS ||
        MPI_T_cvar_handle_alloc(index, NULL, &o->handle, &count) != MPI_SUCCESS) {
        (void)MPI_T_finalize(); /* unchecked: MPI_T tuning is best effort */
        return;
    }
    if (count == 1 && MPI_T_cvar_read(o->handle, &o->old) == MPI_SUCCESS &&
        (o->old == value || MPI_T_cvar_write(o->handle, &value) == MPI_SUCCESS)) {
        o->active = 1;
        return;
    }
    (void)MPI_T_cvar_handle_free(&o->handle); /* unchecked: MPI_T tuning is best effort */
    (void)MPI_T_finalize(); /* unchecked: MPI_T tuning is best effort */
}

void mpishmem_cvar_restore(mpishmem_cvar_override_t *o)
{
    if (!o->active)
        return;
    (void)MPI_T_cvar_write(o->handle, &o->old); /* unchecked: MPI_T tuning is best effort */
    (void)MPI_T_cvar_handle_free(&o->handle); /* unchecked: MPI_T tuning is best effort */
    (void)MPI_T_finalize(); /* unchecked: MPI_T tuning is best effort */
    o->active = 0;
}
