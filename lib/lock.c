/*
 * mpishmem: distributed locks (shmem_set_lock / clear_lock / test_lock).
 *
 * An MCS queue lock built on our 64-bit AMOs, so it is fair (FIFO) and a
 * waiting PE spins only on its own memory: no network traffic while waiting.
 * The symmetric `long` lock word holds, on every PE, that PE's queue node,
 * and on PE 0 also the queue tail:
 *   bits 32..63  tail: (PE + 1) of the last PE in the queue, 0 = free (PE 0 only)
 *   bits  1..31  next: (PE + 1) of the PE queued behind this one, 0 = none
 *   bit   0      wait: set while this PE waits for its predecessor
 * The user zero-initializes the lock word, as the spec requires.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include "../mpi_backend/data_path/amo_path.h"
#include "../mpi_backend/progress/progress.h"
#include "trace.h"

#define HOME_PE 0
#define TAIL_SHIFT 32
#define LOW_MASK 0xffffffffull
#define NEXT_MASK 0xfffffffeull
#define WAIT_BIT 1ull

static uint64_t amo(const char *fn, int op, long *lock, uint64_t v, uint64_t cond, int pe)
{
    uint64_t old;
    mpishmem_amo(fn, SHMEM_CTX_DEFAULT, op, lock, sizeof old, &v, &cond, &old, pe, 1);
    if (MPISHMEM_TRACE_ON) /* a lock's traffic is its AMOs */
        mpishmem_trace_op(fn, SHMEM_CTX_DEFAULT, pe, MPISHMEM_TRACE_AMO, sizeof old);
    return old;
}

/* Make this PE's node "waiting, no successor" before it becomes visible in
 * the queue.  Lock words see only compare-and-swap, fetch and add, the
 * atomics MPIs implement natively; bitwise accumulates may take a slower
 * target-side path. */
static void reset_node(const char *fn, long *lock, int me)
{
    uint64_t old = amo(fn, MPISHMEM_AMO_FETCH, lock, 0, 0, me);
    for (;;) {
        uint64_t want = (old & ~LOW_MASK) | WAIT_BIT;
        uint64_t got = amo(fn, MPISHMEM_AMO_CSWAP, lock, want, old, me);
        if (got == old)
            return;
        old = got;
    }
}

/* Replace the tail with `me1` if the current tail satisfies want_free
 * (only when free) or unconditionally; returns the previous tail. */
static uint64_t swap_tail(const char *fn, long *lock, uint64_t me1, int only_if_free)
{
    uint64_t old = amo(fn, MPISHMEM_AMO_FETCH, lock, 0, 0, HOME_PE);
    for (;;) {
        if (only_if_free && (old >> TAIL_SHIFT) != 0)
            return old >> TAIL_SHIFT;
        uint64_t want = (me1 << TAIL_SHIFT) | (old & LOW_MASK);
        uint64_t got = amo(fn, MPISHMEM_AMO_CSWAP, lock, want, old, HOME_PE);
        if (got == old)
            return old >> TAIL_SHIFT;
        old = got;
    }
}

/* Spin on our own word until (word & mask) == 0 (wait) or != 0 (next).
 * A lock in device memory is read with the runtime's copies; the AMOs
 * that change it are applied by this PE itself (mpi_backend/gpu/gpu_path.h). */
static uint64_t wait_local(long *lock, uint64_t mask, int until_set)
{
    unsigned spins = 0;
    int device = mpishmem_gpu_is_device(lock, sizeof *lock);
    for (;;) {
        uint64_t w;
        if (MPISHMEM_UNLIKELY(device))
            mpishmem_gpu_copy(&w, lock, sizeof w);
        else
            w = (uint64_t)__atomic_load_n(lock, __ATOMIC_ACQUIRE);
        if (((w & mask) != 0) == until_set)
            return w;
        mpishmem_progress_step(&spins);
    }
}

static void check_lock(const char *fn, long *lock)
{
    mpishmem_check_running(fn);
    if (MPISHMEM_DEBUG_ON && mpishmem_segment_find(lock) == NULL)
        mpishmem_fatal(fn, "lock %p is not a symmetric variable", (void *)lock);
}

void shmem_set_lock(long *lock)
{
    check_lock("shmem_set_lock", lock);
    int me = mpishmem_rt.my_pe;
    reset_node("shmem_set_lock", lock, me);
    uint64_t pred1 = swap_tail("shmem_set_lock", lock, (uint64_t)me + 1, 0);
    if (pred1 != 0) {
        /* The predecessor's next field is 0 until we fill it: add == or. */
        amo("shmem_set_lock", MPISHMEM_AMO_ADD, lock, ((uint64_t)me + 1) << 1, 0,
            (int)pred1 - 1);
        wait_local(lock, WAIT_BIT, 0);
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* critical section starts after this */
}

/* Failed test_lock calls of this thread: a program polls test_lock in a
 * loop, and on the CPU-atomic path nothing else would enter MPI, starving
 * PEs whose RMA needs this PE to progress (a lock holder's get, say). */
static __thread unsigned test_spins;

int shmem_test_lock(long *lock)
{
    check_lock("shmem_test_lock", lock);
    int me = mpishmem_rt.my_pe;
    reset_node("shmem_test_lock", lock, me);
    if (swap_tail("shmem_test_lock", lock, (uint64_t)me + 1, 1) != 0) {
        mpishmem_progress_test_failed(&test_spins);
        return 1; /* held by someone else */
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return 0;
}

void shmem_clear_lock(long *lock)
{
    check_lock("shmem_clear_lock", lock);
    int me = mpishmem_rt.my_pe;
    uint64_t me1 = (uint64_t)me + 1;
    /* Writes made under the lock must be complete before the next owner runs. */
    shmem_quiet();
    uint64_t mine = amo("shmem_clear_lock", MPISHMEM_AMO_FETCH, lock, 0, 0, me);
    uint64_t next1 = (mine & NEXT_MASK) >> 1;
    if (next1 == 0) {
        /* No successor known: try to mark the lock free. */
        uint64_t old = amo("shmem_clear_lock", MPISHMEM_AMO_FETCH, lock, 0, 0, HOME_PE);
        while ((old >> TAIL_SHIFT) == me1) {
            uint64_t got = amo("shmem_clear_lock", MPISHMEM_AMO_CSWAP, lock, old & LOW_MASK,
                               old, HOME_PE);
            if (got == old)
                return;
            old = got;
        }
        /* A PE is enqueueing behind us: wait until it names itself. */
        next1 = (wait_local(lock, NEXT_MASK, 1) & NEXT_MASK) >> 1;
    }
    /* The successor's wait bit is set until we clear it: subtract it. */
    amo("shmem_clear_lock", MPISHMEM_AMO_ADD, lock, (uint64_t)0 - WAIT_BIT, 0, (int)next1 - 1);
}
