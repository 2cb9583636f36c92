/*
 * mpishmem: the team reductions shmem_TYPENAME_OP_reduce and the scans
 * shmem_TYPENAME_sum_{inscan,exscan}, one per row of the team-based
 * reduction types table.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coll.h"

#define DEFINE_REDUCE(T, N, OP)                                                               \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source,             \
                                  size_t nreduce)                                          \
    {                                                                                       \
        static const char routine[] = "shmem_" #N "_" #OP "_reduce";                        \
        mpishmem_coll_comm_t *c = mpishmem_coll_team(routine, team);                        \
        if (c == NULL)                                                                      \
            return -1;                                                                      \
        mpishmem_coll_reduce(routine, c, dest, source, nreduce, sizeof(T),                  \
                             MPISHMEM_COLL_DATATYPE(T), MPISHMEM_COLL_OP_##OP);             \
        return 0;                                                                           \
    }
MPISHMEM_REDUCE_BIT_TYPES(DEFINE_REDUCE, and)
MPISHMEM_REDUCE_BIT_TYPES(DEFINE_REDUCE, or)
MPISHMEM_REDUCE_BIT_TYPES(DEFINE_REDUCE, xor)
MPISHMEM_REDUCE_ARITH_TYPES(DEFINE_REDUCE, max)
MPISHMEM_REDUCE_ARITH_TYPES(DEFINE_REDUCE, min)
MPISHMEM_REDUCE_SUM_TYPES(DEFINE_REDUCE, sum)
MPISHMEM_REDUCE_SUM_TYPES(DEFINE_REDUCE, prod)

#define DEFINE_SCAN_ONE(T, N, KIND, EXCLUSIVE)                                                \
    int shmem_##N##_sum_##KIND(shmem_team_t team, T *dest, const T *source, size_t nelems) \
    {                                                                                       \
        static const char routine[] = "shmem_" #N "_sum_" #KIND;                            \
        mpishmem_coll_comm_t *c = mpishmem_coll_team(routine, team);                        \
        if (c == NULL)                                                                      \
            return -1;                                                                      \
        mpishmem_coll_scan(routine, c, dest, source, nelems, sizeof(T),                     \
                           MPISHMEM_COLL_DATATYPE(T), EXCLUSIVE);                           \
        return 0;                                                                           \
    }
#define DEFINE_SCAN(T, N, A) DEFINE_SCAN_ONE(T, N, inscan, 0) DEFINE_SCAN_ONE(T, N, exscan, 1)
MPISHMEM_REDUCE_SUM_TYPES(DEFINE_SCAN, _)
