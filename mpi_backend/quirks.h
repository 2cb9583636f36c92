/*
 * mpishmem: workarounds for defects of the MPI libraries (quirks.c).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_QUIRKS_H
#define MPISHMEM_QUIRKS_H

/* A description of the workaround applied at program load, or NULL. */
const char *mpishmem_quirks_applied(void);

#endif
