/*
 * mpishmem: every atomic memory operation, generated from the AMO type
 * tables.  Each is a shell around mpishmem_amo (mpi_backend/data_path/amo_path.h),
 * which picks CPU or MPI atomics for the target's segment.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include "../mpi_backend/data_path/amo_path.h"
#include "../mpi_backend/progress/progress.h"
#include "trace.h"

/* A program that waits for a value by calling a fetch in a loop (bale's
 * exstack2 polls its own counters so) is in a wait the library cannot
 * see: on the CPU-atomic path the fetch never enters MPI and never gives
 * the core away, so when PEs outnumber cores it spins while the PE that
 * would change the value waits for the core.  A blocking fetch that
 * returns what this thread's previous fetch of the same word on the same
 * PE returned is such a poll, and takes a step of the waiting rule (a
 * word's: poll MPI, pause or give the core away); a new value costs a
 * compare.  4 PEs on 2 cores, Open MPI, bench/poll_own:
 * docs/performance-waiting.md. */
static __thread struct {
    const void *word;
    int pe;
    uint64_t value;
    unsigned steps;
} last_fetch;

static inline void fetched(const void *word, int pe, const void *old, size_t size)
{
    uint64_t v = 0;
    memcpy(&v, old, size);
    if (MPISHMEM_UNLIKELY(word == last_fetch.word && pe == last_fetch.pe &&
                          v == last_fetch.value)) {
        mpishmem_progress_step(&last_fetch.steps);
        return;
    }
    last_fetch.word = word;
    last_fetch.pe = pe;
    last_fetch.value = v;
    last_fetch.steps = 0;
}

/* op on *dest with operands value/cond; result pointer r or NULL. */
#define AMO(ctx, op, dest, T, v, c, r, blocking)                                             \
    do {                                                                                   \
        if (MPISHMEM_TRACE_ON)                                                             \
            amo_traced(__func__, ctx, MPISHMEM_AMO_##op, (void *)(dest), sizeof(T), v, c,  \
                       r, pe, blocking);                                                   \
        else                                                                               \
            mpishmem_amo(__func__, ctx, MPISHMEM_AMO_##op, (void *)(dest), sizeof(T), v,   \
                         c, r, pe, blocking);                                              \
    } while (0)

/* Tracing (MPISHMEM_TRACE): a separate, cold copy that counts first, so the
 * fast path gains one predictable branch and keeps its tail call. */
static __attribute__((noinline, cold)) void amo_traced(const char *routine, shmem_ctx_t ctx,
                                                       int op, void *dest, size_t size,
                                                       const void *v, const void *c, void *r,
                                                       int pe, int blocking)
{
    mpishmem_trace_op(routine, ctx, pe, MPISHMEM_TRACE_AMO, size);
    mpishmem_amo(routine, ctx, op, dest, size, v, c, r, pe, blocking);
}

/* Each routine body exists once and is instantiated for the default
 * context and for shmem_ctx_ (the body reads `ctx`). */
#define PAIR(RET, N, OP, PARAMS, ...)                                                     \
    RET shmem_##N##_atomic_##OP PARAMS                                                     \
    {                                                                                      \
        const shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;                                         \
        __VA_ARGS__                                                                        \
    }                                                                                      \
    RET shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, MPISHMEM_UNPAREN PARAMS) { __VA_ARGS__ }
#define MPISHMEM_UNPAREN(...) __VA_ARGS__

#define DEFINE_AMO_EXT(T, N, A)                                                              \
    PAIR(T, N, fetch, (const T *source, int pe),                                           \
         T old; AMO(ctx, FETCH, source, T, NULL, NULL, &old, 1);                           \
         fetched(source, pe, &old, sizeof old); return old;)                               \
    PAIR(void, N, set, (T *dest, T value, int pe),                                         \
         AMO(ctx, SET, dest, T, &value, NULL, NULL, 1);)                                   \
    PAIR(T, N, swap, (T *dest, T value, int pe),                                           \
         T old; AMO(ctx, SWAP, dest, T, &value, NULL, &old, 1); return old;)               \
    PAIR(void, N, fetch_nbi, (T *fetch, const T *source, int pe),                          \
         AMO(ctx, FETCH, source, T, NULL, NULL, fetch, 0);)                                \
    PAIR(void, N, swap_nbi, (T *fetch, T *dest, T value, int pe),                          \
         AMO(ctx, SWAP, dest, T, &value, NULL, fetch, 0);)
MPISHMEM_AMO_EXT_TYPES(DEFINE_AMO_EXT, _)

