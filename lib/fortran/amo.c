/*
 * mpishmem Fortran: atomics and the point-to-point waits, from the
 * Fortran type tables.  INT4/INT8 are the 32- and 64-bit C AMOs, REAL4
 * and REAL8 (SWAP, FETCH and SET: bit moves) float and double; the
 * untyped SHMEM_SWAP, SHMEM_WAIT and SHMEM_WAIT_UNTIL take default
 * INTEGERs.  SHMEM_WAIT(var, value) is SHMEM_WAIT_UNTIL(var, SHMEM_CMP_NE,
 * value).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "fortran.h"

/* SWAP, FETCH and SET (1.4): every INT and REAL kind. */
#define F_AMO_MOVE(K, T, N, A)                                                            \
    MPISHMEM_F(T, shmem_##K##_swap, (T *target, const T *value, const mpishmem_fint *pe)) \
    {                                                                                     \
        return shmem_##N##_atomic_swap(target, *value, *pe);                              \
    }                                                                                     \
    MPISHMEM_F(T, shmem_##K##_fetch, (const T *source, const mpishmem_fint *pe))          \
    {                                                                                     \
        return shmem_##N##_atomic_fetch(source, *pe);                                     \
    }                                                                                     \
    MPISHMEM_F(void, shmem_##K##_set,                                                     \
               (T *target, const T *value, const mpishmem_fint *pe))                      \
    {                                                                                     \
        shmem_##N##_atomic_set(target, *value, *pe);                                      \
    }
MPISHMEM_F_AMO_INT_TYPES(F_AMO_MOVE, _)
MPISHMEM_F_AMO_REAL_TYPES(F_AMO_MOVE, _)

#define F_AMO_INT(K, T, N, A)                                                             \
    MPISHMEM_F(T, shmem_##K##_cswap, (T *target, const T *cond, const T *value,           \
                                      const mpishmem_fint *pe))                           \
    {                                                                                     \
        return shmem_##N##_atomic_compare_swap(target, *cond, *value, *pe);               \
    }                                                                                     \
    MPISHMEM_F(T, shmem_##K##_fadd, (T *target, const T *value, const mpishmem_fint *pe)) \
    {                                                                                     \
        return shmem_##N##_atomic_fetch_add(target, *value, *pe);                         \
    }                                                                                     \
    MPISHMEM_F(T, shmem_##K##_finc, (T *target, const mpishmem_fint *pe))                 \
    {                                                                                     \
        return shmem_##N##_atomic_fetch_inc(target, *pe);                                 \
    }                                                                                     \
    MPISHMEM_F(void, shmem_##K##_add, (T *target, const T *value, const mpishmem_fint *pe)) \
    {                                                                                     \
        shmem_##N##_atomic_add(target, *value, *pe);                                      \
    }                                                                                     \
    MPISHMEM_F(void, shmem_##K##_inc, (T *target, const mpishmem_fint *pe))               \
    {                                                                                     \
        shmem_##N##_atomic_inc(target, *pe);                                              \
    }                                                                                     \
    MPISHMEM_F(void, shmem_##K##_wait, (T *var, const T *value))                          \
    {                                                                                     \
        shmem_##N##_wait_until(var, SHMEM_CMP_NE, *value);                                \
    }                                                                                     \
    MPISHMEM_F(void, shmem_##K##_wait_until, (T *var, const mpishmem_fint *cmp,           \
                                              const T *value))                            \
    {                                                                                     \
        shmem_##N##_wait_until(var, *cmp, *value);                                        \
    }
MPISHMEM_F_AMO_INT_TYPES(F_AMO_INT, _)

/* The untyped forms: default INTEGER. */
MPISHMEM_F(mpishmem_fint, shmem_swap, (mpishmem_fint *target, const mpishmem_fint *value,
                                       const mpishmem_fint *pe))
{
    return shmem_int32_atomic_swap(target, *value, *pe);
}

MPISHMEM_F(void, shmem_wait, (mpishmem_fint *var, const mpishmem_fint *value))
{
    shmem_int32_wait_until(var, SHMEM_CMP_NE, *value);
}

MPISHMEM_F(void, shmem_wait_until, (mpishmem_fint *var, const mpishmem_fint *cmp,
                                    const mpishmem_fint *value))
{
    shmem_int32_wait_until(var, *cmp, *value);
}
