/*
 * mpishmem: the typed team data-movement routines,
 * shmem_TYPENAME_{broadcast,collect,fcollect,alltoall,alltoalls}, one set
 * per row of the standard RMA types table.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coll.h"

/* collect, fcollect and alltoall share one signature and one call shape. */
#define DEFINE_GATHER_LIKE(T, N, OP)                                                        \
    int shmem_##N##_##OP(shmem_team_t team, T *dest, const T *source, size_t nelems)       \
    {                                                                                       \
        ON_TEAM("shmem_" #N "_" #OP, team,                                                  \
                mpishmem_coll_##OP(routine, c, dest, source, nelems, sizeof(T),             \
                                   MPISHMEM_COLL_DATATYPE(T)))                              \
    }

#define ON_TEAM(NAME, team, CALL)                                                             \
    static const char routine[] = NAME;                                                     \
    mpishmem_coll_comm_t *c = mpishmem_coll_team(routine, team);                            \
    if (c == NULL)                                                                          \
        return -1;                                                                          \
    CALL;                                                                                   \
    return 0;

#define DEFINE_DATA(T, N, A)                                                                  \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,  \
                              int PE_root)                                                 \
    {                                                                                       \
        ON_TEAM("shmem_" #N "_broadcast", team,                                             \
                mpishmem_coll_broadcast(routine, c, dest, source, nelems, sizeof(T),        \
                                        MPISHMEM_COLL_DATATYPE(T), PE_root, 1))             \
    }                                                                                       \
    DEFINE_GATHER_LIKE(T, N, collect)                                                       \
    DEFINE_GATHER_LIKE(T, N, fcollect)                                                      \
    DEFINE_GATHER_LIKE(T, N, alltoall)                                                      \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,  \
                              ptrdiff_t sst, size_t nelems)                                \
    {                                                                                       \
        ON_TEAM("shmem_" #N "_alltoalls", team,                                             \
                mpishmem_coll_alltoalls(routine, c, dest, source, dst, sst, nelems,         \
                                        sizeof(T), MPISHMEM_COLL_DATATYPE(T)))              \
    }
MPISHMEM_RMA_TYPES(DEFINE_DATA, _)
