/*
 * mpishmem: MPI control variables changed around the library's own calls.
 *
 * Some MPI settings suit OpenSHMEM and hurt nothing else, but only inside
 * one of our calls (MPICH's symmetric-address retries while the heap's
 * shared window is made: docs/performance-waiting.md).  Through MPI_T we
 * set such a variable before our call and put the old value back after it,
 * so the user's own MPI objects keep MPI's (or the user's) setting.  The
 * override is skipped when the MPI has no such variable (Open MPI) or the
 * user set it in the environment.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_MPI_CVAR_H
#define MPISHMEM_MPI_CVAR_H

#include <mpi.h>

typedef struct mpishmem_cvar_override {
    int active;       /* the variable was written and must be restored */
    int old;
    MPI_T_cvar_handle handle;
} mpishmem_cvar_override_t;

/* Sets the integer control variable `name` (MPIR_CVAR_...) to value unless
 * the user set it (MPIR_CVAR_X, MPICH_X or MPIR_PARAM_X in the
 * environment) or the MPI lacks it.  Every PE of a collective call that
 * follows must make the same choice: the environment is the same on every
 * PE of one launch, and the settings the library reads are checked to
 * agree, so only a user who sets MPICH variables differently per PE could
 * split it, as with any MPICH variable. */
void mpishmem_cvar_override(mpishmem_cvar_override_t *o, const char *name, int value);
/* Restores what mpishmem_cvar_override changed. */
void mpishmem_cvar_restore(mpishmem_cvar_override_t *o);

#endif
