/*
 * mpishmem: a symmetric heap = one segment (its MPI windows) + one
 * deterministic allocator that hands out offsets inside it.
 *
 * Because every PE runs the same allocator on the same sequence of
 * collective calls, an allocation has the same offset on every PE; the
 * collective routines in lib/memory.c verify that and keep it true.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_HEAP_H
#define MPISHMEM_HEAP_H

#include <stddef.h>
#include "allocator.h"
#include "../../mpi_backend/memory/segment.h"

typedef struct mpishmem_heap {
    mpishmem_segment_t seg;
    mpishmem_allocator_t *alloc;
    size_t capacity;          /* bytes the user asked for */
    MPI_Comm comm;            /* the PEs allocating together (not owned) */
    int gpu;                  /* CUDA device of device memory, or -1 for host memory */
    const char *size_var;     /* what sets the size, for exhaustion messages */
    int exhausted_once;       /* the first exhaustion is always reported */
} mpishmem_heap_t;

/* The host heap over the world created by shmem_init. */
extern mpishmem_heap_t mpishmem_default_heap;
/* The heap shmem_malloc and friends use: the default space's heap (the one
 * above unless SHMEM_DEFAULT_SPACE=GPU). */
extern mpishmem_heap_t *mpishmem_user_heap;

/* Bytes of memory this node can back (RAM + swap, capped by a cgroup
 * limit), or 0 when unknown; *what names the limit for messages.  A heap
 * larger than this cannot be backed: MPICH then hangs in
 * MPI_Win_allocate_shared instead of failing. */
unsigned long long mpishmem_heap_node_memory(const char **what);

/* Collective over the world.  Returns 0 or an MPI error code. */
int mpishmem_heap_create(mpishmem_heap_t *h, const char *name, size_t size);
/* Host memory shared by comm's PEs (shm_comm: those on this node),
 * collective over comm. */
int mpishmem_heap_create_on(mpishmem_heap_t *h, const char *name, size_t size, MPI_Comm comm,
                            MPI_Comm shm_comm);
/* Device memory of CUDA device `gpu`, collective over comm.  aware: MPI
 * may be GPU-aware (0 no, 1 yes, checked, -1 check; mpi_backend/gpu/gpu_seg.c). */
int mpishmem_heap_create_gpu(mpishmem_heap_t *h, const char *name, size_t size, MPI_Comm comm,
                             int gpu, int aware);
void mpishmem_heap_destroy(mpishmem_heap_t *h);

/* Zero or copy bytes of a heap whose memory may be on a device. */
void mpishmem_heap_zero(const mpishmem_heap_t *h, void *p, size_t n);
void mpishmem_heap_copy(const mpishmem_heap_t *h, void *dst, const void *src, size_t n);

/* Collective allocation on h over h->comm (heap_collective.c): every PE runs
 * the allocator, one allreduce agrees (and is the closing barrier).  NULL on
 * every PE when any PE is out of room; size 0 returns NULL at once. */
void *mpishmem_heap_coll_alloc(const char *routine, mpishmem_heap_t *h, size_t size,
                               size_t align);
void *mpishmem_heap_coll_calloc(const char *routine, mpishmem_heap_t *h, size_t count,
                                size_t size);
/* Quiet + the agreement below, then free ptr (not NULL) locally. */
void mpishmem_heap_coll_free(const char *routine, mpishmem_heap_t *h, void *ptr);
/* Quiet, then agree over h->comm (the entry barrier of free and realloc)
 * that every PE's ptr is a live block of h: 1 if so; else 0 on every PE,
 * after the lowest PE with a bad ptr warned "...; <outcome>" (SHMEM_DEBUG:
 * stops the job instead). */
int mpishmem_heap_coll_live(const char *routine, mpishmem_heap_t *h, const void *ptr,
                            const char *outcome);
/* This PE refuses an allocation whose arguments are bad (`bad` says how):
 * it takes part in the agreement, so every PE returns NULL; the lowest
 * refusing PE warns (SHMEM_DEBUG: stops the job). */
void *mpishmem_heap_coll_refuse(const char *routine, mpishmem_heap_t *h, const char *bad);
/* Quiet, then a barrier over h->comm. */
void mpishmem_heap_coll_barrier(mpishmem_heap_t *h);
/* The agreement itself: returns mine if every PE got the same offset;
 * NULL on every PE if one failed (undo(h, mine) runs where mine != NULL);
 * stops the job if the PEs got different offsets. */
void *mpishmem_heap_agree(const char *routine, mpishmem_heap_t *h, void *mine, size_t size,
                          void (*undo)(mpishmem_heap_t *h, void *p));

/* Local (non-collective) allocator operations; NULL / -1 on failure. */
void *mpishmem_heap_alloc(mpishmem_heap_t *h, size_t size, size_t align);
int mpishmem_heap_free(mpishmem_heap_t *h, void *ptr);
int mpishmem_heap_resize(mpishmem_heap_t *h, void *ptr, size_t size);
size_t mpishmem_heap_usable_size(mpishmem_heap_t *h, const void *ptr);
int mpishmem_heap_holds(const mpishmem_heap_t *h, const void *ptr);

/* The program's .data and .bss as a symmetric segment (globals.c). */
int mpishmem_globals_create(void);
void mpishmem_globals_destroy(void);
/* One SHMEM_INFO line: how other PEs' globals are reached. */
void mpishmem_globals_report(void);
extern mpishmem_segment_t mpishmem_globals_segment;

/* A heap's segment->explain_target: names the space and what it refuses
 * (space_checks.c). */
void mpishmem_space_explain_target(const char *routine, const mpishmem_segment_t *s, int pe)
    __attribute__((noreturn, cold));

#endif
