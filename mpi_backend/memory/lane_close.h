/*
 * mpishmem: closing the lane windows of a segment.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_LANE_CLOSE_H
#define MPISHMEM_LANE_CLOSE_H

#include "segment.h"

/* Ends every lane's epoch and frees its window; s->win is MPI_WIN_NULL
 * after.  `collective`: every member of s->comm calls it together, and
 * before the windows go every member waits until the others have ended
 * their epochs (see lane_close.c).  Without it: lanes no PE has used yet
 * (a failed open). */
void mpishmem_lanes_close(mpishmem_segment_t *s, int collective);

#endif
