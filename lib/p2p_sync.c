/*
 * mpishmem: point-to-point synchronization (wait_until, test and their set
 * and vector forms), generated from the type tables.
 *
 * A waiting PE reads the variable with acquire loads and, between reads,
 * keeps MPI progressing and yields the core when PEs outnumber cores
 * (mpishmem_progress_step), so RMA aimed at it is never stalled.  Variables
 * in device memory are never loaded by the CPU: each test reads them into
 * a host copy with the runtime's copy, and the same comparisons run there.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <shmem.h>
#include <stdlib.h>
#include <string.h>
#include "../mpi_backend/runtime/error.h"
#include "../mpi_backend/gpu/gpu_path.h"
#include "../mpi_backend/runtime/runtime.h"
#include "../mpi_backend/progress/progress.h"
#include "../mpi_backend/memory/segment.h"
#include "../spaces/heap/heap.h"

/* Fairness for the _any forms: start each scan at a different index. */
static __thread size_t any_rotor;
/* Test routines that failed on this thread (for yielding when PEs
 * outnumber cores). */
static __thread unsigned test_spins;

/* Under MPI's separate memory model, RMA writes reach our copy only after
 * a window sync.  Neither MPICH nor Open MPI uses it on our hosts. */
static void sync_separate(void)
{
    if (MPISHMEM_UNLIKELY(mpishmem_segments.any_separate))
        for (int i = 0; i < mpishmem_segments.count; i++)
            for (int k = 0; k < mpishmem_segment_n_lanes(mpishmem_segments.sorted[i]); k++)
                MPISHMEM_MPI(MPI_Win_sync(mpishmem_segments.sorted[i]->lanes[k].win));
}

/* One step of a wait. */
static void poll_once(unsigned *spins)
{
    sync_separate();
    mpishmem_progress_step(spins);
}

/* A test that returns "not yet": the program may sleep before it calls
 * again, so this call polls MPI (a test that entered MPI only every 16th
 * call never saw a put while the program slept 1 ms between calls). */
static void test_failed(void)
{
    sync_separate();
    mpishmem_progress_test_failed(&test_spins);
}

/* The variables of this thread's latest test that held. */
static __thread const void *held_ivars;

/* A test that holds.  A program may poll in either sense: until a flag
 * arrives (it loops while the test fails) or while nothing has arrived
 * (`while (shmem_int_test(&v, SHMEM_CMP_EQ, 0)) usleep(1000);`, looping
 * while the test holds), so the answer does not say whether it waits.
 * Where other PEs reach this one through MPI RMA (mpishmem_rt.rma_by_mpi),
 * their RMA completes only while this PE is inside MPI: the call polls MPI
 * whatever it returns.  A test that holds on the same variables as this
 * thread's previous one is such a loop: a full step of the test wait
 * (which gives the core away when PEs outnumber cores). */
static void test_held_slow(const void *ivars)
{
    if (ivars == held_ivars) {
        test_failed();
        return;
    }
    held_ivars = ivars;
    sync_separate();
    mpishmem_progress_poke();
}

static inline void test_held(const void *ivars)
{
    if (MPISHMEM_UNLIKELY(mpishmem_rt.rma_by_mpi) || ivars == held_ivars)
        test_held_slow(ivars);
    else
        held_ivars = ivars;
}

/* Every test routine ends here with its answer (ok: the condition holds;
 * for test_any and test_some, some index was found). */
static inline void tested(const void *ivars, int ok)
{
    if (ok) {
        test_held(ivars);
    } else {
        held_ivars = NULL;
        test_failed();
    }
}

static void __attribute__((noreturn, cold)) bad_cmp(const char *routine, int cmp)
{
    mpishmem_fatal(routine, "comparison operator %d is not one of SHMEM_CMP_EQ, _NE, _GT, "
                   "_GE, _LT, _LE", cmp);
}

/* ivars must be symmetric (a variable no other PE can update would be
 * waited on forever): checked once per call, always.  The default heap and
 * global data are a range compare each, inline; other segments (spaces,
 * device memory) take the segment lookup. */
