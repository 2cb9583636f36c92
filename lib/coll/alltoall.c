/*
 * mpishmem: all-to-all exchange (MPI_Ialltoall): contiguous blocks, and
 * strided ones through MPI vector datatypes resized so that block j starts
 * j * nelems strides in; the byte forms and the deprecated 32/64-bit
 * forms.
 *
 * dest == source is MPI_IN_PLACE (for the strided form, when dst == sst;
 * with different strides source is copied aside first).  A source that
 * partly overlaps dest is forbidden by the spec (checked under
 * SHMEM_DEBUG); without the check it is copied aside too.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include "coll.h"
#include "../trace.h"
#include "../../mpi_backend/runtime/error.h"

/* Exchange one block of type st/rt (count elements of dt when contiguous)
 * with every PE. */
static void exchange(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                     const void *source, size_t span, int in_place, int count,
                     MPI_Datatype st, MPI_Datatype rt)
{
    void *tmp = NULL;
    const void *send = MPI_IN_PLACE;
    if (!in_place)
        send = mpishmem_coll_overlap(dest, span, source, span)
                   ? mpishmem_coll_copy_source(routine, source, span, &tmp)
                   : source;
    MPISHMEM_COLL_RUN(routine, mpishmem_coll_blocking(c), MPI_Alltoall,
                      MPI_Ialltoall, send, count, st, dest, count, rt, c->comm);
    free(tmp);
}

void mpishmem_coll_alltoall(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                            const void *source, size_t nelems, size_t esize, MPI_Datatype dt)
{
    size_t bytes = mpishmem_checked_bytes(routine, nelems, esize);
    size_t total = mpishmem_coll_total(routine, nelems, bytes, c->n);
    int count = mpishmem_coll_count(routine, nelems);
    if (MPISHMEM_DEBUG_ON) {
        static const char *const names[] = {"nelems", "dest", "source"};
        long long v[] = {(long long)nelems, mpishmem_coll_symmetric_offset(dest),
                         mpishmem_coll_symmetric_offset(source)};
        mpishmem_coll_check_buffers(routine, c, dest, total, source, total, 1);
        mpishmem_coll_check_same(routine, c, names, v, 3);
    }
    if (count == 0)
        return;
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_coll(c->comm, -1, bytes);
    mpishmem_coll_stage_t st;
    MPISHMEM_COLL_STAGE(routine, &st, &dest, total, &source, total, 0);
    exchange(routine, c, dest, source, total, dest == source, count, dt, dt);
    MPISHMEM_COLL_UNSTAGE(&st);
}

/* A block of n elements of dt, `stride` elements apart, whose extent is n
 * strides so the next block follows it. */
static MPI_Datatype strided_block(const char *routine, MPI_Datatype dt, size_t esize, int n,
                                  ptrdiff_t stride)
{
    MPI_Datatype vec, block;
    if (MPI_Type_vector(n, 1, (int)stride, dt, &vec) != MPI_SUCCESS ||
        MPI_Type_create_resized(vec, 0, (MPI_Aint)n * (MPI_Aint)stride * (MPI_Aint)esize,
                                &block) != MPI_SUCCESS ||
        MPI_Type_commit(&block) != MPI_SUCCESS)
        mpishmem_fatal(routine, "cannot make the MPI datatype of a strided block");
    MPISHMEM_MPI(MPI_Type_free(&vec));
    return block;
}

/* Bytes from the first to the last element of n*npes elements `stride`
 * apart; `name` is the stride's argument (dst or sst). */
static size_t strided_span(const char *routine, const char *name, size_t n, int npes,
                           ptrdiff_t stride, size_t esize)
{
    size_t elems;
    int bad = __builtin_mul_overflow(n, (size_t)npes, &elems);
    if (elems == 0 && !bad)
        return 0;
    size_t span = mpishmem_strided_extent(elems, stride, 1, esize, &bad);
    if (MPISHMEM_UNLIKELY(bad))
        mpishmem_fatal(routine, "%s %td with nelems %zu for each of %d PEs spans more than "
                       "PTRDIFF_MAX bytes (%zu-byte elements; a negative count?)", name, stride,
                       n, npes, esize);
    return span;
}

