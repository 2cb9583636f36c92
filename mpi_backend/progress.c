/*
 * mpishmem: the waiting rule: how every wait of the library polls (spin,
 * yield, nap, serve requests, poll MPI).  Its constants are here, each with
 * the measurement that chose it; the other files only call the waits below
 * (progress.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include "progress.h"
#include "runtime.h"
#include "error.h"
#include "route_plan.h"

/* Polling MPI costs more than reading memory; poll it every few spins. */
#define SPINS_PER_MPI_POLL 16u

/* Oversubscribed, every wait gives its core away: sched_yield while the
 * wait is younger than YIELD_NS, then a 1 us nap every NAP_EVERY steps and
 * sched_yield between them.  sched_yield hands the core only to tasks
 * queued on the same core, and under the kernel's EEVDF scheduler mostly
 * not even that: beside processes that never yield, 99.8% of the yields of
 * a 4-PE reduce + barrier returned within 1 us, so a waiting PE spun on its
 * core through its yields, used up its share, and then napped behind a busy
 * process for a scheduler tick (1 us naps took 0.4-2.4 ms on average).  A
 * nap idles the core, so the kernel pulls a runnable PE over.  The limit
 * is time, not a count of yields (1,024 before): a count means
 * microseconds on a quiet machine and milliseconds to seconds beside busy
 * processes.  4 PEs on 2 cores, MPICH, beside busy processes: reduce +
 * barrier 200-240 us in its slow launches against 1,100-4,800 us
 * (docs/performance.md, "Small collectives from launch to launch").  A nap
 * lasts the timer slack (about 50 us); a slack of 1-5 us made PEs preempt
 * each other on every wake-up (25-100 ms per reduce + barrier).  Napping
 * only every 64th step keeps a PE that waits long polling MPI between naps
 * for RMA aimed at it: an 8-byte get from a PE in a barrier between
 * pretend nodes (MPISHMEM_SHM=0) took 6-7 us napping every 64th step,
 * 8-22 us every 16th, 25-42 us every 4th; napping on every step, 110 us. */
#define YIELD_NS 20000
#define NAP_EVERY 64u

/* Oversubscribed, a yielding step polls MPI only every few steps on Open
 * MPI: its poll runs opal_progress, which itself yields when
 * oversubscribed, so polling each step doubled every wait (barrier_all at
 * 4 PEs on 2 cores: 3.6 us polling each step, 1.5-1.6 us every 4th).
 * MPICH serves RMA aimed at this PE only while it polls
 * (mpishmem_plan.rma_needs_target), so it polls on every step. */
#define YIELD_STEPS_PER_MPI_POLL (mpishmem_plan.rma_needs_target ? 1u : 4u)

unsigned long mpishmem_mpi_activity;

int mpishmem_serve_on;
static void (*serve_hook)(void);

void mpishmem_serve_set_hook(void (*hook)(void))
{
    __atomic_store_n(&serve_hook, hook, __ATOMIC_RELEASE);
}

void mpishmem_serve(void)
{
    void (*hook)(void) = __atomic_load_n(&serve_hook, __ATOMIC_ACQUIRE);
    if (hook != NULL)
        hook();
}

/* On the world's duplicate that carries no messages (runtime.h): MPICH's
 * probe returns at once, progressing nothing, while a message it matches
 * waits unreceived, and a barrier message sent ahead of its receive left
 * a peer's flush aimed at this PE waiting forever (amo_signal, 3 PEs). */
static inline void poke_mpi(void)
{
    int flag;
    MPISHMEM_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, mpishmem_rt.exit_comm, &flag,
                            MPI_STATUS_IGNORE));
}

/* A failed test may be followed by a nap, so its one call into MPI must run
 * MPI's whole progress engine: MPI RMA aimed at this PE completes only
 * while it is inside MPI; wait_until's steps likewise.  Open MPI's UCX
 * messaging layer (pml ucx) runs the whole engine, which serves osc/ucx,
 * in only one MPI_Iprobe in 100; MPI_Test on a pending receive runs it on
 * every call.  So these polls test a receive on exit_comm that nothing
 * matches (nothing is sent there).  Over pml ucx (MPISHMEM_SHM=0), a PE
 * polling shmem_int_test with 1 ms naps while its peer waited in a
 * blocking routine (test/sync/sync_deliver_blocked.c) saw a put after
 * 108-160 ms probing, 1.1 ms testing (the median), an AMO after 220-490 ms
 * probing, 2-11 ms testing; a get from a PE spinning in wait_until took
 * 41 us probing every 16th spin, 1.3 us testing (pml ob1 and MPICH: 1.3 us
 * either way).  One thread tests the request at a time (MPI forbids more);
 * the others probe.  Posted at the first poll, cancelled at finalize
 * (mpishmem_progress_finalize). */
enum { IDLE_RECV_UNPOSTED, IDLE_RECV_POSTED, IDLE_RECV_CLOSED };
#define IDLE_RECV_TAG 0
static MPI_Request idle_recv = MPI_REQUEST_NULL;
static int idle_recv_state;
static int idle_recv_busy; /* a thread is testing idle_recv */