static void __attribute__((noinline, cold))
not_symmetric(const char *routine, const void *ivars, size_t n)
{
    mpishmem_check_running(routine);
    /* The argument's name in the specification. */
    const char *r = mpishmem_api_name(routine);
    const char *arg = strstr(r, "signal") ? "sig_addr"
                      : strstr(r, "_all") || strstr(r, "_any") || strstr(r, "_some") ? "ivars"
                                                                                     : "ivar";
    mpishmem_fatal(routine, "%s %p (%zu element%s) is not symmetric: it is not inside the "
                   "symmetric heap, the program's global data or a memory space, so no other "
                   "PE can update it", arg, ivars, n, n == 1 ? "" : "s");
}

static void __attribute__((noinline)) enter_slow(const char *routine, const void *ivars,
                                                 size_t n, size_t elem)
{
    if (MPISHMEM_DEBUG_ON)
        mpishmem_check_running(routine);
    mpishmem_segment_t *s = mpishmem_segment_find(ivars);
    size_t bytes;
    if (n > 0 && (__builtin_mul_overflow(n, elem, &bytes) || s == NULL ||
                  !mpishmem_segment_holds_range(s, ivars, bytes)))
        not_symmetric(routine, ivars, n);
}

static inline int in_segment(const mpishmem_segment_t *s, const void *ivars, size_t n,
                             size_t elem)
{
    return n <= s->size / elem && mpishmem_segment_holds_range(s, ivars, n * elem);
}

/* Inlined always: with the element size folded in, the checks are a few
 * instructions (a call would cost more than they do). */
static inline __attribute__((always_inline)) void
enter(const char *routine, const void *ivars, size_t n, size_t elem, int cmp)
{
    if (MPISHMEM_UNLIKELY(cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE))
        bad_cmp(routine, cmp);
    if (MPISHMEM_DEBUG_ON)
        return enter_slow(routine, ivars, n, elem);
    const mpishmem_segment_t *h = mpishmem_segments.heap;
    if (MPISHMEM_LIKELY(h != NULL && in_segment(h, ivars, n, elem)))
        return;
    /* Global data next: flags in .bss are the other common case. */
    if (MPISHMEM_LIKELY(in_segment(&mpishmem_globals_segment, ivars, n, elem)))
        return;
    enter_slow(routine, ivars, n, elem);
}

#define INCLUDED(status, i) ((status) == NULL || (status)[i] == 0)

/* Device memory: the host copy each test reads (per thread, grown as
 * needed). */
static __thread void *snap;
static __thread size_t snap_size;

static void *snapshot(const char *routine, const void *ivars, size_t bytes)
{
    if (bytes > snap_size) {
        void *p = realloc(snap, bytes);
        if (p == NULL)
            mpishmem_fatal(routine, "out of memory for a %zu-byte copy of device memory", bytes);
        snap = p;
        snap_size = bytes;
    }
    mpishmem_gpu_copy(snap, ivars, bytes);
    return snap;
}

/* What a test reads: the variables themselves, or a fresh host copy of
 * them when they are device memory (dev, decided once per call). */
#define VIEW(fn, dev, ivars, n) ((dev) ? snapshot(fn, ivars, (n) * sizeof *(ivars)) : (void *)(ivars))
#define ON_DEVICE(ivars, n) mpishmem_gpu_is_device(ivars, (n) * sizeof *(ivars))

