/*
 * mpishmem: the deprecated active-set reductions shmem_TYPENAME_OP_to_all,
 * one per row of the active-set reduction types table.  They run as the
 * team reductions do, on the active set's cached communicator; pWrk and
 * pSync are not needed (SHMEM_DEBUG checks them as the spec describes).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coll.h"

/* Checks common to every _to_all; returns the active set's communicator. */
static mpishmem_coll_comm_t *to_all_enter(const char *routine, int nreduce, int PE_start,
                                          int logPE_stride, int PE_size, const void *pWrk,
                                          size_t esize, const long *pSync)
{
    if (MPISHMEM_UNLIKELY(nreduce < 0))
        mpishmem_fatal(routine, "nreduce %d is negative", nreduce);
    mpishmem_coll_comm_t *c = mpishmem_active_set(routine, PE_start, logPE_stride, PE_size,
                                                  pSync, SHMEM_REDUCE_SYNC_SIZE);
    if (MPISHMEM_DEBUG_ON) {
        size_t wrk = (size_t)nreduce / 2 + 1;
        if (wrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE)
            wrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
        mpishmem_coll_check_symmetric(routine, "pWrk", pWrk, wrk * esize);
    }
    return c;
}

#define DEFINE_TO_ALL(T, N, OP)                                                               \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,    \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync)    \
    {                                                                                       \
        static const char routine[] = "shmem_" #N "_" #OP "_to_all";                        \
        mpishmem_coll_comm_t *c = to_all_enter(routine, nreduce, PE_start, logPE_stride,    \
                                               PE_size, pWrk, sizeof(T), pSync);            \
        mpishmem_coll_reduce(routine, c, dest, source, (size_t)nreduce, sizeof(T),          \
                             MPISHMEM_COLL_DATATYPE(T), MPISHMEM_COLL_OP_##OP);             \
    }
MPISHMEM_TO_ALL_BIT_TYPES(DEFINE_TO_ALL, and)
MPISHMEM_TO_ALL_BIT_TYPES(DEFINE_TO_ALL, or)
MPISHMEM_TO_ALL_BIT_TYPES(DEFINE_TO_ALL, xor)
MPISHMEM_TO_ALL_ARITH_TYPES(DEFINE_TO_ALL, max)
MPISHMEM_TO_ALL_ARITH_TYPES(DEFINE_TO_ALL, min)
MPISHMEM_TO_ALL_SUM_TYPES(DEFINE_TO_ALL, sum)
MPISHMEM_TO_ALL_SUM_TYPES(DEFINE_TO_ALL, prod)
