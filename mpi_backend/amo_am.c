/*
 * mpishmem: AMOs as requests that the owning PE applies.
 *
 * Why: MPICH (ch4) applies MPI atomics between nodes by its own active
 * messages, with more work per operation than a plain message exchange.
 * Between two pretend nodes: MPI_Fetch_and_op + flush 1,080-1,150 ns, a
 * 32-byte MPI_Send answered by an 8-byte MPI_Send 700 ns (bench/README,
 * docs/performance.md).  So on such an MPI each AMO whose target we cannot
 * reach by load/store is a 32-byte request; the owner applies it with a
 * CPU atomic while it is inside the library (every wait serves requests)
 * or, while it computes, from its progress thread.
 *
 * Atomicity: on a segment with this route (s->amo_am) every AMO is a CPU
 * atomic on the owner's memory, made by the owner or by a PE of its node
 * that maps it, never an MPI accumulate, so all are atomic with each other.
 *
 * Completion: a fetching AMO (the _nbi forms too) waits for its answer.  A
 * non-fetching one is acknowledged: this PE counts the acknowledgements it
 * still waits for, and its flush of a target on the segment's lane 0 (quiet,
 * fence, pe_quiet, barrier: completion.c) first waits until none is
 * missing.  Requests of one origin are applied in the order sent (one
 * communicator and tag; MPI does not overtake).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include "amo_am.h"
#include "amo_path.h"
#include "progress.h"
#include "runtime.h"
#include "error.h"

#define REQ_TAG 1
#define ACK_TAG 2
#define FIRST_REPLY_TAG 3
#define REPLY_TAGS 30000 /* MPI promises tags up to 32767 */
#define MAX_SEGS 8
/* Requests served per call, so one call never serves forever. */
#define SERVE_BATCH 32

typedef struct am_req {
    uint8_t op, size, seg, pad;
    int32_t reply; /* tag of the answer; -1: acknowledge only (non-fetching) */
    uint64_t off, value, cond;
} am_req_t;

int mpishmem_amo_am_on;

static MPI_Comm comm = MPI_COMM_NULL;
static mpishmem_segment_t *segs[MAX_SEGS];
static int n_segs;
/* The posted receives, owned by whichever thread holds serve_lock. */
static pthread_mutex_t serve_lock = PTHREAD_MUTEX_INITIALIZER;
static am_req_t req_in;
static MPI_Request req_recv = MPI_REQUEST_NULL;
static uint32_t ack_in;
static MPI_Request ack_recv = MPI_REQUEST_NULL;
static unsigned long unacked;
static unsigned reply_seq;

int mpishmem_amo_am_start(MPI_Comm world)
{
    int rc = mpishmem_comm_dup(world, &comm);
    if (rc != MPI_SUCCESS)
        return rc;
    MPISHMEM_MPI(MPI_Irecv(&req_in, sizeof req_in, MPI_BYTE, MPI_ANY_SOURCE, REQ_TAG, comm,
                           &req_recv));
    MPISHMEM_MPI(MPI_Irecv(&ack_in, 1, MPI_UINT32_T, MPI_ANY_SOURCE, ACK_TAG, comm, &ack_recv));
    __atomic_store_n(&mpishmem_amo_am_on, 1, __ATOMIC_RELEASE);
    return MPI_SUCCESS;
}

int mpishmem_amo_am_enable(mpishmem_segment_t *s)
{
    if (n_segs == MAX_SEGS)
        return -1;
    segs[n_segs] = s;
    s->amo_am = ++n_segs;
    return 0;
}

static void cancel(MPI_Request *r)
{
    MPISHMEM_MPI(MPI_Cancel(r));
    MPISHMEM_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
}

void mpishmem_amo_am_stop(void)
{
    if (!mpishmem_amo_am_on)
        return;
    __atomic_store_n(&mpishmem_amo_am_on, 0, __ATOMIC_RELEASE);
    pthread_mutex_lock(&serve_lock);
    cancel(&req_recv);
    cancel(&ack_recv);
    pthread_mutex_unlock(&serve_lock);
    for (int i = 0; i < n_segs; i++)
        segs[i]->amo_am = 0;
    n_segs = 0;
    MPISHMEM_MPI(MPI_Comm_free(&comm));
}

/* ---- the owner's side --------------------------------------------------------- */

static uint64_t apply_local(mpishmem_segment_t *s, char *word, int op, size_t size,
                            uint64_t value, uint64_t cond)
{
    (void)s;
    if (size == 8)
        return mpishmem_amo_cpu64(op, (uint64_t *)word, value, cond);
    return mpishmem_amo_cpu32(op, (uint32_t *)word, (uint32_t)value, (uint32_t)cond);
}

static uint64_t apply(const am_req_t *r, int src)
{
    mpishmem_segment_t *s = r->seg >= 1 && r->seg <= n_segs ? segs[r->seg - 1] : NULL;
    if (s == NULL || (r->size != 4 && r->size != 8) || r->off > s->size - r->size ||
        r->op > MPISHMEM_AMO_XOR)
        mpishmem_fatal("mpishmem AMO request", "PE %d sent a malformed request (segment %u, "
                       "op %u, %u bytes at offset %llu)", src, r->seg, r->op, r->size,
                       (unsigned long long)r->off);
    return apply_local(s, s->base + r->off, r->op, r->size, r->value, r->cond);
}

static void send_acks(int src, uint32_t n)
{
    if (n > 0)
        MPISHMEM_MPI(MPI_Send(&n, 1, MPI_UINT32_T, src, ACK_TAG, comm));
}

/* The caller holds serve_lock.  Acknowledgements of consecutive requests
 * from one origin go as one message. */
