/*
 * mpishmem: the waiting rule: how every wait of the library polls (spin,
 * yield, nap, sleep on a node-shared word, serve requests, poll MPI).  One
 * step function (mpishmem_wait_step) carries the whole rule; what differs
 * between kinds of wait is a row of parameters in one table (rules,
 * below).  Its constants are here, each with the measurement that chose
 * it; the other files only call the waits of progress.h.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "progress.h"
#include "runtime.h"
#include "error.h"
#include "route_plan.h"

/* Polling MPI costs more than reading memory: a word wait with a core of
 * its own polls it every few spins. */
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

/* Oversubscribed, a wait on a word of node-shared memory that another PE
 * of the node changes (the node barrier's flags) sleeps in the kernel on
 * the word (a futex), for at most SLEEP_NS at a time, and the PE that
 * changes the word wakes it (mpishmem_wake), where a yield hands the core
 * to nobody.  sched_yield hands the core only to tasks of the yielder's
 * scheduling group (its CPU cgroup, else its session's autogroup):
 * Open MPI's launcher starts all PEs in one session, MPICH's Hydra each in
 * a session of its own, and then a yield returns at once and the PE spins
 * through its share of the core while the PE it waits for waits for it.
 * Two processes on one core yielding to each other, in one session: 1.7
 * us per hand-over; in two: a yield returns in 0.25 us (p99 0.46), the
 * core stays, and a hand-over took 33 us; by futex, 2.3-3.9 us.  A
 * sleeper leaves its core until the very store it waits for; the timeout
 * bounds how long RMA aimed at it waits for its next poll of MPI.  So
 * where PEs of the node are in other groups (plan: sched_apart), the
 * first VOID_YIELDS steps of a wait yield and time their yields; a yield
 * back within VOID_YIELD_NS gave the core to nobody, and when all of them
 * did, the wait's later steps sleep.  One void yield is no proof: it also
 * comes back at once when the PE sharing the core is itself asleep, so
 * judging by the first yield alone made every wait sleep once one did.
 * 4 PEs on 2 cores, MPICH (a session per PE), barrier and sum_to_all +
 * barrier: 17-25 and 30-34 us judging by 1 yield, 2.7-3.7 and 3.6-4.3 by
 * 4, 2.3-2.6 and 3.6-4.8 by 32; beside two busy processes 41, 43, 45 and
 * 60 us for 1, 4, 8 and 32 (there a yield never hands the core over).
 * Numbers: docs/performance-waiting.md. */
#define SLEEP_NS 100000
#define VOID_YIELD_NS 1000
#define VOID_YIELDS 4u
long mpishmem_wait_sleep_ns = SLEEP_NS; /* a test lengthens it (progress.h) */
unsigned long mpishmem_wait_sleeps[2];

/* Oversubscribed, a yielding step polls MPI only every few steps on Open
 * MPI: its poll runs opal_progress, which itself yields when
 * oversubscribed, so polling each step doubled every wait (barrier_all at
 * 4 PEs on 2 cores: 3.6 us polling each step, 1.5-1.6 us every 4th).
 * MPICH serves RMA aimed at this PE only while it polls
 * (mpishmem_plan.rma_needs_target), so it polls on every step. */
#define YIELD_STEPS_PER_MPI_POLL (mpishmem_plan.rma_needs_target ? 1u : 4u)
_Static_assert((SPINS_PER_MPI_POLL & (SPINS_PER_MPI_POLL - 1)) == 0, "a power of two");

unsigned long mpishmem_mpi_activity;
int mpishmem_mpi_blocked;

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

void mpishmem_probe_mpi(void)
{
    poke_mpi();
}

/* An answer to this PE's own request (request_service.h), with a core of
 * its own: the PE tests the answer and serves others' requests only every
 * few tests (each serving pass tests two more requests); it serves even
 * when no kind is on, as two PEs may wait for each other's answers. */
#define TESTS_PER_SERVE 8u
_Static_assert((TESTS_PER_SERVE & (TESTS_PER_SERVE - 1)) == 0, "a power of two");

/* The rule, per kind of wait (progress.h), with a core per PE ([0]) and
 * oversubscribed ([1]).  In that order, a step notes MPI activity (always),
 * serves requests every serve_every steps (when some kind is on, or
 * always), runs MPI's whole engine every poll_every steps (0: never, the
 * wait's own MPI_Test polls), then pauses (pause) or gives the core away
 * (give: yield, nap, or sleep on a word; oversubscribed only).
 *  - WORD with a core: the pause and a poll every SPINS_PER_MPI_POLL.
 *  - REQUEST, MESSAGE, ANSWER with a core: MPI_Test and nothing else (no
 *    pause, no probe): a PE waiting there is often the target of a peer's
 *    RMA, served only inside MPI, and time spent outside it delays that
 *    peer (two pretend nodes, thread off, the peer's 8-byte get, g, p and
 *    fetching AMOs: 0.92-0.96x the loop with the WORD step's pause and
 *    probe, 16 paired rounds).
 *  - oversubscribed, WORD and MESSAGE poll every YIELD_STEPS_PER_MPI_POLL
 *    (a run-time value: POLL_YIELD below), REQUEST and ANSWER only by
 *    their own MPI_Test.
 *  - TEST and POKE poll on every call (the program may sleep or compute
 *    before its next one); POKE never gives the core away. */
