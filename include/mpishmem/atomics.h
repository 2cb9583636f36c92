/*
 * mpishmem: declarations of the atomic memory operations, signals and
 * locks, generated from the AMO type tables.  Included by <shmem.h>.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_ATOMICS_H
#define MPISHMEM_ATOMICS_H

/* A routine in plain and shmem_ctx_ form. */
#define MPISHMEM_DECLARE_AMO_BOTH(RET, N, OP, ...)                                           \
    RET shmem_##N##_atomic_##OP(__VA_ARGS__);                                               \
    RET shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, __VA_ARGS__);

/* fetch, set, swap (+ fetch_nbi, swap_nbi): extended types. */
#define MPISHMEM_DECLARE_AMO_EXT(T, N, A)                                                    \
    MPISHMEM_DECLARE_AMO_BOTH(T, N, fetch, const T *source, int pe)                         \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, set, T *dest, T value, int pe)                       \
    MPISHMEM_DECLARE_AMO_BOTH(T, N, swap, T *dest, T value, int pe)                         \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, fetch_nbi, T *fetch, const T *source, int pe)        \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, swap_nbi, T *fetch, T *dest, T value, int pe)
MPISHMEM_AMO_EXT_TYPES(MPISHMEM_DECLARE_AMO_EXT, _)

/* compare_swap, fetch_inc, inc, fetch_add, add (+ nbi fetching forms). */
#define MPISHMEM_DECLARE_AMO_STD(T, N, A)                                                    \
    MPISHMEM_DECLARE_AMO_BOTH(T, N, compare_swap, T *dest, T cond, T value, int pe)         \
    MPISHMEM_DECLARE_AMO_BOTH(T, N, fetch_inc, T *dest, int pe)                             \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, inc, T *dest, int pe)                                \
    MPISHMEM_DECLARE_AMO_BOTH(T, N, fetch_add, T *dest, T value, int pe)                    \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, add, T *dest, T value, int pe)                       \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, compare_swap_nbi, T *fetch, T *dest, T cond,         \
                              T value, int pe)                                              \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, fetch_inc_nbi, T *fetch, T *dest, int pe)            \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, fetch_add_nbi, T *fetch, T *dest, T value, int pe)
MPISHMEM_AMO_STD_TYPES(MPISHMEM_DECLARE_AMO_STD, _)

/* fetch_and/or/xor, and/or/xor (+ nbi fetching forms). */
#define MPISHMEM_DECLARE_AMO_BIT(T, N, A)                                                    \
    MPISHMEM_DECLARE_AMO_BOTH(T, N, fetch_and, T *dest, T value, int pe)                    \
    MPISHMEM_DECLARE_AMO_BOTH(T, N, fetch_or, T *dest, T value, int pe)                     \
    MPISHMEM_DECLARE_AMO_BOTH(T, N, fetch_xor, T *dest, T value, int pe)                    \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, and, T *dest, T value, int pe)                       \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, or, T *dest, T value, int pe)                        \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, xor, T *dest, T value, int pe)                       \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, fetch_and_nbi, T *fetch, T *dest, T value, int pe)   \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, fetch_or_nbi, T *fetch, T *dest, T value, int pe)    \
    MPISHMEM_DECLARE_AMO_BOTH(void, N, fetch_xor_nbi, T *fetch, T *dest, T value, int pe)
MPISHMEM_AMO_BIT_TYPES(MPISHMEM_DECLARE_AMO_BIT, _)

/* Deprecated names (OpenSHMEM 1.0-1.3). */
#define MPISHMEM_DECLARE_AMO_LEGACY(T, N, A)                                                 \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe);                                  \
    T shmem_##N##_fadd(T *dest, T value, int pe);                                           \
    T shmem_##N##_finc(T *dest, int pe);                                                    \
    void shmem_##N##_add(T *dest, T value, int pe);                                         \
    void shmem_##N##_inc(T *dest, int pe);
MPISHMEM_AMO_LEGACY_TYPES(MPISHMEM_DECLARE_AMO_LEGACY, _)
#define MPISHMEM_DECLARE_AMO_LEGACY_EXT(T, N, A)                                             \
    T shmem_##N##_fetch(const T *source, int pe);                                           \
    void shmem_##N##_set(T *dest, T value, int pe);                                         \
    T shmem_##N##_swap(T *dest, T value, int pe);
MPISHMEM_AMO_LEGACY_EXT_TYPES(MPISHMEM_DECLARE_AMO_LEGACY_EXT, _)
long(shmem_swap)(long *dest, long value, int pe); /* 1.0 untyped swap */

/* ---- Signals ---------------------------------------------------------------- */
#define MPISHMEM_DECLARE_PUT_SIGNAL(PT, NAME)                                                \
    void shmem_##NAME(PT *dest, const PT *source, size_t nelems, uint64_t *sig_addr,        \
                      uint64_t signal, int sig_op, int pe);                                 \
    void shmem_ctx_##NAME(shmem_ctx_t ctx, PT *dest, const PT *source, size_t nelems,       \
                          uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);         \
    void shmem_##NAME##_nbi(PT *dest, const PT *source, size_t nelems, uint64_t *sig_addr,  \
                            uint64_t signal, int sig_op, int pe);                           \
    void shmem_ctx_##NAME##_nbi(shmem_ctx_t ctx, PT *dest, const PT *source, size_t nelems, \
                                uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
#define MPISHMEM_DECLARE_PUT_SIGNAL_TYPED(T, N, A) MPISHMEM_DECLARE_PUT_SIGNAL(T, N##_put_signal)
#define MPISHMEM_DECLARE_PUT_SIGNAL_SIZED(BITS, BYTES, A)                                    \
    MPISHMEM_DECLARE_PUT_SIGNAL(void, put##BITS##_signal)
MPISHMEM_RMA_TYPES(MPISHMEM_DECLARE_PUT_SIGNAL_TYPED, _)
MPISHMEM_RMA_SIZES(MPISHMEM_DECLARE_PUT_SIGNAL_SIZED, _)
MPISHMEM_DECLARE_PUT_SIGNAL(void, putmem_signal)

uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
void(shmem_signal_add)(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void(shmem_signal_set)(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);

/* ---- Distributed locks ------------------------------------------------------- */
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

#endif
