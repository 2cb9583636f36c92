/*
 * mpishmem: declarations of the contexts: creation, destruction and sessions.
 * Included by <shmem.h>.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_CONTEXTS_H
#define MPISHMEM_CONTEXTS_H

#endif
