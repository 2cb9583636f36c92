/*
 * mpishmem: every RMA entry point, generated from the type tables.
 *
 * Each routine is a thin shell around the inline data path in
 * mpi_backend/data_path/rma_path.h; the element size is a compile-time constant.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include "../mpi_backend/data_path/rma_path.h"
#include "trace.h"

/* Tracing (MPISHMEM_TRACE): the routine takes a separate, cold copy of its
 * data path that counts first, so the fast path gains one predictable
 * branch and keeps its tail call (no registers saved for the count). */
static __attribute__((noinline, cold)) void put_traced(const char *routine, shmem_ctx_t ctx,
                                                       void *d, const void *s, size_t n,
                                                       int pe, int blocking)
{
    mpishmem_trace_op(routine, ctx, pe, MPISHMEM_TRACE_PUT, n);
    mpishmem_put_bytes(routine, ctx, d, s, n, pe, blocking);
}

static __attribute__((noinline, cold)) void get_traced(const char *routine, shmem_ctx_t ctx,
                                                       void *d, const void *s, size_t n,
                                                       int pe, int blocking)
{
    mpishmem_trace_op(routine, ctx, pe, MPISHMEM_TRACE_GET, n);
    mpishmem_get_bytes(routine, ctx, d, s, n, pe, blocking);
}

static __attribute__((noinline, cold)) void
strided_traced(const char *routine, shmem_ctx_t ctx, int is_put, char *target, char *local,
               ptrdiff_t tst, ptrdiff_t lst, size_t elem, size_t bsize, size_t nblocks, int pe)
{
    mpishmem_trace_op(routine, ctx, pe, is_put ? MPISHMEM_TRACE_PUT : MPISHMEM_TRACE_GET,
                      elem * bsize * nblocks);
    mpishmem_strided(routine, ctx, is_put, target, local, tst, lst, elem, bsize, nblocks, pe);
}

/* GCC 12 still sets up an 8-byte stack frame on the fast path of the
 * count-checked forms (putmem, getmem, ...): with the flag test that costs
 * them about 0.7 ns on the load/store path (docs/tools.md). */
#define PUT(ctx, d, s, bytes, pe, blocking)                                                \
    do {                                                                                   \
        if (MPISHMEM_TRACE_ON)                                                             \
            put_traced(__func__, ctx, d, s, bytes, pe, blocking);                          \
        else                                                                               \
            mpishmem_put_bytes(__func__, ctx, d, s, bytes, pe, blocking);                  \
    } while (0)
#define GET(ctx, d, s, bytes, pe, blocking)                                                \
    do {                                                                                   \
        if (MPISHMEM_TRACE_ON)                                                             \
            get_traced(__func__, ctx, d, s, bytes, pe, blocking);                          \
        else                                                                               \
            mpishmem_get_bytes(__func__, ctx, d, s, bytes, pe, blocking);                  \
    } while (0)
#define BYTES(n, elem) mpishmem_checked_bytes(__func__, n, elem)

/* Contiguous routines.  PT is the pointer element type of the signature
 * (T, or void for the sized and mem forms), ELEM the element size. */
#define DEFINE_RMA_CONTIG(PT, ELEM, PUTNAME, GETNAME)                                        \
    void shmem_##PUTNAME(PT *dest, const PT *src, size_t n, int pe)                        \
    { PUT(SHMEM_CTX_DEFAULT, dest, src, BYTES(n, ELEM), pe, 1); }                          \
    void shmem_ctx_##PUTNAME(shmem_ctx_t ctx, PT *dest, const PT *src, size_t n, int pe)   \
    { PUT(ctx, dest, src, BYTES(n, ELEM), pe, 1); }                                        \
    void shmem_##GETNAME(PT *dest, const PT *src, size_t n, int pe)                        \
    { GET(SHMEM_CTX_DEFAULT, dest, src, BYTES(n, ELEM), pe, 1); }                          \
    void shmem_ctx_##GETNAME(shmem_ctx_t ctx, PT *dest, const PT *src, size_t n, int pe)   \
    { GET(ctx, dest, src, BYTES(n, ELEM), pe, 1); }                                        \
    void shmem_##PUTNAME##_nbi(PT *dest, const PT *src, size_t n, int pe)                  \
    { PUT(SHMEM_CTX_DEFAULT, dest, src, BYTES(n, ELEM), pe, 0); }                          \
    void shmem_ctx_##PUTNAME##_nbi(shmem_ctx_t ctx, PT *dest, const PT *src, size_t n,     \
                                   int pe)                                                 \
    { PUT(ctx, dest, src, BYTES(n, ELEM), pe, 0); }                                        \
    void shmem_##GETNAME##_nbi(PT *dest, const PT *src, size_t n, int pe)                  \
    { GET(SHMEM_CTX_DEFAULT, dest, src, BYTES(n, ELEM), pe, 0); }                          \
    void shmem_ctx_##GETNAME##_nbi(shmem_ctx_t ctx, PT *dest, const PT *src, size_t n,     \
                                   int pe)                                                 \
    { GET(ctx, dest, src, BYTES(n, ELEM), pe, 0); }

