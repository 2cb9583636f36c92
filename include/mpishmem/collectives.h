/*
 * mpishmem: declarations of the collectives: team-based and legacy active-set collectives, reductions and scans.
 * Included by <shmem.h>.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_COLLECTIVES_H
#define MPISHMEM_COLLECTIVES_H

#endif
