/*
 * mpishmem: the request service (request_service.h).
 *
 * Each row of the table keeps one receive posted on its kind's tag; a
 * serving pass tests them and hands what arrived to the row's handler,
 * then posts the next receive, after the handler's answer: the origin
 * waits for the answer, not for this (fetching AMOs between pretend nodes:
 * 0.92-1.02x their time with the receive posted first).  A pass handles at
 * most BATCH requests per row, so one call never serves forever.
 * Acknowledgements of consecutive requests from one origin go as one
 * message.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <pthread.h>
#include "request_service.h"
#include "progress.h"
#include "error.h"

/* Requests of kind k travel on tag 1 + k (test/amo/amo_requests.c holds
 * back tag 1: the AMO requests), then acknowledgements, then answers. */
#define FIRST_REQ_TAG 1
#define ACK_TAG (FIRST_REQ_TAG + MPISHMEM_REQ_KINDS)
#define FIRST_REPLY_TAG (ACK_TAG + 1)
#define REPLY_TAGS 30000 /* below MPISHMEM_P2P_COLL_TAGS; MPI promises 32767 */
#define BATCH 32

typedef struct row {
    mpishmem_req_handler_t handler; /* NULL: not registered */
    void *buf;
    int max_bytes, from_thread, fixed_size;
    MPI_Request recv;
} row_t;

static MPI_Comm comm = MPI_COMM_NULL;
static row_t rows[MPISHMEM_REQ_KINDS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* holding: this thread took the lock through mpishmem_requests_lock;
 * handling: a handler runs (under the lock, so no thread-local needed). */
static __thread int holding;
static int handling;
static uint32_t ack_in;
static MPI_Request ack_recv = MPI_REQUEST_NULL;
static unsigned long unacked;
static unsigned reply_seq;
static int thread_rows; /* registered rows the progress thread may serve */

static void serve_hook(void);

int mpishmem_requests_start(MPI_Comm world)
{
    if (comm != MPI_COMM_NULL)
        return MPI_SUCCESS;
    int rc = mpishmem_comm_dup(world, &comm);
    if (rc != MPI_SUCCESS)
        return rc;
    MPISHMEM_MPI(MPI_Irecv(&ack_in, 1, MPI_UINT32_T, MPI_ANY_SOURCE, ACK_TAG, comm, &ack_recv));
    mpishmem_serve_set_hook(serve_hook);
    return MPI_SUCCESS;
}

static void cancel(MPI_Request *r)
{
    MPISHMEM_MPI(MPI_Cancel(r));
    MPISHMEM_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
}

void mpishmem_requests_stop(void)
{
    if (comm == MPI_COMM_NULL)
        return;
    for (int k = 0; k < MPISHMEM_REQ_KINDS; k++)
        mpishmem_requests_unregister(k);
    pthread_mutex_lock(&lock);
    cancel(&ack_recv);
    pthread_mutex_unlock(&lock);
    MPISHMEM_MPI(MPI_Comm_free(&comm));
}

static void post(row_t *r, int kind)
{
    MPISHMEM_MPI(MPI_Irecv(r->buf, r->max_bytes, MPI_BYTE, MPI_ANY_SOURCE,
                           FIRST_REQ_TAG + kind, comm, &r->recv));
}

void mpishmem_requests_register(int kind, mpishmem_req_handler_t handler, void *buf,
                                int max_bytes, int flags)
{
    int from_thread = (flags & MPISHMEM_REQ_FROM_THREAD) != 0;
    mpishmem_requests_lock();
    row_t *r = &rows[kind];
    r->buf = buf;
    r->max_bytes = max_bytes;
    r->from_thread = from_thread;
    r->fixed_size = (flags & MPISHMEM_REQ_FIXED_SIZE) != 0;
    thread_rows += from_thread;
    post(r, kind);
    __atomic_store_n(&r->handler, handler, __ATOMIC_RELEASE);
    mpishmem_requests_unlock();
}

void mpishmem_requests_unregister(int kind)
{
    mpishmem_requests_lock();
    row_t *r = &rows[kind];
    if (r->handler != NULL) {
        __atomic_store_n(&r->handler, NULL, __ATOMIC_RELEASE);
        thread_rows -= r->from_thread;
        cancel(&r->recv);
    }
    mpishmem_requests_unlock();
}

MPI_Comm mpishmem_requests_comm(void)
{
    return comm;
}

int mpishmem_requests_tag(int kind)
{
    return FIRST_REQ_TAG + kind;
}

int mpishmem_requests_reply_tag(void)
{
    return FIRST_REPLY_TAG +
           (int)(__atomic_fetch_add(&reply_seq, 1, __ATOMIC_RELAXED) % REPLY_TAGS);
}

void mpishmem_requests_lock(void)
{
    pthread_mutex_lock(&lock);
    holding = 1;
}

void mpishmem_requests_unlock(void)
{
    holding = 0;
    pthread_mutex_unlock(&lock);
}

static void send_acks(int dst, uint32_t n)
{
    if (n > 0)
        MPISHMEM_MPI(MPI_Send(&n, 1, MPI_UINT32_T, dst, ACK_TAG, comm));
}

/* Acknowledgements can only be on their way while some are missing:
 * otherwise a serving pass (every step of every wait) skips the test. */
static void take_acks(void)
{
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

static void serve_row(row_t *r, int kind)
{
    int ack_to = -1;
    uint32_t acks = 0;
    for (int k = 0; k < BATCH && r->handler != NULL; k++) {
        int flag = 0, bytes = r->max_bytes;
        MPI_Status st;
        MPISHMEM_MPI(MPI_Test(&r->recv, &flag, &st));
        if (!flag)
            break;
        if (!r->fixed_size) /* a longer one would have failed the receive */
            MPISHMEM_MPI(MPI_Get_count(&st, MPI_BYTE, &bytes));
        handling = 1;
        int ack = r->handler(r->buf, bytes, st.MPI_SOURCE);
        handling = 0;
        if (ack) {
            if (st.MPI_SOURCE != ack_to) {
                send_acks(ack_to, acks);
                ack_to = st.MPI_SOURCE;
                acks = 0;
            }
            acks++;
        }
        post(r, kind);
    }
    send_acks(ack_to, acks);
}

/* The caller holds the lock. */
static void serve_locked(int thread_only)
{
    for (int k = 0; k < MPISHMEM_REQ_KINDS; k++)
        if (rows[k].handler != NULL && (!thread_only || rows[k].from_thread))
            serve_row(&rows[k], k);
    take_acks();
}

/* Thread-local state is read only when the lock is taken: by another
 * thread, or by this one in a kind's own work (then it serves, unless a
 * handler is running: a wait inside a handler serves nothing). */
static void serve(int thread_only)
{
    if (comm == MPI_COMM_NULL || (thread_only && thread_rows == 0))
        return;
    if (pthread_mutex_trylock(&lock) == 0) {
        serve_locked(thread_only);
        pthread_mutex_unlock(&lock);
    } else if (holding && !handling) {
        serve_locked(thread_only);
    }
}

static void serve_hook(void)
{
    serve(0);
}

void mpishmem_requests_serve(void)
{
    serve(0);
}

void mpishmem_requests_serve_from_thread(void)
{
    serve(1);
}

void mpishmem_requests_expect_ack(void)
{
    __atomic_add_fetch(&unacked, 1, __ATOMIC_ACQ_REL);
}

void mpishmem_requests_wait_acks(void)
{
    unsigned spins = 0;
    while (__atomic_load_n(&unacked, __ATOMIC_ACQUIRE) != 0)
        mpishmem_progress_step(&spins); /* serves, so acknowledgements arrive */
}
