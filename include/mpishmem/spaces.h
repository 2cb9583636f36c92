/*
 * mpishmem: declarations of the memory spaces: predefined and dynamic spaces.
 * Included by <shmem.h>.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_SPACES_H
#define MPISHMEM_SPACES_H

#endif
