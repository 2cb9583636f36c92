/*
 * mpishmem: creating and destroying the MPI windows behind a segment.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_WINDOW_H
#define MPISHMEM_WINDOW_H

#include "segment.h"

/* Every heap starts on this boundary, the largest alignment shmem_align
 * can honour (an allocation's offset is the same on every PE, so its
 * address is aligned everywhere only up to the bases' common alignment).
 * The padding is address space: pages nobody touches cost no memory. */
#define MPISHMEM_HEAP_ALIGN ((size_t)8 << 20)

/* A heap: `size` bytes per PE that the node's PEs map (node_shm.h, else
 * MPI_Win_allocate_shared on the node communicator), plus windows over the
 * same memory: over the world, or over this PE alone when every PE maps
 * every other (open_rma_window).  Collective over the world.  Returns 0, or
 * an MPI error code. */
int mpishmem_window_create_heap(mpishmem_segment_t *s, const char *name, size_t size);

/* The same over any communicator: `comm` for the RMA window, `shm_comm`
 * (comm's PEs on this node) for the shared allocation.  Collective over
 * comm.  For a communicator other than the world, s->ranks translates
 * world PEs to ranks in comm.  On failure s is left as destroy leaves it. */
int mpishmem_window_create_heap_on(mpishmem_segment_t *s, const char *name, size_t size,
                                   MPI_Comm comm, MPI_Comm shm_comm);

/* Device memory (a GPU space) at base: an RMA window over comm, of `size`
 * bytes when expose is set (MPI is GPU-aware), else of 0 bytes so the
 * handle exists but no RMA can reach the memory.  No load/store peers.
 * Collective over comm. */
int mpishmem_window_create_device(mpishmem_segment_t *s, const char *name, void *base,
                                  size_t size, MPI_Comm comm, int expose);

/* Existing memory that is symmetric by construction (the program's global
 * data) at [base, base+size), with no window yet: the caller maps the
 * node's PEs into s->peer[], sets s->amo_cpu when every PE maps every
 * other, then opens the windows.  base is rounded down to a page so the
 * window base is aligned (MPICH 4.0 with UCX's registration cache on
 * misplaces puts into windows whose base is not 16-byte aligned:
 * docs/mpi-quirks.md).  Local. */
int mpishmem_window_create_static(mpishmem_segment_t *s, const char *name, void *base,
                                  size_t size);
/* Its windows: over the world, or over this PE alone when s->amo_cpu (no
 * PE ever reaches it through MPI).  Collective over the world. */
int mpishmem_window_open_static(mpishmem_segment_t *s);

/* Collective over the window's communicator; leaves s zeroed. */
void mpishmem_window_destroy(mpishmem_segment_t *s);

#endif