/* Strided routines: iput/iget are ibput/ibget with one-element blocks. */
#define STRIDED(ctx, is_put, target, local, tst, lst, ELEM, bsize, nblocks, pe)              \
    do {                                                                                   \
        if (MPISHMEM_TRACE_ON)                                                             \
            strided_traced(__func__, ctx, is_put, (char *)(target), (char *)(local), tst,  \
                           lst, ELEM, bsize, nblocks, pe);                                 \
        else                                                                               \
            mpishmem_strided(__func__, ctx, is_put, (char *)(target), (char *)(local), tst, \
                             lst, ELEM, bsize, nblocks, pe);                               \
    } while (0)
#define DEFINE_RMA_STRIDED(PT, ELEM, IPUT, IGET, IBPUT, IBGET)                               \
    void shmem_##IPUT(PT *dest, const PT *src, ptrdiff_t dst, ptrdiff_t sst, size_t n,     \
                      int pe)                                                              \
    { STRIDED(SHMEM_CTX_DEFAULT, 1, dest, src, dst, sst, ELEM, 1, n, pe); }                \
    void shmem_ctx_##IPUT(shmem_ctx_t ctx, PT *dest, const PT *src, ptrdiff_t dst,         \
                          ptrdiff_t sst, size_t n, int pe)                                 \
    { STRIDED(ctx, 1, dest, src, dst, sst, ELEM, 1, n, pe); }                              \
    void shmem_##IGET(PT *dest, const PT *src, ptrdiff_t dst, ptrdiff_t sst, size_t n,     \
                      int pe)                                                              \
    { STRIDED(SHMEM_CTX_DEFAULT, 0, src, dest, sst, dst, ELEM, 1, n, pe); }                \
    void shmem_ctx_##IGET(shmem_ctx_t ctx, PT *dest, const PT *src, ptrdiff_t dst,         \
                          ptrdiff_t sst, size_t n, int pe)                                 \
    { STRIDED(ctx, 0, src, dest, sst, dst, ELEM, 1, n, pe); }                              \
    void shmem_##IBPUT(PT *dest, const PT *src, ptrdiff_t dst, ptrdiff_t sst,              \
                       size_t bsize, size_t nblocks, int pe)                               \
    { STRIDED(SHMEM_CTX_DEFAULT, 1, dest, src, dst, sst, ELEM, bsize, nblocks, pe); }      \
    void shmem_ctx_##IBPUT(shmem_ctx_t ctx, PT *dest, const PT *src, ptrdiff_t dst,        \
                           ptrdiff_t sst, size_t bsize, size_t nblocks, int pe)            \
    { STRIDED(ctx, 1, dest, src, dst, sst, ELEM, bsize, nblocks, pe); }                    \
    void shmem_##IBGET(PT *dest, const PT *src, ptrdiff_t dst, ptrdiff_t sst,              \
                       size_t bsize, size_t nblocks, int pe)                               \
    { STRIDED(SHMEM_CTX_DEFAULT, 0, src, dest, sst, dst, ELEM, bsize, nblocks, pe); }      \
    void shmem_ctx_##IBGET(shmem_ctx_t ctx, PT *dest, const PT *src, ptrdiff_t dst,        \
                           ptrdiff_t sst, size_t bsize, size_t nblocks, int pe)            \
    { STRIDED(ctx, 0, src, dest, sst, dst, ELEM, bsize, nblocks, pe); }

/* Typed routines: shmem_TYPENAME_put ... plus p and g. */
#define DEFINE_RMA_TYPED(T, N, A)                                                           \
    DEFINE_RMA_CONTIG(T, sizeof(T), N##_put, N##_get)                                      \
    DEFINE_RMA_STRIDED(T, sizeof(T), N##_iput, N##_iget, N##_ibput, N##_ibget)             \
    void shmem_##N##_p(T *dest, T value, int pe)                                           \
    { PUT(SHMEM_CTX_DEFAULT, dest, &value, sizeof(T), pe, 1); }                            \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe)                      \
    { PUT(ctx, dest, &value, sizeof(T), pe, 1); }                                          \
    T shmem_##N##_g(const T *src, int pe)                                                  \
    { T v = 0; GET(SHMEM_CTX_DEFAULT, &v, src, sizeof(T), pe, 1); return v; }                  \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *src, int pe)                             \
    { T v = 0; GET(ctx, &v, src, sizeof(T), pe, 1); return v; }  /* 0 for SHMEM_CTX_INVALID */
MPISHMEM_RMA_TYPES(DEFINE_RMA_TYPED, _)

/* Sized routines: put8 ... put128 move elements of 1 ... 16 bytes. */
#define DEFINE_RMA_SIZED(BITS, ELEM, A)                                                      \
    DEFINE_RMA_CONTIG(void, ELEM, put##BITS, get##BITS)                                    \
    DEFINE_RMA_STRIDED(void, ELEM, iput##BITS, iget##BITS, ibput##BITS, ibget##BITS)
MPISHMEM_RMA_SIZES(DEFINE_RMA_SIZED, _)

/* putmem/getmem: bytes. */
DEFINE_RMA_CONTIG(void, 1, putmem, getmem)
