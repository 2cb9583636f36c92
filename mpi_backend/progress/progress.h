/*
 * mpishmem: keeping MPI progressing while a PE waits.  The waiting rule is
 * progress.c; the polled set-up collectives polled_coll.c; the count of a
 * node's cores cores.c.
 *
 * A PE blocked in wait_until or a barrier must still serve RMA aimed at it
 * (some MPI transports need the target to poll).  With a core of its own it
 * spins, polling MPI, and never yields; when PEs outnumber cores
 * (mpishmem_rt.yield, decided once at shmem_init) it polls MPI and gives
 * its core to the PE it is waiting for; waiting for a word of node-shared
 * memory, it sleeps until the PE that changes the word wakes it.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_PROGRESS_H
#define MPISHMEM_PROGRESS_H

#include <stdint.h>
#include <mpi.h>
#include "runtime.h"

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

/* Program threads inside a blocking MPI call of the library that may last
 * (a flush, a blocking collective): MPI runs its progress engine there,
 * and a probe of the progress thread would only contend with it for MPI's
 * lock.  Activity alone cannot tell: it is noted when the call starts, and
 * a 1 MiB flush between nodes outlasts many of the thread's naps.  Open
 * MPI, 2 nodes, 1 MiB puts and gets with the thread probing every 20 us
 * through the flushes: 590-870 MB/s against 1,200-1,580 without the
 * thread (docs/performance-cluster.md). */
