/*
 * mpishmem: extensions beyond OpenSHMEM 1.6 (the shmemx_ prefix).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_SHMEMX_H
#define MPISHMEM_SHMEMX_H

#include <shmem.h>

#endif