#define DEFINE_P2P_CORE(T, N, A)                                                             \
    static inline int cmp_##N(T x, int cmp, T v)                                           \
    {                                                                                      \
        switch (cmp) {                                                                     \
        case SHMEM_CMP_EQ: return x == v;                                                  \
        case SHMEM_CMP_NE: return x != v;                                                  \
        case SHMEM_CMP_GT: return x > v;                                                   \
        case SHMEM_CMP_GE: return x >= v;                                                  \
        case SHMEM_CMP_LT: return x < v;                                                   \
        default: return x <= v;                                                            \
        }                                                                                  \
    }                                                                                      \
    static inline int sat_##N(const T *ivar, int cmp, T v)                                 \
    {                                                                                      \
        return cmp_##N(__atomic_load_n(ivar, __ATOMIC_ACQUIRE), cmp, v);                   \
    }                                                                                      \
    /* vals == NULL: compare every element with v; else with vals[i]. */                   \
    static inline int sat_at_##N(T *ivars, size_t i, int cmp, const T *vals, T v)          \
    {                                                                                      \
        return sat_##N(&ivars[i], cmp, vals ? vals[i] : v);                                \
    }                                                                                      \
    static void wait_one_##N(const char *fn, T *ivar, int cmp, T v)                        \
    {                                                                                      \
        enter(fn, ivar, 1, sizeof(T), cmp);                                                \
        unsigned spins = 0;                                                                \
        int dev = ON_DEVICE(ivar, 1);                                                      \
        while (!sat_##N(VIEW(fn, dev, ivar, 1), cmp, v))                                   \
            poll_once(&spins);                                                             \
    }                                                                                      \
    static int test_one_##N(const char *fn, T *ivar, int cmp, T v)                         \
    {                                                                                      \
        enter(fn, ivar, 1, sizeof(T), cmp);                                                \
        int ok = sat_##N(VIEW(fn, ON_DEVICE(ivar, 1), ivar, 1), cmp, v);                   \
        tested(ivar, ok);                                                                  \
        return ok;                                                                         \
    }

#define DEFINE_P2P_SETS(T, N, A)                                                             \
    static int test_all_##N(T *ivars, size_t n, const int *st, int cmp, const T *vals, T v) \
    {                                                                                      \
        for (size_t i = 0; i < n; i++)                                                     \
            if (INCLUDED(st, i) && !sat_at_##N(ivars, i, cmp, vals, v))                    \
                return 0;                                                                  \
        return 1;                                                                          \
    }                                                                                      \
    static size_t test_any_##N(T *ivars, size_t n, const int *st, int cmp, const T *vals,  \
                               T v)                                                        \
    {                                                                                      \
        size_t start = n ? any_rotor++ % n : 0;                                            \
        for (size_t k = 0; k < n; k++) {                                                   \
            size_t i = (start + k) % n;                                                    \
            if (INCLUDED(st, i) && sat_at_##N(ivars, i, cmp, vals, v))                     \
                return i;                                                                  \
        }                                                                                  \
        return SIZE_MAX;                                                                   \
    }                                                                                      \
    static size_t test_some_##N(T *ivars, size_t n, size_t *idx, const int *st, int cmp,   \
                                const T *vals, T v)                                        \
    {                                                                                      \
        size_t found = 0;                                                                  \
        for (size_t i = 0; i < n; i++)                                                     \
            if (INCLUDED(st, i) && sat_at_##N(ivars, i, cmp, vals, v))                     \
                idx[found++] = i;                                                          \
        return found;                                                                      \
    }                                                                                      \
    static int empty_set_##N(size_t n, const int *st)                                      \
    {                                                                                      \
        for (size_t i = 0; i < n; i++)                                                     \
            if (INCLUDED(st, i))                                                           \
                return 0;                                                                  \
        return 1;                                                                          \
    }                                                                                      \
    static void wait_all_##N(const char *fn, T *ivars, size_t n, const int *st, int cmp,   \
                             const T *vals, T v)                                           \
    {                                                                                      \
        enter(fn, ivars, n, sizeof(T), cmp);                                               \
        unsigned spins = 0;                                                                \
        if (ON_DEVICE(ivars, n)) {                                                         \
            while (!test_all_##N(VIEW(fn, 1, ivars, n), n, st, cmp, vals, v))              \
                poll_once(&spins);                                                         \
            return;                                                                        \
        }                                                                                  \
        for (size_t i = 0; i < n; i++)                                                     \
            while (INCLUDED(st, i) && !sat_at_##N(ivars, i, cmp, vals, v))                 \
                poll_once(&spins);                                                         \
    }                                                                                      \
    static size_t wait_any_##N(const char *fn, T *ivars, size_t n, const int *st, int cmp, \
                               const T *vals, T v)                                         \
    {                                                                                      \
        enter(fn, ivars, n, sizeof(T), cmp);                                               \
        if (empty_set_##N(n, st))                                                          \
            return SIZE_MAX;                                                               \
        unsigned spins = 0;                                                                \
        int dev = ON_DEVICE(ivars, n);                                                     \
        size_t i;                                                                          \
        while ((i = test_any_##N(VIEW(fn, dev, ivars, n), n, st, cmp, vals, v)) == SIZE_MAX) \
            poll_once(&spins);                                                             \
        return i;                                                                          \
    }                                                                                      \
    static size_t wait_some_##N(const char *fn, T *ivars, size_t n, size_t *idx,           \
                                const int *st, int cmp, const T *vals, T v)                \
    {                                                                                      \
        enter(fn, ivars, n, sizeof(T), cmp);                                               \
        if (empty_set_##N(n, st))                                                          \
            return 0;                                                                      \
        unsigned spins = 0;                                                                \
        int dev = ON_DEVICE(ivars, n);                                                     \
        size_t found;                                                                      \
        while ((found = test_some_##N(VIEW(fn, dev, ivars, n), n, idx, st, cmp, vals, v)) == 0) \
            poll_once(&spins);                                                             \
        return found;                                                                      \
    }

#define CHECKED_SET(fn, ivars, n, cmp) enter(fn, ivars, n, sizeof *(ivars), cmp)

#define DEFINE_P2P_API(T, N, A)                                                              \
    DEFINE_P2P_CORE(T, N, A)                                                               \
    DEFINE_P2P_SETS(T, N, A)                                                               \
    void shmem_##N##_wait_until(T *ivar, int cmp, T v)                                     \
    { wait_one_##N(__func__, ivar, cmp, v); }                                              \
    int shmem_##N##_test(T *ivar, int cmp, T v)                                            \
    { return test_one_##N(__func__, ivar, cmp, v); }                                       \
    void shmem_##N##_wait_until_all(T *ivars, size_t n, const int *st, int cmp, T v)       \
    { wait_all_##N(__func__, ivars, n, st, cmp, NULL, v); }                                \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t n, const int *st, int cmp, T v)     \
    { return wait_any_##N(__func__, ivars, n, st, cmp, NULL, v); }                         \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t n, size_t *idx, const int *st,     \
                                       int cmp, T v)                                       \
    { return wait_some_##N(__func__, ivars, n, idx, st, cmp, NULL, v); }                   \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t n, const int *st, int cmp,     \
                                           T *vals)                                        \
    { wait_all_##N(__func__, ivars, n, st, cmp, vals, 0); }                                \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t n, const int *st, int cmp,   \
                                             T *vals)                                      \
    { return wait_any_##N(__func__, ivars, n, st, cmp, vals, 0); }                         \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t n, size_t *idx,             \
                                              const int *st, int cmp, T *vals)             \
    { return wait_some_##N(__func__, ivars, n, idx, st, cmp, vals, 0); }                   \
    int shmem_##N##_test_all(T *ivars, size_t n, const int *st, int cmp, T v)              \
    {                                                                                      \
        CHECKED_SET(__func__, ivars, n, cmp);                                              \
        int ok = test_all_##N(VIEW(__func__, ON_DEVICE(ivars, n), ivars, n), n, st, cmp, NULL, v); \
        tested(ivars, ok);                                                                 \
        return ok;                                                                         \
    }                                                                                      \
    size_t shmem_##N##_test_any(T *ivars, size_t n, const int *st, int cmp, T v)           \
    {                                                                                      \
        CHECKED_SET(__func__, ivars, n, cmp);                                              \
        size_t i = test_any_##N(VIEW(__func__, ON_DEVICE(ivars, n), ivars, n), n, st, cmp, NULL, v); \
        tested(ivars, i != SIZE_MAX);                                                      \
        return i;                                                                          \
    }                                                                                      \
    size_t shmem_##N##_test_some(T *ivars, size_t n, size_t *idx, const int *st, int cmp,  \
                                 T v)                                                      \
    {                                                                                      \
        CHECKED_SET(__func__, ivars, n, cmp);                                              \
        size_t c = test_some_##N(VIEW(__func__, ON_DEVICE(ivars, n), ivars, n), n, idx, st, cmp, NULL, v); \
        tested(ivars, c != 0);                                                             \
        return c;                                                                          \
    }                                                                                      \
    int shmem_##N##_test_all_vector(T *ivars, size_t n, const int *st, int cmp, T *vals)   \
    {                                                                                      \
        CHECKED_SET(__func__, ivars, n, cmp);                                              \
        int ok = test_all_##N(VIEW(__func__, ON_DEVICE(ivars, n), ivars, n), n, st, cmp, vals, 0); \
        tested(ivars, ok);                                                                 \
        return ok;                                                                         \
    }                                                                                      \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t n, const int *st, int cmp,         \
                                       T *vals)                                            \
    {                                                                                      \
        CHECKED_SET(__func__, ivars, n, cmp);                                              \
        size_t i = test_any_##N(VIEW(__func__, ON_DEVICE(ivars, n), ivars, n), n, st, cmp, vals, 0); \
        tested(ivars, i != SIZE_MAX);                                                      \
        return i;                                                                          \
    }                                                                                      \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t n, size_t *idx, const int *st,    \
                                        int cmp, T *vals)                                  \
    {                                                                                      \
        CHECKED_SET(__func__, ivars, n, cmp);                                              \
        size_t c = test_some_##N(VIEW(__func__, ON_DEVICE(ivars, n), ivars, n), n, idx, st, cmp, vals, 0); \
        tested(ivars, c != 0);                                                             \
        return c;                                                                          \
    }
MPISHMEM_P2P_TYPES(DEFINE_P2P_API, _)

/* Deprecated short and unsigned short: wait_until and test only. */
#define DEFINE_P2P_LEGACY(T, N, A)                                                           \
    DEFINE_P2P_CORE(T, N, A)                                                               \
    void shmem_##N##_wait_until(T *ivar, int cmp, T v)                                     \
    { wait_one_##N(__func__, ivar, cmp, v); }                                              \
    int shmem_##N##_test(T *ivar, int cmp, T v)                                            \
    { return test_one_##N(__func__, ivar, cmp, v); }
MPISHMEM_P2P_LEGACY_TYPES(DEFINE_P2P_LEGACY, _)

/* Deprecated shmem_TYPENAME_wait: wait while *ivar == value. */
#define DEFINE_WAIT_LEGACY(T, N, A)                                                          \
    void shmem_##N##_wait(T *ivar, T v) { wait_one_##N(__func__, ivar, SHMEM_CMP_NE, v); }
MPISHMEM_WAIT_LEGACY_TYPES(DEFINE_WAIT_LEGACY, _)

void(shmem_wait)(long *ivar, long v)
{
    wait_one_long("shmem_wait", ivar, SHMEM_CMP_NE, v);
}

void(shmem_wait_until)(long *ivar, int cmp, long v)
{
    wait_one_long("shmem_wait_until", ivar, cmp, v);
}

uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t v)
{
    enter("shmem_signal_wait_until", sig_addr, 1, sizeof *sig_addr, cmp);
    unsigned spins = 0;
    int dev = ON_DEVICE(sig_addr, 1);
    for (;;) {
        /* Return exactly the value that satisfied the condition. */
        uint64_t x = __atomic_load_n((uint64_t *)VIEW("shmem_signal_wait_until", dev, sig_addr, 1),
                                     __ATOMIC_ACQUIRE);
        if (cmp_uint64(x, cmp, v))
            return x;
        poll_once(&spins);
    }
}