void mpishmem_coll_alltoalls(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                             const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                             size_t esize, MPI_Datatype dt)
{
    if (MPISHMEM_UNLIKELY(dst < 1 || sst < 1 || dst > INT_MAX || sst > INT_MAX))
        mpishmem_fatal(routine, "strides dst %td and sst %td must be between 1 and INT_MAX",
                       dst, sst);
    int count = mpishmem_coll_count(routine, nelems);
    size_t dspan = strided_span(routine, "dst", nelems, c->n, dst, esize);
    size_t sspan = strided_span(routine, "sst", nelems, c->n, sst, esize);
    int in_place = dest == source && dst == sst;
    if (MPISHMEM_DEBUG_ON) {
        static const char *const names[] = {"nelems", "dst", "sst", "dest"};
        long long v[] = {(long long)nelems, dst, sst, mpishmem_coll_symmetric_offset(dest)};
        mpishmem_coll_check_buffers(routine, c, dest, dspan, source, sspan, 1);
        mpishmem_coll_check_same(routine, c, names, v, 4);
    }
    if (count == 0)
        return;
    if (MPISHMEM_TRACE_ON)
        mpishmem_trace_coll(c->comm, -1, nelems * esize);
    mpishmem_coll_stage_t st;
    MPISHMEM_COLL_STAGE(routine, &st, &dest, dspan, &source, sspan, 0);
    if (dst == 1 && sst == 1) {
        exchange(routine, c, dest, source, dspan, in_place, count, dt, dt);
        MPISHMEM_COLL_UNSTAGE(&st);
        return;
    }
    MPI_Datatype rt = strided_block(routine, dt, esize, count, dst);
    MPI_Datatype sdt = sst == dst ? rt : strided_block(routine, dt, esize, count, sst);
    void *tmp = NULL;
    const void *send = MPI_IN_PLACE;
    if (!in_place)
        send = mpishmem_coll_overlap(dest, dspan, source, sspan)
                   ? mpishmem_coll_copy_source(routine, source, sspan, &tmp)
                   : source;
    MPISHMEM_COLL_RUN(routine, mpishmem_coll_blocking(c), MPI_Alltoall,
                      MPI_Ialltoall, send, 1, sdt, dest, 1, rt, c->comm);
    free(tmp);
    if (sdt != rt)
        MPISHMEM_MPI(MPI_Type_free(&sdt));
    MPISHMEM_MPI(MPI_Type_free(&rt));
    MPISHMEM_COLL_UNSTAGE(&st);
}

int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    static const char routine[] = "shmem_alltoallmem";
    mpishmem_coll_comm_t *c = mpishmem_coll_team(routine, team);
    if (c == NULL)
        return -1;
    mpishmem_coll_alltoall(routine, c, dest, source, nelems, 1, MPI_BYTE);
    return 0;
}

int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems)
{
    static const char routine[] = "shmem_alltoallsmem";
    mpishmem_coll_comm_t *c = mpishmem_coll_team(routine, team);
    if (c == NULL)
        return -1;
    mpishmem_coll_alltoalls(routine, c, dest, source, dst, sst, nelems, 1, MPI_BYTE);
    return 0;
}

#define DEFINE_ALLTOALL_SIZED(BITS, BYTES, DT)                                                \
    void shmem_alltoall##BITS(void *dest, const void *source, size_t nelems, int PE_start,  \
                              int logPE_stride, int PE_size, long *pSync)                  \
    {                                                                                       \
        static const char routine[] = "shmem_alltoall" #BITS;                               \
        mpishmem_coll_comm_t *c = mpishmem_active_set(routine, PE_start, logPE_stride,      \
                                                      PE_size, pSync,                       \
                                                      SHMEM_ALLTOALL_SYNC_SIZE);            \
        mpishmem_coll_alltoall(routine, c, dest, source, nelems, BYTES, DT);                \
    }                                                                                       \
    void shmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,\
                               size_t nelems, int PE_start, int logPE_stride, int PE_size, \
                               long *pSync)                                                \
    {                                                                                       \
        static const char routine[] = "shmem_alltoalls" #BITS;                              \
        mpishmem_coll_comm_t *c = mpishmem_active_set(routine, PE_start, logPE_stride,      \
                                                      PE_size, pSync,                       \
                                                      SHMEM_ALLTOALLS_SYNC_SIZE);           \
        mpishmem_coll_alltoalls(routine, c, dest, source, dst, sst, nelems, BYTES, DT);     \
    }
DEFINE_ALLTOALL_SIZED(32, 4, MPI_UINT32_T)
DEFINE_ALLTOALL_SIZED(64, 8, MPI_UINT64_T)
