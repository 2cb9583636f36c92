/*
 * mpishmem: AMOs as requests that the owning PE applies (amo_am.c).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_AMO_AM_H
#define MPISHMEM_AMO_AM_H

#include <mpi.h>
#include "segment.h"

/* 1 while some segment takes AMOs as requests: every wait serves them. */
extern int mpishmem_amo_am_on;
/* Collective over world: registers AMO requests with the request service
 * (request_service.h), starting it if need be.  0 or
 * an MPI error code.  While it is on, collectives poll and set-up calls
 * that block inside MPI are preceded by a polled barrier (progress.h). */
int mpishmem_amo_am_start(MPI_Comm world);
/* Gives s (a segment over the world, on every PE in the same order) the
 * request route; -1 when the table is full. */
int mpishmem_amo_am_enable(mpishmem_segment_t *s);
/* After the last barrier: nothing can be in flight any more. */
void mpishmem_amo_am_stop(void);

/* op on the size-byte word at offset off of s on pe (s->amo_am set):
 * result (NULL for non-fetching ops) holds the old value on return. */
void mpishmem_amo_am(mpishmem_pending_t *p, mpishmem_segment_t *s, int op, size_t off,
                     size_t size, const void *value, const void *cond, void *result, int pe);

#endif