struct wait_rule {
    unsigned char serve_every, serve_always, poll_every, pause, give;
};
#define POLL_YIELD 255 /* poll_every: YIELD_STEPS_PER_MPI_POLL */
static const struct wait_rule rules[MPISHMEM_WAIT_KINDS][2] = {
    [MPISHMEM_WAIT_WORD] = {{1, 0, SPINS_PER_MPI_POLL, 1, 0}, {1, 0, POLL_YIELD, 0, 1}},
    [MPISHMEM_WAIT_TEST] = {{1, 0, 1, 0, 0}, {1, 0, 1, 0, 1}},
    [MPISHMEM_WAIT_POKE] = {{1, 0, 1, 0, 0}, {1, 0, 1, 0, 0}},
    [MPISHMEM_WAIT_REQUEST] = {{1, 0, 0, 0, 0}, {1, 0, 0, 0, 1}},
    [MPISHMEM_WAIT_MESSAGE] = {{1, 0, 0, 0, 0}, {1, 0, POLL_YIELD, 0, 1}},
    [MPISHMEM_WAIT_ANSWER] = {{TESTS_PER_SERVE, 1, 0, 0, 0}, {1, 0, 0, 0, 1}},
};

static long long now_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* Sleeps until the word changes from on->seen, a PE wakes it, or
 * SLEEP_NS pass.  The count goes up before the last look at the word (a
 * locked add: a full fence), and the waker fences between its store and
 * its look at the count (mpishmem_wake), so either the waker sees a
 * sleeper or the sleeper sees the new value; FUTEX_WAIT itself compares
 * the word with seen inside the kernel.  Shared futexes, not private: the
 * word lies in memory each PE maps at its own address. */
static void sleep_on(const mpishmem_wake_word_t *on)
{
    __atomic_add_fetch(on->sleepers, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(on->word, __ATOMIC_SEQ_CST) == on->seen) {
        long ns = mpishmem_wait_sleep_ns;
        struct timespec t = {ns / 1000000000L, ns % 1000000000L};
        if (syscall(SYS_futex, on->word, FUTEX_WAIT, on->seen, &t, NULL, 0) != 0 &&
            errno == ETIMEDOUT)
            mpishmem_wait_sleeps[1]++;
        else
            mpishmem_wait_sleeps[0]++;
    }
    __atomic_sub_fetch(on->sleepers, 1, __ATOMIC_RELEASE);
}

void mpishmem_wake_sleepers(uint32_t *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

int mpishmem_wait_force_sleep; /* a test sets 1 (progress.h) */

/* The n-th step of an oversubscribed wait gives the core away.  The
 * wait's start is per thread: a wait's first step (n == 1) sets it;
 * failed tests, whose count runs on, go by the thread's latest wait. */
static void give_core_away(unsigned n, const mpishmem_wake_word_t *on)
{
    static __thread long long since;
    static __thread unsigned void_yields; /* of the wait's first VOID_YIELDS */
    long long t = now_ns();
    if (n == 1) {
        since = t;
        void_yields = 0;
    }
    if (on != NULL &&
        (mpishmem_wait_force_sleep || (n > VOID_YIELDS && void_yields == VOID_YIELDS))) {
        sleep_on(on);
    } else if (t - since < YIELD_NS || n % NAP_EVERY != 0) {
        sched_yield();
        if (n <= VOID_YIELDS && mpishmem_plan.sched_apart)
            void_yields += now_ns() - t < VOID_YIELD_NS;
    } else {
        struct timespec nap = {0, 1000};
        nanosleep(&nap, NULL);
    }
}

/* With a core of its own a PE never yields: here MPI RMA aimed at a PE
 * completes only while that PE is inside MPI, so a yielding target costs
 * its peer (a raw MPI_Put + flush: 310 ns against a spinning target,
 * 1600 ns against a yielding one; docs/performance-waiting.md). */
void mpishmem_wait_step(unsigned *spins, enum mpishmem_wait_kind kind,
                        const mpishmem_wake_word_t *on)
{
    unsigned n = ++*spins;
    int yield = mpishmem_rt.yield != 0;
    const struct wait_rule *r = &rules[kind][yield];
    mpishmem_note_mpi_activity();
    /* Every count is a power of two: a mask, not a division, per step. */
    unsigned poll = r->poll_every == POLL_YIELD ? YIELD_STEPS_PER_MPI_POLL : r->poll_every;
    int poll_now = poll != 0 && (n & (poll - 1u)) == 0;
    if (MPISHMEM_UNLIKELY(mpishmem_serving() | r->serve_always) &&
        (n & (r->serve_every - 1u)) == 0) {
        /* A poll before serving takes in requests that reached the
         * socket, so they are answered in this step, not the next one: a
         * PE computing 100 us between tests answered a peer's fetching AMO
         * in 215 us on Open MPI 5.0.7 between nodes, 111 us so. */
        if (poll_now)
            poke_mpi_fully();
        mpishmem_serve(); /* other PEs' requests: device memory, AMOs */
    }
    if (poll_now)
        poke_mpi_fully();
    if (MPISHMEM_UNLIKELY(yield)) {
        if (r->give)
            give_core_away(n, on);
        return;
    }
#if defined(__x86_64__) || defined(__i386__)
    if (r->pause)
        __builtin_ia32_pause();
#endif
}

void mpishmem_wait_for(MPI_Request *req, enum mpishmem_wait_kind kind)
{
    unsigned spins = 0;
    int done = 0;
    mpishmem_note_mpi_activity();
    MPISHMEM_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
    while (!done) {
        mpishmem_wait_step(&spins, kind, NULL);
        MPISHMEM_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
    }
}
