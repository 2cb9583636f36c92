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
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "dirty_set.h"
#include "pe_map.h"

/* One window over the segment and the targets it has MPI operations in
 * flight to (dirty_set.h): marked after each operation's MPI call returns,
 * cleared only by a flusher holding its lane's lock (completion.c), just
 * before it flushes the target. */
typedef struct mpishmem_lane {
    MPI_Win win;
    const mpishmem_pe_map_t *ranks; /* the segment's `ranks` (see below) */
    mpishmem_dirty_set_t dirty;
} mpishmem_lane_t;

#define MPISHMEM_MAX_LANES 16

typedef struct mpishmem_segment {
    char *base;           /* local address of offset 0 */
    size_t size;          /* bytes addressable from base */
    const char *name;     /* for messages: "symmetric heap", "global data" */
    MPI_Win win;          /* RMA window over the world communicator (= lanes[0].win) */
    MPI_Win shm_win;      /* the MPI_Win_allocate_shared window, or MPI_WIN_NULL */
    size_t map_len;       /* > 0: base and the peer[] mappings are ours (window.c), this long */
    /* Direct mappings of the copies of this node's PEs, by node rank
     * (mpishmem_rt.node_map), NULL where there is none: node-sized, found
     * through mpishmem_segment_peer.  When the node's PEs are consecutive
     * world PEs, node rank = pe - peer_lo for pe - peer_lo < peer_span;
     * otherwise peer_sparse says to look the node rank up. */
    char **peer;          /* [node_size] */
    int peer_lo;
    unsigned peer_span;   /* 0: no direct peers here (MPISHMEM_SHM=0, or sparse) */
    int peer_sparse;
    int separate_model;   /* window memory model is MPI_WIN_SEPARATE */
    int amo_cpu;          /* AMOs use CPU atomics (see amo_path.h), else MPI */
    int amo_am;           /* else, when > 0: AMOs are requests its owner applies (amo_am.c) */
    int n_lanes;          /* lanes open: 1, or 1 + MPISHMEM_CTX_LANES (window.c) */
    mpishmem_lane_t lanes[MPISHMEM_MAX_LANES];
    MPI_Comm comm;        /* the windows' communicator (not owned) */
    size_t win_bytes;     /* bytes each window exposes */
    unsigned serial;      /* creation order, the same on every member (lanes open in it) */
    /* Memory spaces (spaces/memory_spaces/space.h): a space's window is over its team's
     * communicator, so MPI ranks are not world PE numbers: member i of
     * `ranks` is rank i of `win`; NULL means the window is over the world.
     * A space whose memory no target can reach has an empty set.  no_amo:
     * the space refuses AMOs. */
    mpishmem_pe_map_t *ranks;
    int no_amo;
    /* SHMEM_DEBUG bounds checks: the live allocation holding offset `off`,
     * as [*start, *start + *len), or 0 when none.  Set by the heap that
     * owns the segment (spaces/heap/heap.c); NULL (no allocations) for global
     * data.  A hook, so this layer never calls up into the allocator. */
    int (*block_of)(const struct mpishmem_segment *s, size_t off, size_t *start, size_t *len);
    /* Says why PE pe cannot be reached through s (not a member of the
     * space's team, no RMA or no AMOs) and stops; set with block_of by the
     * heap that owns the segment, so the message can name its space. */
    void (*explain_target)(const char *routine, const struct mpishmem_segment *s, int pe)
        __attribute__((noreturn));
    /* Device memory (gpu_path.h): its GPU state; NULL for host memory. */
    struct mpishmem_gpu_seg *gpu;
    /* Last, so the hot fields above keep their places.  Lane 0's window
     * is over memory MPI allocated, mapped at base too (mem_alias.h; the
     * plan's win_allocate); set before the windows open to ask for it,
     * cleared when a PE cannot, with the reason. */
    int mpi_memory;
    const char *mpi_memory_why;
    size_t lead;          /* base + lead: where the memory asked for starts (mem_alias.h) */
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

/* MPI target rank of world PE pe in s->win, -1 when pe has no copy. */
static inline int mpishmem_segment_rank(const mpishmem_segment_t *s, int pe)
{
    return s->ranks ? mpishmem_pe_map_index(s->ranks, pe) : pe;
}

char *mpishmem_segment_peer_sparse(const mpishmem_segment_t *s, int pe);

/* Where PE pe's copy of s is mapped here, or NULL (MPI RMA reaches it). */
static inline char *mpishmem_segment_peer(const mpishmem_segment_t *s, int pe)
{
    unsigned d = (unsigned)pe - (unsigned)s->peer_lo;
    if (__builtin_expect(d < s->peer_span, 1))
        return s->peer[d];
    return __builtin_expect(s->peer_sparse, 0) ? mpishmem_segment_peer_sparse(s, pe) : NULL;
}

/* Stops: pe is not a member of s's space, or the space refuses RMA or AMOs
 * (s->explain_target says which; segment.c). */
void mpishmem_fatal_target(const char *routine, const mpishmem_segment_t *s, int pe)
    __attribute__((noreturn, cold));

/* Lanes of s open now: 1 until contexts ask for more (window.c opens the
 * rest collectively, then publishes the count with a release store). */
static inline int mpishmem_segment_n_lanes(const mpishmem_segment_t *s)
{
    return __atomic_load_n(&s->n_lanes, __ATOMIC_ACQUIRE);
}

/* The lane a context with lane number `lane` uses on s (lane 0 while its
 * own is not open). */
static inline mpishmem_lane_t *mpishmem_segment_lane(mpishmem_segment_t *s, int lane)
{
    return &s->lanes[lane < mpishmem_segment_n_lanes(s) ? lane : 0];
}

/* MPI rank of world PE pe in l->win. */
static inline int mpishmem_lane_rank(const mpishmem_lane_t *l, int pe)
{
    return l->ranks ? mpishmem_pe_map_index(l->ranks, pe) : pe;
}

/* Make s->peer[] reachable through mpishmem_segment_peer, once filled
 * (empty with MPISHMEM_SHM=0). */
void mpishmem_segment_peers_ready(mpishmem_segment_t *s);

/* Segment registry (segment.c).  Registration also gives s its serial. */
int mpishmem_segment_register(mpishmem_segment_t *s);
void mpishmem_segment_unregister(mpishmem_segment_t *s);

/* Completion (completion.c).
 *
 * Every MPI operation is numbered, per lane number (all segments share the
 * count), after its MPI call returns: issued += 1 gives its sequence number.
 * A flush pass over lane k holds lane k's lock, reads `issued`, flushes
 * every target marked dirty, then publishes that number as `completed`.
 * So `completed >= n` means operation n is complete, and no caller can see
 * a number published before the flushes covering it have returned: a quiet
 * waits for exactly its own operations, whoever flushes them. */
typedef struct mpishmem_lane_state {
    uint64_t issued;
    uint64_t completed;
    pthread_mutex_t lock; /* one flush pass at a time */
} __attribute__((aligned(64))) mpishmem_lane_state_t;

extern mpishmem_lane_state_t mpishmem_lane_states[MPISHMEM_MAX_LANES];

/* What one context (or one operand slot) waits for: the highest sequence
 * number it issued on lane 0 (every AMO, and segments without extra lanes)
 * and on its own lane. */
typedef struct mpishmem_pending {
    uint64_t seq[2]; /* [0]: lane 0, [1]: the context's own lane */
} mpishmem_pending_t;

/* This thread stored into peer memory directly since its last quiet: a
 * memory barrier is due.  Thread-local, as a barrier orders only the
 * calling thread's stores. */
extern __thread int mpishmem_stored;

/* Set for good once shmem_ptr hands out a pointer: the program may then
 * store into peer memory itself, so every quiet issues the barrier. */
extern int mpishmem_stores_unseen;

static inline void mpishmem_note_store(void)
{
    mpishmem_stored = 1;
}

/* Record an MPI operation to pe on lane l of s, after its MPI call
 * returned; notes it in p (NULL: nobody waits by number).  Returns its
 * sequence number. */
uint64_t mpishmem_lane_mark_failed(mpishmem_lane_t *l, int pe) __attribute__((cold));

static inline uint64_t mpishmem_lane_mark(mpishmem_pending_t *p, mpishmem_segment_t *s,
                                          mpishmem_lane_t *l, int pe)
{
    /* Before the number is taken: a flusher that reads `issued` up to it
     * then finds the target on the lane's dirty stack (completion.c). */
    if (__builtin_expect(mpishmem_dirty_mark(&l->dirty, pe) != 0, 0))
        return mpishmem_lane_mark_failed(l, pe);
    int k = (int)(l - s->lanes);
    uint64_t seq = __atomic_add_fetch(&mpishmem_lane_states[k].issued, 1, __ATOMIC_RELEASE);
    if (p) {
        uint64_t *w = &p->seq[k != 0];
        uint64_t old = __atomic_load_n(w, __ATOMIC_RELAXED);
        while (old < seq && !__atomic_compare_exchange_n(w, &old, seq, 1, __ATOMIC_RELAXED,
                                                         __ATOMIC_RELAXED))
            ;
    }
    return seq;
}

/* Whether anything p waits for may be incomplete (lane: the context's). */
static inline int mpishmem_pending_any(const mpishmem_pending_t *p, int lane)
{
    return (__atomic_load_n(&p->seq[0], __ATOMIC_RELAXED) >
            __atomic_load_n(&mpishmem_lane_states[0].completed, __ATOMIC_ACQUIRE)) |
           (__atomic_load_n(&p->seq[1], __ATOMIC_RELAXED) >
            __atomic_load_n(&mpishmem_lane_states[lane].completed, __ATOMIC_ACQUIRE));
}

/* Complete lane k up to sequence number seq (every segment). */
void mpishmem_lane_complete(int k, uint64_t seq);
/* Everything p waits for (a context's quiet; lane: the context's). */
void mpishmem_complete_pending(const mpishmem_pending_t *p, int lane);
/* p's operations to pe on s (its lane and lane 0), e.g. before a get. */
void mpishmem_segment_flush_pe(const mpishmem_pending_t *p, mpishmem_segment_t *s, int lane,
                               int pe);
/* The same on every segment (pe_quiet). */
void mpishmem_complete_pe(const mpishmem_pending_t *p, int lane, int pe);
/* Every lane of every segment, whoever issued (barrier_all, memory
 * management), plus the memory barrier. */
void mpishmem_complete_all(void);

#endif
