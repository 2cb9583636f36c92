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
 * non-fetching one is acknowledged: the request service counts the
 * acknowledgements this PE still waits for, and its flush of a target on
 * the segment's lane 0 (quiet, fence, pe_quiet, barrier: completion.c)
 * first waits until none is missing.  Requests of one origin are applied in
 * the order sent (one communicator and tag; MPI does not overtake).  The
 * requests travel through the request service (request_service.h), as one
 * of its kinds.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <string.h>
#include "amo_am.h"
#include "amo_path.h"
#include "progress.h"
#include "request_service.h"
#include "runtime.h"
#include "error.h"

#define MAX_SEGS 8

typedef struct am_req {
    uint8_t op, size, seg, pad;
    int32_t reply; /* tag of the answer; -1: acknowledge only (non-fetching) */
    uint64_t off, value, cond;
} am_req_t;

int mpishmem_amo_am_on;

static mpishmem_segment_t *segs[MAX_SEGS];
static int n_segs;
static am_req_t req_in; /* the service's receive for this kind lands here */

static int handle(const void *msg, int bytes, int src);

int mpishmem_amo_am_start(MPI_Comm world)
{
    int rc = mpishmem_requests_start(world);
    if (rc != MPI_SUCCESS)
        return rc;
    mpishmem_requests_register(MPISHMEM_REQ_AMO, handle, &req_in, (int)sizeof req_in,
                               MPISHMEM_REQ_FROM_THREAD | MPISHMEM_REQ_FIXED_SIZE);
    __atomic_store_n(&mpishmem_amo_am_on, 1, __ATOMIC_RELEASE);
    mpishmem_serve_turn_on(MPISHMEM_SERVE_AMO);
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

void mpishmem_amo_am_stop(void)
{
    if (!mpishmem_amo_am_on)
        return;
    __atomic_store_n(&mpishmem_amo_am_on, 0, __ATOMIC_RELEASE);
    mpishmem_serve_turn_off(MPISHMEM_SERVE_AMO);
    mpishmem_requests_unregister(MPISHMEM_REQ_AMO);
    for (int i = 0; i < n_segs; i++)
        segs[i]->amo_am = 0;
    n_segs = 0;
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

/* One request (request_service.c calls this with its lock held): a
 * fetching one is answered here, a non-fetching one acknowledged by the
 * service. */
static int handle(const void *msg, int bytes, int src)
{
    const am_req_t *r = msg;
    (void)bytes; /* always sizeof *r (MPISHMEM_REQ_FIXED_SIZE) */
    uint64_t old = apply(r, src);
    if (r->reply < 0)
        return 1;
    MPISHMEM_MPI(MPI_Send(&old, 8, MPI_BYTE, src, r->reply, mpishmem_requests_comm()));
    return 0;
}

/* ---- the origin's side -------------------------------------------------------- */

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
            mpishmem_requests_serve();
    } else {
        mpishmem_note_mpi_activity();
        MPI_Comm comm = mpishmem_requests_comm();
        int tag = mpishmem_requests_tag(MPISHMEM_REQ_AMO);
        am_req_t r = {.op = (uint8_t)op, .size = (uint8_t)size, .seg = (uint8_t)s->amo_am,
                      .reply = -1, .off = off, .value = v, .cond = c};
        if (result == NULL) {
            /* Counted before it goes, so a flush that starts later waits for it. */
            mpishmem_requests_expect_ack();
            MPISHMEM_MPI(MPI_Send(&r, sizeof r, MPI_BYTE, pe, tag, comm));
            mpishmem_lane_mark(p, s, &s->lanes[0], pe);
            return;
        }
        MPI_Request answer;
        r.reply = mpishmem_requests_reply_tag();
        MPISHMEM_MPI(MPI_Irecv(&old, 8, MPI_BYTE, pe, r.reply, comm, &answer));
        MPISHMEM_MPI(MPI_Send(&r, sizeof r, MPI_BYTE, pe, tag, comm));
        mpishmem_wait_answer(&answer);
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
