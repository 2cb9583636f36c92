/*
 * mpishmem: workarounds for defects of the MPI libraries (quirks.c).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_QUIRKS_H
#define MPISHMEM_QUIRKS_H

/* shmem_init calls this right before it starts MPI itself (never when the
 * program started MPI). */
void mpishmem_quirks_before_mpi_init(void);

/* Advice to append to a failed window creation when the likely cause is
 * an MPI configuration the program chose (it started MPI itself), or "". */
const char *mpishmem_quirks_window_advice(int we_started_mpi);

/* A description of the workaround applied, or NULL. */
const char *mpishmem_quirks_applied(void);

#endif
