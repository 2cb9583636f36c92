/*
 * mpishmem: keeping MPI progressing while a PE waits.  The waiting rule is
 * progress.c; the polled set-up collectives polled_coll.c; the count of a
 * node's cores cores.c.
 *
 * A PE blocked in wait_until or a barrier must still serve RMA aimed at it
 * (some MPI transports need the target to poll).  With a core of its own it
 * spins, polling MPI, and never yields; when PEs outnumber cores
 * (mpishmem_rt.yield, decided once at shmem_init) it polls MPI and gives
 * its core to the PE it is waiting for.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_PROGRESS_H
#define MPISHMEM_PROGRESS_H

#include <mpi.h>

/* Bumped whenever the library enters MPI for this PE (the MPI data path,
 * every poll of a wait or test), so the progress thread can tell a PE that
 * is inside the library, and polls MPI itself, from one that computes
 * (progress_thread.c).  Racy increments from several threads are fine:
 * only "has it changed" matters. */
extern unsigned long mpishmem_mpi_activity;
static inline void mpishmem_note_mpi_activity(void)
{
    __atomic_store_n(&mpishmem_mpi_activity,
                     __atomic_load_n(&mpishmem_mpi_activity, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
}

/* Whether RMA between processes of one node needs the target inside MPI
 * is mpishmem_plan.rma_needs_target (route_plan.h), from the MPI that runs.
 * MPICH (ch4) serves operations on MPI_Win_create windows by active
 * messages, so an origin spinning inside MPI_Win_flush or a blocking
 * MPI_Get waits until the target is scheduled; Open MPI's osc/ucx reaches
 * on-node memory without it (there the same waits measured faster left
 * inside MPI).  When PEs outnumber cores and it holds
 * (mpishmem_rt.wait_by_request), gets, fetching AMOs and flushes wait by
 * polling requests and giving the core away (completion.c). */

/* Requests from other PEs that this PE serves while it waits
 * (request_service.h): a bit per kind that some PE may send here.  Every
 * wait then calls the serving hook, which the request service sets when it
 * starts (so this file never names it). */
#define MPISHMEM_SERVE_AMO 1
#define MPISHMEM_SERVE_GPU 2
extern int mpishmem_serve_on;
static inline void mpishmem_serve_turn_on(int kind)
{
    __atomic_or_fetch(&mpishmem_serve_on, kind, __ATOMIC_RELEASE);
}
static inline void mpishmem_serve_turn_off(int kind)
{
    __atomic_and_fetch(&mpishmem_serve_on, ~kind, __ATOMIC_RELEASE);
}
static inline int mpishmem_serving(void)
{
    return mpishmem_serve_on;
}
void mpishmem_serve_set_hook(void (*hook)(void));
void mpishmem_serve(void);
/* Whether a PE blocked inside an MPI call would leave a peer waiting for
 * it: then collectives poll instead of blocking.  A progress thread does
 * not make blocking safe: it would have to win MPICH's lock from a thread
 * spinning inside the collective (OSU's atomics test: 4.5 ms per fetching
 * AMO while the target sat in a blocking MPI_Allreduce). */
static inline int mpishmem_must_poll(void)
{
    return mpishmem_serving();
}
/* Before a set-up call that blocks inside MPI (MPI_Comm_split,
 * MPI_Win_create, ...): while PEs serve requests, the members of comm
 * first meet in a polled barrier, so none is still waiting for an answer
 * from one that is already blocked.  Collective over comm. */
void mpishmem_meet_before_blocking(MPI_Comm comm);

/* One step of a polling loop; *spins counts the steps of this wait. */
void mpishmem_progress_step(unsigned *spins);
/* A test routine (shmem_test*, shmem_test_lock) that returns "not yet":
 * the program may sleep or compute before its next call, so every such
 * call polls MPI, and gives the core away as a step does when PEs
 * outnumber cores.  *spins counts this thread's failed tests. */
void mpishmem_progress_test_failed(unsigned *spins);
/* Polls MPI once (for routines that return a value a program polls, such
 * as shmem_signal_fetch). */
void mpishmem_progress_poke(void);
/* Before exit_comm is freed (shmem_finalize): cancels the receive the two
 * above poll MPI with (progress.c). */
void mpishmem_progress_finalize(void);

/* One MPI_Iprobe, progressing what MPI progresses there (an AMO on this
 * PE's own window, amo_mpi.c). */
void mpishmem_probe_mpi(void);
/* Until the answer to one of this PE's requests to another is in
 * (request_service.h, the GPU agent, staged GPU transfers), serving
 * others' requests meanwhile. */
void mpishmem_wait_answer(MPI_Request *answer);
/* Waits for a request (a non-blocking collective, or an RMA request whose
 * answer may need the target PE inside MPI), polling it with the steps
 * above instead of spinning inside MPI. */
void mpishmem_wait_request(MPI_Request *req);
/* Waits for a point-to-point request of the library's own collectives:
 * with a core to itself, MPI_Test in a loop (which serves RMA aimed at
 * this PE as any MPI call does, and nothing outside MPI that would delay
 * it); oversubscribed, the steps wait_until takes (mpishmem_progress_step:
 * yield, nap).  Requests are served on every step either way. */
void mpishmem_wait_message(MPI_Request *req);
/* The n-th step of an oversubscribed wait: yields the core, or naps once
 * the wait has yielded long (progress.c has the rule and its numbers). */
void mpishmem_give_core_away(unsigned n);
/* A barrier over comm of zero-byte messages (dissemination: ceil(log2 n)
 * rounds), each round polled as mpishmem_wait_request polls.  MPICH's
 * MPI_Ibarrier polled to completion costs 2.4x this between nodes, and the
 * blocking MPI_Barrier cannot serve peers' requests.  Collective over comm;
 * its messages carry the tags MPISHMEM_BARRIER_TAG + round. */
void mpishmem_barrier_comm(MPI_Comm comm);

/* Tags of the library's own point-to-point collectives on its
 * communicators (the world duplicate, teams' communicators, GPU agents'):
 * the top of the range every MPI allows (MPI_TAG_UB >= 32767).  Requests,
 * answers and active-set tags stay below MPISHMEM_P2P_COLL_TAGS.  Messages
 * of consecutive collectives between two PEs share a tag: MPI's
 * non-overtaking rule keeps them in order. */
#define MPISHMEM_P2P_COLL_TAGS 32704
#define MPISHMEM_BCAST_TAG 32704
#define MPISHMEM_REDUCE_TAG 32705
#define MPISHMEM_GATHER_TAG 32706
#define MPISHMEM_BARRIER_TAG 32712 /* + round, below 32 */
/* The set-up collectives (shmem_init, team and space creation): MPICH spins
 * inside its blocking collectives, so when PEs outnumber cores each one
 * waits for the scheduler to run the PEs it needs (8 PEs on 2 cores:
 * MPI_Allreduce 43 ms, MPI_Comm_dup 69 ms; polled and yielding: 5 ms and
 * 17 ms).  Same arguments and return codes as the MPI calls. */
int mpishmem_allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm);
int mpishmem_allgather(const void *in, int in_count, MPI_Datatype in_type, void *out,
                       int out_count, MPI_Datatype out_type, MPI_Comm comm);
int mpishmem_comm_dup(MPI_Comm comm, MPI_Comm *dup);

/* Whether the launcher placed more processes on this node than this
 * process may use cores (mpishmem_launcher_local_size, launcher_env.h,
 * against the affinity mask): a first guess for
 * the waits of shmem_init, before the node is known.  0 when unknown. */
int mpishmem_launcher_oversubscribed(void);

/* Cores the PEs of `node` (one node's communicator) may run on: the union
 * of their CPU affinity masks, capped by the cgroup CPU quota.  The same
 * on every PE of the node.  Collective over node. */
int mpishmem_node_cores(MPI_Comm node);

#endif