extern int mpishmem_mpi_blocked;
static inline void mpishmem_blocking_mpi_enter(void)
{
    mpishmem_note_mpi_activity();
    __atomic_add_fetch(&mpishmem_mpi_blocked, 1, __ATOMIC_RELAXED);
}
static inline void mpishmem_blocking_mpi_leave(void)
{
    __atomic_sub_fetch(&mpishmem_mpi_blocked, 1, __ATOMIC_RELAXED);
    mpishmem_note_mpi_activity();
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

/* ---- the waiting primitive (progress.c) ----------------------------------
 * Every wait of the library is a loop that looks at what it watches (a
 * word in memory, an MPI request) and, while that is not ready, takes one
 * step of the one waiting rule: mpishmem_wait_step.  A step serves other
 * PEs' requests, polls MPI's progress engine, and then spins (a core per
 * PE) or gives the core away (PEs outnumber cores: yield, nap, or sleep
 * on a node-shared word until the PE that changes it wakes this one).
 * How often each of these happens depends on the kind of wait; the kinds'
 * parameters and their measurements are one table in progress.c. */
enum mpishmem_wait_kind {
    MPISHMEM_WAIT_WORD,    /* a word in memory: wait_until, locks, acknowledgements */
    MPISHMEM_WAIT_TEST,    /* a test routine returned "not yet" (shmem_test*, test_lock) */
    MPISHMEM_WAIT_POKE,    /* one poll from a routine a program polls (signal_fetch) */
    MPISHMEM_WAIT_REQUEST, /* an MPI request: its own MPI_Test polls MPI */
    MPISHMEM_WAIT_MESSAGE, /* a point-to-point request of the library's collectives */
    MPISHMEM_WAIT_ANSWER,  /* the answer to this PE's own request to another */
    MPISHMEM_WAIT_KINDS
};
/* A 4-byte word in node-shared memory that another PE of the node changes
 * and then wakes its sleepers (mpishmem_wake): an oversubscribed wait on
 * it sleeps in the kernel instead of yielding.  seen: the word's value at
 * the waiter's latest look; sleepers: a count in the same shared memory,
 * zero when nobody sleeps. */
typedef struct {
    uint32_t *word;
    uint32_t seen;
    uint32_t *sleepers;
} mpishmem_wake_word_t;

/* One step of a wait of this kind; *n counts the wait's steps (a wait's
 * first step has *n == 0 before it).  on: NULL, or the node-shared word
 * the wait watches. */
void mpishmem_wait_step(unsigned *n, enum mpishmem_wait_kind kind, const mpishmem_wake_word_t *on);
/* Waits for an MPI request, a step of the rule between MPI_Tests. */
void mpishmem_wait_for(MPI_Request *req, enum mpishmem_wait_kind kind);
/* After storing a new value into a word that waits sleep on: wakes the
 * sleepers.  Free with a core per PE (nobody sleeps then: no fence, no
 * system call); oversubscribed, a fence and a load, and the system call
 * only when the count says someone sleeps. */
void mpishmem_wake_sleepers(uint32_t *word);
static inline void mpishmem_wake(uint32_t *word, const uint32_t *sleepers)
{
    if (MPISHMEM_UNLIKELY(mpishmem_rt.yield)) {
        /* Orders the store of the word before the load of the count; a
         * sleeper orders its count before its look at the word. */
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        if (__atomic_load_n(sleepers, __ATOMIC_RELAXED) != 0)
            mpishmem_wake_sleepers(word);
    }
}

/* Sleeps on words of this process that ended woken or changed ([0]) and
 * timed out ([1]): a test sees a lost wake-up as timeouts. */
extern unsigned long mpishmem_wait_sleeps[2];
/* The longest sleep (ns); a test sets it long, so that a lost wake-up
 * shows as timeouts however loaded the machine is. */
extern long mpishmem_wait_sleep_ns;
/* A test sets 1: every oversubscribed wait on a node-shared word sleeps,
 * whatever the plan's sched_apart and the yields say (progress.c). */
extern int mpishmem_wait_force_sleep;

/* The library's waits, by kind. */
/* One step of a polling loop on a word; *spins counts the wait's steps. */
static inline void mpishmem_progress_step(unsigned *spins)
{
    mpishmem_wait_step(spins, MPISHMEM_WAIT_WORD, NULL);
}
/* A test routine (shmem_test*, shmem_test_lock) that returns "not yet":
 * the program may sleep or compute before its next call, so every such
 * call polls MPI, and gives the core away as a step does when PEs
 * outnumber cores.  *spins counts this thread's failed tests. */
static inline void mpishmem_progress_test_failed(unsigned *spins)
{
    mpishmem_wait_step(spins, MPISHMEM_WAIT_TEST, NULL);
}
/* Polls MPI once (for routines that return a value a program polls, such
 * as shmem_signal_fetch). */
static inline void mpishmem_progress_poke(void)
{
    unsigned n = 0;
    mpishmem_wait_step(&n, MPISHMEM_WAIT_POKE, NULL);
}
/* Before exit_comm is freed (shmem_finalize): cancels the receive the
 * steps poll MPI with (progress.c). */
void mpishmem_progress_finalize(void);

/* One MPI_Iprobe, progressing what MPI progresses there (an AMO on this
 * PE's own window, amo_mpi.c). */
void mpishmem_probe_mpi(void);
/* Until the answer to one of this PE's requests to another is in
 * (request_service.h, the GPU agent, staged GPU transfers), serving
 * others' requests meanwhile. */
static inline void mpishmem_wait_answer(MPI_Request *answer)
{
    mpishmem_wait_for(answer, MPISHMEM_WAIT_ANSWER);
}
/* Waits for a request (a non-blocking collective, or an RMA request whose
 * answer may need the target PE inside MPI), polling it with the steps
 * above instead of spinning inside MPI. */
static inline void mpishmem_wait_request(MPI_Request *req)
{
    mpishmem_wait_for(req, MPISHMEM_WAIT_REQUEST);
}
/* Waits for a point-to-point request of the library's own collectives:
 * with a core to itself, MPI_Test in a loop (which serves RMA aimed at
 * this PE as any MPI call does, and nothing outside MPI that would delay
 * it); oversubscribed, the steps wait_until takes (yield, nap).  Requests
 * are served on every step either way. */
static inline void mpishmem_wait_message(MPI_Request *req)
{
    mpishmem_wait_for(req, MPISHMEM_WAIT_MESSAGE);
}
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
/* A hash of the scheduling group this process's CPU time is shared in
 * (its CPU cgroup, else its session's autogroup): sched_yield hands the
 * core only to tasks of the same group (progress.c). */
unsigned long long mpishmem_sched_group_key(void);

#endif
