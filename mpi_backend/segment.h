/*
 * mpishmem: symmetric segments and address translation.
 *
 * A segment is one range of symmetric memory that every PE has at the same
 * offset: a symmetric heap (memory from MPI_Win_allocate_shared) or the
 * program's global data (.data and .bss).  Each segment carries
 *   - `win`: an MPI window over the world communicator whose base is the
 *     segment's base on every PE, so the target displacement of an address
 *     is simply its offset from the local base (disp_unit 1);
 *   - `lanes`: lane 0 is `win`; lanes 1.. are more windows over the same
 *     memory.  Contexts put and get through their own lane, so flushing one
 *     context's lane never waits for another context's transfers.  Every
 *     AMO goes through lane 0: MPI makes accumulates atomic only with
 *     respect to others on the same window.
 *   - `peer[pe]`: where PE pe's copy is mapped in this process, for PEs whose
 *     memory we can load and store directly, else NULL;
 *   - completion state: which targets have MPI operations not yet known to
 *     be complete, so quiet flushes only what is outstanding.
 *
 * Translation is: find the segment by address (the default heap is checked
 * first; the rest are kept sorted for a binary search), then offset = addr -
 * base.  Both are O(1) for the heap and O(log n) for n segments.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_SEGMENT_H
#define MPISHMEM_SEGMENT_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* One window over the segment and the targets it has operations in flight
 * to.  A target is "dirty" when dirty_epoch[pe] equals epoch; quiet bumps
 * epoch instead of clearing the array (O(1)). */
typedef struct mpishmem_lane {
    MPI_Win win;
    const int *rank_of_pe;   /* the segment's rank_of_pe (see below) */
    unsigned epoch;
    unsigned dirty_any;   /* == epoch when any target is dirty */
    unsigned *dirty_epoch;
} mpishmem_lane_t;

#define MPISHMEM_MAX_LANES 16

typedef struct mpishmem_segment {
    char *base;           /* local address of offset 0 */
    size_t size;          /* bytes addressable from base */
    const char *name;     /* for messages: "symmetric heap", "global data" */
    MPI_Win win;          /* RMA window over the world communicator (= lanes[0].win) */
    MPI_Win shm_win;      /* the MPI_Win_allocate_shared window, or MPI_WIN_NULL */
    char **peer;          /* [n_pes] direct mapping of each PE's copy, or NULL */
    int separate_model;   /* window memory model is MPI_WIN_SEPARATE */
    int amo_cpu;          /* AMOs use CPU atomics (see amo_path.h), else MPI */
    int n_lanes;          /* >= 1 */
    mpishmem_lane_t lanes[MPISHMEM_MAX_LANES];
    /* Memory spaces (spaces/space.h): a space's window is over its team's
     * communicator, so MPI ranks are not world PE numbers.  rank_of_pe[pe]
     * is world PE pe's rank in `win`, -1 for a non-member; NULL means the
     * window is over the world.  no_amo: the space refuses AMOs. */
    int *rank_of_pe;
    int no_amo;
    /* SHMEM_DEBUG bounds checks: the live allocation holding offset `off`,
     * as [*start, *start + *len), or 0 when none.  Set by the heap that
     * owns the segment (spaces/heap.c); NULL (no allocations) for global
     * data.  A hook, so this layer never calls up into the allocator. */
    int (*block_of)(const struct mpishmem_segment *s, size_t off, size_t *start, size_t *len);
} mpishmem_segment_t;

#define MPISHMEM_MAX_SEGMENTS 64

typedef struct mpishmem_segment_table {
    mpishmem_segment_t *heap;                        /* default heap: checked first */
    int count;
    int any_separate;                                /* a window uses MPI_WIN_SEPARATE */
    mpishmem_segment_t *sorted[MPISHMEM_MAX_SEGMENTS]; /* by base address */
} mpishmem_segment_table_t;

extern mpishmem_segment_table_t mpishmem_segments;

