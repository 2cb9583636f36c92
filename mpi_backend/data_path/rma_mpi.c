/*
 * mpishmem: the MPI side of the data path (targets we cannot load/store).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <pthread.h>
#include "progress.h"
#include "rma_path.h"
#include "error.h"

/* From this size a put or get may stay inside MPI_Put, MPI_Get or
 * MPI_Rget for longer than the progress thread's nap (Open MPI's osc/ucx
 * moves large transfers there), so it is held as a blocking call, as a
 * flush is: a thread that saw no new activity would probe beside it.
 * Below it, noting activity is enough and costs no locked instruction. */
#define LONG_CALL_BYTES ((size_t)64 << 10)

static inline void enter_mpi(size_t n)
{
    if (n >= LONG_CALL_BYTES)
        mpishmem_blocking_mpi_enter();
    else
        mpishmem_note_mpi_activity(); /* the progress thread then leaves MPI to us */
}

static inline void leave_mpi(size_t n)
{
    if (n >= LONG_CALL_BYTES)
        mpishmem_blocking_mpi_leave();
}

void mpishmem_mpi_put_bytes(MPI_Win win, const void *src, size_t n, int pe, size_t off)
{
    size_t total = n;
    const char *p = src;
    enter_mpi(total);
    while (n > 0) {
        size_t c = n < MPISHMEM_MPI_CHUNK ? n : MPISHMEM_MPI_CHUNK;
        MPISHMEM_MPI(MPI_Put(p, (int)c, MPI_BYTE, pe, (MPI_Aint)off, (int)c, MPI_BYTE, win));
        p += c;
        off += c;
        n -= c;
    }
    leave_mpi(total);
}

void mpishmem_mpi_get_bytes(MPI_Win win, void *dst, size_t n, int pe, size_t off)
{
    size_t total = n;
    char *p = dst;
    enter_mpi(total);
    while (n > 0) {
        size_t c = n < MPISHMEM_MPI_CHUNK ? n : MPISHMEM_MPI_CHUNK;
        MPISHMEM_MPI(MPI_Get(p, (int)c, MPI_BYTE, pe, (MPI_Aint)off, (int)c, MPI_BYTE, win));
        p += c;
        off += c;
        n -= c;
    }
    leave_mpi(total);
}

/* A blocking get waits for its own request, not for a local flush of the
 * target: under MPI_THREAD_MULTIPLE, when threads share a window (contexts
 * sharing a lane), MPICH 4.0 (ch4:ucx) can return from one thread's
 * MPI_Win_flush_local while another thread flushes the same target and
 * the data is still on its way: the get then lands in a stack frame that
 * is gone (ctx_threads at 3 PEs with MPISHMEM_CTX_LANES=0 crashed so).
 * Used under SHMEM_THREAD_MULTIPLE, and when PEs outnumber cores, where
 * the wait polls MPI and gives the core away instead of spinning inside
 * MPI while the target waits for one (completion.c, flush_target); one
 * thread with a core keeps Get + flush_local on its node, the faster
 * route there; to another node this is the faster one (rma_path.h). */
void mpishmem_mpi_get_bytes_wait(MPI_Win win, void *dst, size_t n, int pe, size_t off)
{
    mpishmem_note_mpi_activity();
    char *p = dst;
    while (n > 0) {
        size_t c = n < MPISHMEM_MPI_CHUNK ? n : MPISHMEM_MPI_CHUNK;
        MPI_Request r;
        enter_mpi(c);
        MPISHMEM_MPI(MPI_Rget(p, (int)c, MPI_BYTE, pe, (MPI_Aint)off, (int)c, MPI_BYTE, win, &r));
        leave_mpi(c);
        if (mpishmem_rt.wait_by_request)
            mpishmem_wait_request(&r);
        else {
            mpishmem_blocking_mpi_enter();
            MPISHMEM_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            mpishmem_blocking_mpi_leave();
        }
        p += c;
        off += c;
        n -= c;
    }
}

/* A committed type of `count` blocks of `bsize` elements, `stride` elements
 * apart.  The caller frees it; MPI keeps it alive until the operation ends. */
static MPI_Datatype strided_type(size_t count, size_t bsize, ptrdiff_t stride, size_t elem)
{
    MPI_Datatype element, vec;
    MPISHMEM_MPI(MPI_Type_contiguous((int)elem, MPI_BYTE, &element));
    MPISHMEM_MPI(MPI_Type_create_hvector((int)count, (int)bsize,
                                         (MPI_Aint)stride * (MPI_Aint)elem, element,
                                         &vec));
    MPISHMEM_MPI(MPI_Type_commit(&vec));
    MPISHMEM_MPI(MPI_Type_free(&element));
    return vec;
}

