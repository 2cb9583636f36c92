/*
 * mpishmem: the request service: work that one PE asks another to do on
 * memory only the other can reach (AMO requests, amo_am.c; the GPU agent,
 * gpu_agent.c).
 *
 * One communicator (a duplicate of the world: ranks are PE numbers), one
 * tag space, one reply numbering, one lock and one answer wait, shared by
 * every kind of request.  A kind registers a handler in the table; the
 * service keeps a receive posted for it and calls it on each request that
 * arrives, at every step of every wait (through progress.h's serving hook)
 * and, for kinds that allow it, from the progress thread.  Requests of one
 * origin to one kind are handled in the order sent (one tag per kind; MPI
 * does not overtake).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_REQUEST_SERVICE_H
#define MPISHMEM_REQUEST_SERVICE_H

#include <mpi.h>
#include <stdint.h>

/* The kinds of request, one row of the table each. */
enum { MPISHMEM_REQ_AMO, MPISHMEM_REQ_GPU, MPISHMEM_REQ_KINDS };

/* Handles one request of `bytes` bytes from PE src, in the buffer given at
 * registration; returns 1 when the origin waits for an acknowledgement
 * (mpishmem_requests_expect_ack), else 0 (it answered, or none is owed).
 * Called with the service lock held. */
typedef int (*mpishmem_req_handler_t)(const void *msg, int bytes, int src);

/* Collective over world, once (later calls return at once, on every PE
 * alike): the communicator and the acknowledgement receive; 0 or an MPI
 * error code. */
int mpishmem_requests_start(MPI_Comm world);
/* After the last barrier of shmem_finalize. */
void mpishmem_requests_stop(void);

/* Row `kind`: requests of up to max_bytes land in buf.  Flags:
 * MPISHMEM_REQ_FROM_THREAD, the progress thread may serve them while the
 * PE computes; MPISHMEM_REQ_FIXED_SIZE, every request is max_bytes long
 * (the handler is told so without asking MPI).  Requests to this PE may
 * arrive as soon as the caller's peers have registered too. */
#define MPISHMEM_REQ_FROM_THREAD 1
#define MPISHMEM_REQ_FIXED_SIZE 2
void mpishmem_requests_register(int kind, mpishmem_req_handler_t handler, void *buf,
                                int max_bytes, int flags);
void mpishmem_requests_unregister(int kind);

/* The communicator, the tag a kind's requests travel on, and a fresh tag
 * for one answer (answers may be several messages on the same tag). */
MPI_Comm mpishmem_requests_comm(void);
int mpishmem_requests_tag(int kind);
int mpishmem_requests_reply_tag(void);

/* Non-fetching requests are acknowledged, not answered: count one before
 * it goes; mpishmem_requests_wait_acks returns once every one counted has
 * been handled (its flush of a target, completion.c). */
void mpishmem_requests_expect_ack(void);
void mpishmem_requests_wait_acks(void);

/* The lock that serializes handling and a kind's own use of the buffers
 * it shares with its handler (the GPU agent's).  A thread holding it
 * serves, in its waits, without taking it again. */
void mpishmem_requests_lock(void);
void mpishmem_requests_unlock(void);

/* Serves what has arrived: every row (a step of every wait calls this
 * through progress.h), or only the rows the progress thread may serve. */
void mpishmem_requests_serve(void);
void mpishmem_requests_serve_from_thread(void);

#endif
