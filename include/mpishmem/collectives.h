/*
 * mpishmem: declarations of the collectives: team-based and legacy
 * active-set collectives, reductions and scans.  Included by <shmem.h>.
 *
 * Team-based routines return 0 on success and nonzero when team is
 * SHMEM_TEAM_INVALID.  The deprecated active-set routines return nothing.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_COLLECTIVES_H
#define MPISHMEM_COLLECTIVES_H

/* ---- Work arrays of the deprecated active-set routines --------------------
 * The collectives run on MPI communicators, so pSync and pWrk are never
 * written; the sizes leave room and SHMEM_SYNC_SIZE fits every routine. */
#define SHMEM_SYNC_VALUE (-1L)
#define SHMEM_BARRIER_SYNC_SIZE 8
#define SHMEM_BCAST_SYNC_SIZE 8
#define SHMEM_REDUCE_SYNC_SIZE 8
#define SHMEM_COLLECT_SYNC_SIZE 8
#define SHMEM_ALLTOALL_SYNC_SIZE 8
#define SHMEM_ALLTOALLS_SYNC_SIZE 8
#define SHMEM_SYNC_SIZE 8
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 8
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* ---- Synchronization ---------------------------------------------------------
 * shmem_sync is also the C11 generic shmem_sync(team); the parentheses keep
 * that macro from expanding here. */
int shmem_team_sync(shmem_team_t team);
void(shmem_sync)(int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);

/* ---- Data movement over a team: typed, from the standard RMA types table -- */
#define MPISHMEM_DECLARE_COLL_TYPED(T, N, A)                                                  \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,  \
                              int PE_root);                                                \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);   \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);  \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);  \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,  \
                              ptrdiff_t sst, size_t nelems);
MPISHMEM_RMA_TYPES(MPISHMEM_DECLARE_COLL_TYPED, _)

/* Byte forms: nelems counts bytes. */
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems);

/* ---- Reductions and scans over a team ------------------------------------- */
#define MPISHMEM_DECLARE_REDUCE(T, N, OP)                                                     \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce);
MPISHMEM_REDUCE_BIT_TYPES(MPISHMEM_DECLARE_REDUCE, and)
MPISHMEM_REDUCE_BIT_TYPES(MPISHMEM_DECLARE_REDUCE, or)
MPISHMEM_REDUCE_BIT_TYPES(MPISHMEM_DECLARE_REDUCE, xor)
MPISHMEM_REDUCE_ARITH_TYPES(MPISHMEM_DECLARE_REDUCE, max)
MPISHMEM_REDUCE_ARITH_TYPES(MPISHMEM_DECLARE_REDUCE, min)
MPISHMEM_REDUCE_SUM_TYPES(MPISHMEM_DECLARE_REDUCE, sum)
MPISHMEM_REDUCE_SUM_TYPES(MPISHMEM_DECLARE_REDUCE, prod)

#define MPISHMEM_DECLARE_SCAN(T, N, A)                                                        \
    int shmem_##N##_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems);\
    int shmem_##N##_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems);
MPISHMEM_REDUCE_SUM_TYPES(MPISHMEM_DECLARE_SCAN, _)

/* ---- Deprecated active-set collectives -------------------------------------- */
#define MPISHMEM_DECLARE_COLL_SIZED(BITS, BYTES, A)                                           \
    void shmem_broadcast##BITS(void *dest, const void *source, size_t nelems, int PE_root, \
                               int PE_start, int logPE_stride, int PE_size, long *pSync);  \
    void shmem_collect##BITS(void *dest, const void *source, size_t nelems, int PE_start,  \
                             int logPE_stride, int PE_size, long *pSync);                  \
    void shmem_fcollect##BITS(void *dest, const void *source, size_t nelems, int PE_start, \
                              int logPE_stride, int PE_size, long *pSync);                 \
    void shmem_alltoall##BITS(void *dest, const void *source, size_t nelems, int PE_start, \
                              int logPE_stride, int PE_size, long *pSync);                 \
    void shmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,\
                               size_t nelems, int PE_start, int logPE_stride, int PE_size, \
                               long *pSync);
MPISHMEM_DECLARE_COLL_SIZED(32, 4, _)
MPISHMEM_DECLARE_COLL_SIZED(64, 8, _)

#define MPISHMEM_DECLARE_TO_ALL(T, N, OP)                                                     \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,    \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync);
MPISHMEM_TO_ALL_BIT_TYPES(MPISHMEM_DECLARE_TO_ALL, and)
MPISHMEM_TO_ALL_BIT_TYPES(MPISHMEM_DECLARE_TO_ALL, or)
MPISHMEM_TO_ALL_BIT_TYPES(MPISHMEM_DECLARE_TO_ALL, xor)
MPISHMEM_TO_ALL_ARITH_TYPES(MPISHMEM_DECLARE_TO_ALL, max)
MPISHMEM_TO_ALL_ARITH_TYPES(MPISHMEM_DECLARE_TO_ALL, min)
MPISHMEM_TO_ALL_SUM_TYPES(MPISHMEM_DECLARE_TO_ALL, sum)
MPISHMEM_TO_ALL_SUM_TYPES(MPISHMEM_DECLARE_TO_ALL, prod)

#endif