static void serve_locked(void)
{
    int ack_to = -1;
    uint32_t acks = 0;
    for (int k = 0; k < SERVE_BATCH; k++) {
        int flag = 0;
        MPI_Status st;
        MPISHMEM_MPI(MPI_Test(&req_recv, &flag, &st));
        if (!flag)
            break;
        uint64_t old = apply(&req_in, st.MPI_SOURCE);
        if (req_in.reply >= 0) {
            MPISHMEM_MPI(MPI_Send(&old, 8, MPI_BYTE, st.MPI_SOURCE, req_in.reply, comm));
        } else {
            if (st.MPI_SOURCE != ack_to) {
                send_acks(ack_to, acks);
                ack_to = st.MPI_SOURCE;
                acks = 0;
            }
            acks++;
        }
        /* The next receive only after the answer: the origin waits for
         * the answer, not for this (fetching AMOs between pretend nodes:
         * 0.92-1.02x their time with the receive posted first). */
        MPISHMEM_MPI(MPI_Irecv(&req_in, sizeof req_in, MPI_BYTE, MPI_ANY_SOURCE, REQ_TAG, comm,
                               &req_recv));
    }
    send_acks(ack_to, acks);
    /* Acknowledgements can only be on their way while some are missing:
     * otherwise a serving pass (every step of every wait) skips the test. */
    while (__atomic_load_n(&unacked, __ATOMIC_ACQUIRE) != 0) {
        int flag = 0;
        MPISHMEM_MPI(MPI_Test(&ack_recv, &flag, MPI_STATUS_IGNORE));
        if (!flag)
            break;
        uint32_t n = ack_in;
        MPISHMEM_MPI(MPI_Irecv(&ack_in, 1, MPI_UINT32_T, MPI_ANY_SOURCE, ACK_TAG, comm,
                               &ack_recv));
        __atomic_sub_fetch(&unacked, n, __ATOMIC_RELEASE);
    }
}

void mpishmem_amo_am_serve(void)
{
    if (!__atomic_load_n(&mpishmem_amo_am_on, __ATOMIC_ACQUIRE))
        return;
    if (pthread_mutex_trylock(&serve_lock) != 0)
        return; /* another thread of this PE is serving */
    if (mpishmem_amo_am_on)
        serve_locked();
    pthread_mutex_unlock(&serve_lock);
}

void mpishmem_amo_am_wait_acks(void)
{
    unsigned spins = 0;
    while (__atomic_load_n(&unacked, __ATOMIC_ACQUIRE) != 0)
        mpishmem_progress_step(&spins); /* serves, so acknowledgements arrive */
}

/* ---- the origin's side -------------------------------------------------------- */

/* Until the answer is in.  With a core of its own the PE tests the answer
 * and serves others' requests only every few tests (each serving pass
 * tests two more requests); oversubscribed it yields between tests. */
#define TESTS_PER_SERVE 8u
static void wait_answer(MPI_Request *answer)
{
    if (mpishmem_rt.yield) {
        mpishmem_wait_request(answer); /* serves at every step */
        return;
    }
    int done = 0;
    for (unsigned n = 1;; n++) {
        MPISHMEM_MPI(MPI_Test(answer, &done, MPI_STATUS_IGNORE));
        if (done)
            return;
        if (n % TESTS_PER_SERVE == 0) {
            mpishmem_note_mpi_activity();
            mpishmem_serve(); /* two PEs may wait for each other's answers */
        }
    }
}

void mpishmem_amo_am(mpishmem_pending_t *p, mpishmem_segment_t *s, int op, size_t off,
                     size_t size, const void *value, const void *cond, void *result, int pe)
{
    uint64_t v = 0, c = 0, old;
    if (value)
        memcpy(&v, value, size);
    if (cond)
        memcpy(&c, cond, size);
    char *peer = pe == mpishmem_rt.my_pe ? s->base : mpishmem_segment_peer(s, pe);
    if (peer != NULL) { /* mapped here: no message */
        old = apply_local(s, peer + off, op, size, v, c);
        /* A PE polling its own word with AMOs must still apply the
         * requests that would change it (test amo_progress). */
        if (pe == mpishmem_rt.my_pe)
            mpishmem_amo_am_serve();
    } else {
        mpishmem_note_mpi_activity();
        am_req_t r = {.op = (uint8_t)op, .size = (uint8_t)size, .seg = (uint8_t)s->amo_am,
                      .reply = -1, .off = off, .value = v, .cond = c};
        if (result == NULL) {
            /* Counted before it goes, so a flush that starts later waits for it. */
            __atomic_add_fetch(&unacked, 1, __ATOMIC_ACQ_REL);
            MPISHMEM_MPI(MPI_Send(&r, sizeof r, MPI_BYTE, pe, REQ_TAG, comm));
            mpishmem_lane_mark(p, s, &s->lanes[0], pe);
            return;
        }
        MPI_Request answer;
        r.reply = FIRST_REPLY_TAG +
                  (int)(__atomic_fetch_add(&reply_seq, 1, __ATOMIC_RELAXED) % REPLY_TAGS);
        MPISHMEM_MPI(MPI_Irecv(&old, 8, MPI_BYTE, pe, r.reply, comm, &answer));
        MPISHMEM_MPI(MPI_Send(&r, sizeof r, MPI_BYTE, pe, REQ_TAG, comm));
        wait_answer(&answer);
    }
    if (result == NULL)
        return;
    if (size == 8) {
        memcpy(result, &old, 8);
    } else {
        uint32_t w = (uint32_t)old;
        memcpy(result, &w, 4);
    }
}