static void poke_mpi_fully(void)
{
    if (__atomic_exchange_n(&idle_recv_busy, 1, __ATOMIC_ACQUIRE)) {
        poke_mpi();
        return;
    }
    if (idle_recv_state == IDLE_RECV_UNPOSTED) {
        MPISHMEM_MPI(MPI_Irecv(NULL, 0, MPI_BYTE, mpishmem_rt.my_pe, IDLE_RECV_TAG,
                               mpishmem_rt.exit_comm, &idle_recv));
        idle_recv_state = IDLE_RECV_POSTED;
    }
    if (idle_recv_state == IDLE_RECV_POSTED) {
        int done;
        MPISHMEM_MPI(MPI_Test(&idle_recv, &done, MPI_STATUS_IGNORE));
    } else {
        poke_mpi();
    }
    __atomic_store_n(&idle_recv_busy, 0, __ATOMIC_RELEASE);
}

void mpishmem_progress_finalize(void)
{
    if (idle_recv_state == IDLE_RECV_POSTED) {
        MPISHMEM_MPI(MPI_Cancel(&idle_recv));
        MPISHMEM_MPI(MPI_Wait(&idle_recv, MPI_STATUS_IGNORE));
    }
    idle_recv_state = IDLE_RECV_CLOSED;
}

/* The wait's start is per thread: a wait's first step (n == 1) sets it;
 * failed tests, whose count runs on, go by the thread's latest wait. */
void mpishmem_give_core_away(unsigned n)
{
    static __thread long long since;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long t = (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
    if (n == 1)
        since = t;
    if (t - since < YIELD_NS || n % NAP_EVERY != 0) {
        sched_yield();
    } else {
        struct timespec nap = {0, 1000};
        nanosleep(&nap, NULL);
    }
}

/* With a core of its own a PE never yields: here MPI RMA aimed at a PE
 * completes only while that PE is inside MPI, so a yielding target costs
 * its peer (a raw MPI_Put + flush: 310 ns against a spinning target,
 * 1600 ns against a yielding one; docs/performance-waiting.md). */
void mpishmem_progress_step(unsigned *spins)
{
    unsigned n = ++*spins;
    mpishmem_note_mpi_activity();
    if (MPISHMEM_UNLIKELY(mpishmem_serving()))
        mpishmem_serve(); /* other PEs' requests: device memory, AMOs */
    if (MPISHMEM_UNLIKELY(mpishmem_rt.yield)) {
        if (n % YIELD_STEPS_PER_MPI_POLL == 0)
            poke_mpi_fully();
        mpishmem_give_core_away(n);
        return;
    }
    if (n % SPINS_PER_MPI_POLL == 0)
        poke_mpi_fully();
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

void mpishmem_progress_test_failed(unsigned *spins)
{
    unsigned n = ++*spins;
    mpishmem_note_mpi_activity();
    if (MPISHMEM_UNLIKELY(mpishmem_serving()))
        mpishmem_serve(); /* a PE polling a test may be the target of a request */
    poke_mpi_fully();
    if (MPISHMEM_UNLIKELY(mpishmem_rt.yield))
        mpishmem_give_core_away(n);
}

void mpishmem_progress_poke(void)
{
    mpishmem_note_mpi_activity();
    if (MPISHMEM_UNLIKELY(mpishmem_serving()))
        mpishmem_serve();
    poke_mpi_fully();
}

void mpishmem_wait_request(MPI_Request *req)
{
    unsigned spins = 0;
    int done = 0;
    mpishmem_note_mpi_activity();
    MPISHMEM_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
    while (!done) {
        mpishmem_note_mpi_activity();
        if (MPISHMEM_UNLIKELY(mpishmem_serving()))
            mpishmem_serve();
        if (mpishmem_rt.yield)
            mpishmem_give_core_away(++spins);
        MPISHMEM_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
    }
}

/* With a core of its own, the loop is MPI_Test and nothing else (no pause,
 * no probe): a PE waiting here is often the target of a peer's RMA, served
 * only inside MPI, and time spent outside it delays that peer (two pretend
 * nodes, thread off, the peer's 8-byte get, g, p and fetching AMOs:
 * 0.92-0.96x the loop with mpishmem_progress_step's pause and probe, 16
 * paired rounds). */
void mpishmem_wait_message(MPI_Request *req)
{
    unsigned spins = 0;
    int done = 0;
    MPISHMEM_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
    while (!done) {
        if (MPISHMEM_UNLIKELY(mpishmem_rt.yield)) {
            mpishmem_progress_step(&spins);
        } else {
            mpishmem_note_mpi_activity();
            if (MPISHMEM_UNLIKELY(mpishmem_serving()))
                mpishmem_serve();
        }
        MPISHMEM_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
    }
}

void mpishmem_probe_mpi(void)
{
    poke_mpi();
}

/* An answer to this PE's own request (request_service.h).  With a core of
 * its own the PE tests the answer and serves others' requests only every
 * few tests (each serving pass tests two more requests); oversubscribed it
 * waits as mpishmem_wait_request does (serving at every step). */
#define TESTS_PER_SERVE 8u
void mpishmem_wait_answer(MPI_Request *answer)
{
    if (mpishmem_rt.yield) {
        mpishmem_wait_request(answer);
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
