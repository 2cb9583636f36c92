/*
 * mpishmem: memory that MPI allocated for a window (MPI_Win_allocate),
 * mapped a second time at an address of ours, so a segment keeps its
 * symmetric addresses while its window's memory is MPI's own.  Where MPI
 * maps the memory it allocates into the node's other processes (Open MPI:
 * osc/sm, or osc/ucx through UCX's shared-memory segments), its atomics and
 * copies then need nothing from the target process, unlike on memory
 * exposed with MPI_Win_create (docs/performance-waiting.md).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_MEM_ALIAS_H
#define MPISHMEM_MEM_ALIAS_H

#include <stddef.h>
#include "segment.h"

/* Map the object behind [mem, mem + len) (page-aligned, inside one shared
 * mapping) at `at` as well, over what is there; with `copy`, first copy
 * what is at `at` into it.  0, or -1 with *why saying why (then nothing at
 * `at` has changed unless the final check failed, which restores a private
 * copy).  With copy (the program's data), a fork()ed child gets a private
 * copy of [at, at + len).  Local. */
int mpishmem_mem_alias(char *mem, size_t len, char *at, int copy, const char **why);

/* Segment s's memory at s->base becomes the `bytes` from mem of lane 0's
 * window, which MPI allocated with a page to spare: global data (s->map_len
 * 0) is copied in first.  Where MPI's memory does not start on a page
 * (Open MPI's osc/sm puts a header first), the alias starts at its first
 * page boundary, d bytes in, and s->base moves down by d (s->lead) to
 * where the window starts, so offsets stay window displacements.  1 when
 * every member of comm did so with the same d; else 0, s->mpi_memory_why
 * set and this PE's global data private again.  Collective over comm. */
int mpishmem_mem_alias_segment(mpishmem_segment_t *s, MPI_Comm comm, char *mem, size_t bytes);

/* Make [at, at + len) private memory again, with the same contents.  0 or
 * -1. */
int mpishmem_mem_alias_undo(char *at, size_t len);

/* The program data's alias ends (its window is freed): private memory
 * again, with the same contents.  0 or -1. */
int mpishmem_mem_alias_end(void);

/* len rounded up to whole pages: the length an alias covers. */
size_t mpishmem_mem_alias_len(size_t len);

#endif