void mpishmem_mpi_strided(MPI_Win win, int is_put, char *local, size_t off,
                          ptrdiff_t tst, ptrdiff_t lst, size_t elem, size_t bsize,
                          size_t nblocks, int pe)
{
    mpishmem_note_mpi_activity();
    /* Blocks too large for one int count go one contiguous block at a time. */
    if (bsize * elem > (size_t)INT_MAX) {
        for (size_t i = 0; i < nblocks; i++) {
            char *l = local + (ptrdiff_t)i * lst * (ptrdiff_t)elem;
            size_t o = off + (size_t)((ptrdiff_t)i * tst * (ptrdiff_t)elem);
            if (is_put)
                mpishmem_mpi_put_bytes(win, l, bsize * elem, pe, o);
            else
                mpishmem_mpi_get_bytes(win, l, bsize * elem, pe, o);
        }
        return;
    }
    const size_t max_blocks = INT_MAX;
    while (nblocks > 0) {
        size_t c = nblocks < max_blocks ? nblocks : max_blocks;
        MPI_Datatype ltype = strided_type(c, bsize, lst, elem);
        MPI_Datatype ttype = strided_type(c, bsize, tst, elem);
        if (is_put)
            MPISHMEM_MPI(MPI_Put(local, 1, ltype, pe, (MPI_Aint)off, 1, ttype, win));
        else
            MPISHMEM_MPI(MPI_Get(local, 1, ltype, pe, (MPI_Aint)off, 1, ttype, win));
        MPISHMEM_MPI(MPI_Type_free(&ltype));
        MPISHMEM_MPI(MPI_Type_free(&ttype));
        local += (ptrdiff_t)c * lst * (ptrdiff_t)elem;
        off += (size_t)((ptrdiff_t)c * tst * (ptrdiff_t)elem);
        nblocks -= c;
    }
}

/* Bounce buffer of small blocking puts, one per thread.  MPI may read an
 * origin buffer until the put completes locally, so a slot is reused only
 * after MPI_Win_flush_local of every (window, rank) the buffer served since
 * it was last recycled. */
#define BOUNCE_BYTES (32 * 1024)
#define BOUNCE_TARGETS 16
typedef struct bounce_target {
    MPI_Win win;
    int rank;
} bounce_target_t;
static __thread struct {
    _Alignas(64) char buf[BOUNCE_BYTES];
    size_t used;
    int n_targets;
    bounce_target_t t[BOUNCE_TARGETS];
} bounce;

/* Counts recycles, for the tests (test/rma/test_bounce.c). */
unsigned long mpishmem_bounce_recycles;

/* A window may have been freed (a memory space destroyed) since a put went
 * through it; its operations completed then.  Flush only live windows. */
static int window_live(MPI_Win win)
{
    for (int i = 0; i < mpishmem_segments.count; i++) {
        mpishmem_segment_t *s = mpishmem_segments.sorted[i];
        for (int k = 0; k < mpishmem_segment_n_lanes(s); k++)
            if (s->lanes[k].win == win)
                return 1;
    }
    return 0;
}

static void bounce_recycle(void)
{
    for (int i = 0; i < bounce.n_targets; i++)
        if (window_live(bounce.t[i].win))
            MPISHMEM_MPI(MPI_Win_flush_local(bounce.t[i].rank, bounce.t[i].win));
    bounce.n_targets = 0;
    bounce.used = 0;
    __atomic_fetch_add(&mpishmem_bounce_recycles, 1, __ATOMIC_RELAXED);
}

/* A thread that exits right after a blocking put takes its buffer with it:
 * complete the puts that read from it first. */
static pthread_key_t bounce_key;
static pthread_once_t bounce_once = PTHREAD_ONCE_INIT;
static __thread int bounce_registered;

static void bounce_thread_exit(void *unused)
{
    (void)unused;
    int done = 1;
    MPI_Finalized(&done);
    if (!done && bounce.n_targets > 0)
        bounce_recycle();
}

static void bounce_key_create(void)
{
    pthread_key_create(&bounce_key, bounce_thread_exit);
}

const void *mpishmem_bounce_stage(MPI_Win win, int rank, const void *src, size_t n)
{
    if (MPISHMEM_UNLIKELY(!bounce_registered)) {
        pthread_once(&bounce_once, bounce_key_create);
        pthread_setspecific(bounce_key, &bounce);
        bounce_registered = 1;
    }
    size_t need = (n + 15) & ~(size_t)15;
    int known = bounce.n_targets > 0 && bounce.t[bounce.n_targets - 1].win == win &&
                bounce.t[bounce.n_targets - 1].rank == rank;
    for (int i = 0; !known && i < bounce.n_targets; i++)
        known = bounce.t[i].win == win && bounce.t[i].rank == rank;
    if (bounce.used + need > BOUNCE_BYTES || (!known && bounce.n_targets == BOUNCE_TARGETS)) {
        bounce_recycle();
        known = 0;
    }
    if (!known)
        bounce.t[bounce.n_targets++] = (bounce_target_t){win, rank};
    char *slot = bounce.buf + bounce.used;
    bounce.used += need;
    memcpy(slot, src, n);
    return slot;
}