static inline int mpishmem_segment_holds(const mpishmem_segment_t *s, const void *addr)
{
    return (uintptr_t)addr - (uintptr_t)s->base < s->size;
}

/* The segment containing addr, or NULL if addr is not symmetric. */
static inline mpishmem_segment_t *mpishmem_segment_find(const void *addr)
{
    mpishmem_segment_t *h = mpishmem_segments.heap;
    if (__builtin_expect(h != NULL && mpishmem_segment_holds(h, addr), 1))
        return h;
    int lo = 0, hi = mpishmem_segments.count - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        mpishmem_segment_t *s = mpishmem_segments.sorted[mid];
        if ((uintptr_t)addr < (uintptr_t)s->base)
            hi = mid - 1;
        else if (mpishmem_segment_holds(s, addr))
            return s;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* Whether [addr, addr+len) lies inside segment s. */
static inline int mpishmem_segment_holds_range(const mpishmem_segment_t *s, const void *addr,
                                               size_t len)
{
    size_t off = (size_t)((uintptr_t)addr - (uintptr_t)s->base);
    return off < s->size && len <= s->size - off;
}

/* MPI target rank of world PE pe in s->win. */
static inline int mpishmem_segment_rank(const mpishmem_segment_t *s, int pe)
{
    return s->rank_of_pe ? s->rank_of_pe[pe] : pe;
}

/* Stops: pe is not a member of s's space, or the space refuses RMA or AMOs
 * (spaces/space_errors.c explains which). */
void mpishmem_fatal_target(const char *routine, const mpishmem_segment_t *s, int pe)
    __attribute__((noreturn, cold));

/* The lane a context with lane number `lane` uses on s (segments made with
 * fewer lanes fall back to lane 0). */
static inline mpishmem_lane_t *mpishmem_segment_lane(mpishmem_segment_t *s, int lane)
{
    return &s->lanes[lane < s->n_lanes ? lane : 0];
}

/* Record that pe has an MPI operation in flight on lane l.  Relaxed atomics
 * keep this safe when several threads issue operations. */
static inline void mpishmem_lane_mark(mpishmem_lane_t *l, int pe)
{
    unsigned e = __atomic_load_n(&l->epoch, __ATOMIC_RELAXED);
    if (__atomic_load_n(&l->dirty_epoch[pe], __ATOMIC_RELAXED) != e)
        __atomic_store_n(&l->dirty_epoch[pe], e, __ATOMIC_RELAXED);
    if (__atomic_load_n(&l->dirty_any, __ATOMIC_RELAXED) != e)
        __atomic_store_n(&l->dirty_any, e, __ATOMIC_RELAXED);
}

/* MPI rank of world PE pe in l->win. */
static inline int mpishmem_lane_rank(const mpishmem_lane_t *l, int pe)
{
    return l->rank_of_pe ? l->rank_of_pe[pe] : pe;
}

static inline int mpishmem_lane_dirty(const mpishmem_lane_t *l, int pe)
{
    return __atomic_load_n(&l->dirty_epoch[pe], __ATOMIC_RELAXED) ==
           __atomic_load_n(&l->epoch, __ATOMIC_RELAXED);
}

/* Segment registry (segment.c). */
int mpishmem_segment_register(mpishmem_segment_t *s);
void mpishmem_segment_unregister(mpishmem_segment_t *s);

/* Completion (completion.c). */
void mpishmem_lane_flush_all(mpishmem_lane_t *l);       /* complete every target */
void mpishmem_lane_flush_pe(mpishmem_lane_t *l, int pe);
/* Operations to pe on lane `lane` of s, and on the AMO lane 0 if amo. */
void mpishmem_segment_flush_pe(mpishmem_segment_t *s, int lane, int amo, int pe);
/* Every segment and lane (barrier_all, memory management). */
void mpishmem_complete_all(void);
/* Every segment: one lane, and the AMO lane 0 if amo (a context's quiet). */
void mpishmem_complete_lane(int lane, int amo);
/* The same for one target (pe_quiet). */
void mpishmem_complete_pe(int lane, int amo, int pe);

#endif
