/*
 * The cache routines of OpenSHMEM 1.0, deprecated in 1.3 and removed in 1.5.
 * They existed for machines whose caches did not see remote writes.  Every
 * system mpishmem runs on keeps caches coherent with the memory that remote
 * writes reach (MPI or the load/store path), so each is a documented no-op,
 * as the spec defined them on such systems.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>

void shmem_clear_cache_inv(void) {}
void shmem_set_cache_inv(void) {}
void shmem_clear_cache_line_inv(void *dest) { (void)dest; }
void shmem_set_cache_line_inv(void *dest) { (void)dest; }
void shmem_udcflush(void) {}
void shmem_udcflush_line(void *dest) { (void)dest; }