#define DEFINE_AMO_STD(T, N, A)                                                              \
    PAIR(T, N, compare_swap, (T *dest, T cond, T value, int pe),                           \
         T old; AMO(ctx, CSWAP, dest, T, &value, &cond, &old, 1); return old;)             \
    PAIR(T, N, fetch_inc, (T *dest, int pe),                                               \
         T one = 1, old; AMO(ctx, ADD, dest, T, &one, NULL, &old, 1); return old;)         \
    PAIR(void, N, inc, (T *dest, int pe),                                                  \
         T one = 1; AMO(ctx, ADD, dest, T, &one, NULL, NULL, 1);)                          \
    PAIR(T, N, fetch_add, (T *dest, T value, int pe),                                      \
         T old; AMO(ctx, ADD, dest, T, &value, NULL, &old, 1); return old;)                \
    PAIR(void, N, add, (T *dest, T value, int pe),                                         \
         AMO(ctx, ADD, dest, T, &value, NULL, NULL, 1);)                                   \
    PAIR(void, N, compare_swap_nbi, (T *fetch, T *dest, T cond, T value, int pe),          \
         AMO(ctx, CSWAP, dest, T, &value, &cond, fetch, 0);)                               \
    PAIR(void, N, fetch_inc_nbi, (T *fetch, T *dest, int pe),                              \
         T one = 1; AMO(ctx, ADD, dest, T, &one, NULL, fetch, 0);)                         \
    PAIR(void, N, fetch_add_nbi, (T *fetch, T *dest, T value, int pe),                     \
         AMO(ctx, ADD, dest, T, &value, NULL, fetch, 0);)
MPISHMEM_AMO_STD_TYPES(DEFINE_AMO_STD, _)

#define DEFINE_AMO_BIT_OP(T, N, OP, CODE)                                                    \
    PAIR(T, N, fetch_##OP, (T *dest, T value, int pe),                                     \
         T old; AMO(ctx, CODE, dest, T, &value, NULL, &old, 1); return old;)               \
    PAIR(void, N, OP, (T *dest, T value, int pe),                                          \
         AMO(ctx, CODE, dest, T, &value, NULL, NULL, 1);)                                  \
    PAIR(void, N, fetch_##OP##_nbi, (T *fetch, T *dest, T value, int pe),                  \
         AMO(ctx, CODE, dest, T, &value, NULL, fetch, 0);)
#define DEFINE_AMO_BIT(T, N, A)                                                              \
    DEFINE_AMO_BIT_OP(T, N, and, AND)                                                      \
    DEFINE_AMO_BIT_OP(T, N, or, OR)                                                        \
    DEFINE_AMO_BIT_OP(T, N, xor, XOR)
MPISHMEM_AMO_BIT_TYPES(DEFINE_AMO_BIT, _)

/* Deprecated names: same operations under their OpenSHMEM 1.0 names. */
#define DEFINE_AMO_LEGACY(T, N, A)                                                           \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe)                                  \
    { T old; AMO(SHMEM_CTX_DEFAULT, CSWAP, dest, T, &value, &cond, &old, 1); return old; } \
    T shmem_##N##_fadd(T *dest, T value, int pe)                                           \
    { T old; AMO(SHMEM_CTX_DEFAULT, ADD, dest, T, &value, NULL, &old, 1); return old; }    \
    T shmem_##N##_finc(T *dest, int pe)                                                    \
    { T one = 1, old; AMO(SHMEM_CTX_DEFAULT, ADD, dest, T, &one, NULL, &old, 1); return old; } \
    void shmem_##N##_add(T *dest, T value, int pe)                                         \
    { AMO(SHMEM_CTX_DEFAULT, ADD, dest, T, &value, NULL, NULL, 1); }                       \
    void shmem_##N##_inc(T *dest, int pe)                                                  \
    { T one = 1; AMO(SHMEM_CTX_DEFAULT, ADD, dest, T, &one, NULL, NULL, 1); }
MPISHMEM_AMO_LEGACY_TYPES(DEFINE_AMO_LEGACY, _)

#define DEFINE_AMO_LEGACY_EXT(T, N, A)                                                       \
    T shmem_##N##_fetch(const T *source, int pe)                                           \
    {                                                                                      \
        T old;                                                                             \
        AMO(SHMEM_CTX_DEFAULT, FETCH, source, T, NULL, NULL, &old, 1);                     \
        fetched(source, pe, &old, sizeof old);                                             \
        return old;                                                                        \
    }                                                                                      \
    void shmem_##N##_set(T *dest, T value, int pe)                                         \
    { AMO(SHMEM_CTX_DEFAULT, SET, dest, T, &value, NULL, NULL, 1); }                       \
    T shmem_##N##_swap(T *dest, T value, int pe)                                           \
    { T old; AMO(SHMEM_CTX_DEFAULT, SWAP, dest, T, &value, NULL, &old, 1); return old; }
MPISHMEM_AMO_LEGACY_EXT_TYPES(DEFINE_AMO_LEGACY_EXT, _)

long(shmem_swap)(long *dest, long value, int pe)
{
    long old;
    AMO(SHMEM_CTX_DEFAULT, SWAP, dest, long, &value, NULL, &old, 1);
    return old;
}
