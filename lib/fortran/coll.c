/*
 * mpishmem Fortran: barriers and the active-set collectives.
 *
 * pSync is a default INTEGER array in Fortran, sized by the constants of
 * shmem.fh, which count 4-byte INTEGERs: each is the C constant (in longs)
 * times sizeof(long) / 4, so the array has exactly the bytes the C routine
 * may look at, and SHMEM_SYNC_VALUE (-1) fills a long with -1 as it fills
 * an INTEGER.  The arrays therefore pass to the C routines unchanged.
 * pWrk is of the reduction's type and counts elements, as in C.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <pthread.h>
#include "fortran.h"
#include "../coll/coll.h"
#include "../../mpi_backend/runtime/error.h"

_Static_assert(sizeof(long) == 8, "INTEGER*8 reductions use the C long routines");
_Static_assert(sizeof(long) % sizeof(mpishmem_fint) == 0, "pSync sizes scale by whole INTEGERs");
_Static_assert(SHMEM_SYNC_VALUE == -1, "SHMEM_SYNC_VALUE in shmem.fh is -1");

#define PSYNC(p) ((long *)(void *)(p))

MPISHMEM_F(void, shmem_barrier_all, (void)) { shmem_barrier_all(); }

MPISHMEM_F(void, shmem_barrier, (const mpishmem_fint *PE_start, const mpishmem_fint *logPE_stride,
                                 const mpishmem_fint *PE_size, mpishmem_fint *pSync))
{
    shmem_barrier(*PE_start, *logPE_stride, *PE_size, PSYNC(pSync));
}

/* SHMEM_BROADCAST4/8/32/64 */
#define F_BCAST(SUFFIX, BITS, A)                                                            \
    MPISHMEM_F(void, shmem_broadcast##SUFFIX,                                               \
               (void *target, const void *source, const mpishmem_fint *nelems,              \
                const mpishmem_fint *PE_root, const mpishmem_fint *PE_start,                \
                const mpishmem_fint *logPE_stride, const mpishmem_fint *PE_size,            \
                mpishmem_fint *pSync))                                                      \
    {                                                                                       \
        shmem_broadcast##BITS(target, source, (size_t)*nelems, *PE_root, *PE_start,         \
                              *logPE_stride, *PE_size, PSYNC(pSync));                       \
    }
MPISHMEM_F_SIZES(F_BCAST, _)

/* SHMEM_COLLECT4/8/32/64, SHMEM_FCOLLECT4/8/32/64 */
#define F_COLLECT(SUFFIX, BITS, NAME)                                                       \
    MPISHMEM_F(void, shmem_##NAME##SUFFIX,                                                  \
               (void *target, const void *source, const mpishmem_fint *nelems,              \
                const mpishmem_fint *PE_start, const mpishmem_fint *logPE_stride,           \
                const mpishmem_fint *PE_size, mpishmem_fint *pSync))                        \
    {                                                                                       \
        shmem_##NAME##BITS(target, source, (size_t)*nelems, *PE_start, *logPE_stride,       \
                           *PE_size, PSYNC(pSync));                                         \
    }
MPISHMEM_F_SIZES(F_COLLECT, collect)
MPISHMEM_F_SIZES(F_COLLECT, fcollect)
MPISHMEM_F_ALLTOALL_SIZES(F_COLLECT, alltoall)

/* SHMEM_ALLTOALLS32/64: dst and sst are default INTEGERs. */
#define F_ALLTOALLS(SUFFIX, BITS, A)                                                        \
    MPISHMEM_F(void, shmem_alltoalls##SUFFIX,                                               \
               (void *target, const void *source, const mpishmem_fint *dst,                 \
                const mpishmem_fint *sst, const mpishmem_fint *nelems,                      \
                const mpishmem_fint *PE_start, const mpishmem_fint *logPE_stride,           \
                const mpishmem_fint *PE_size, mpishmem_fint *pSync))                        \
    {                                                                                       \
        shmem_alltoalls##BITS(target, source, *dst, *sst, (size_t)*nelems, *PE_start,       \
                              *logPE_stride, *PE_size, PSYNC(pSync));                       \
    }
MPISHMEM_F_ALLTOALL_SIZES(F_ALLTOALLS, _)

/* SHMEM_INT2_AND_TO_ALL ... SHMEM_REAL8_PROD_TO_ALL, SHMEM_COMP4/8_SUM/PROD_TO_ALL */
#define F_TO_ALL(K, T, N, OP)                                                               \
    MPISHMEM_F(void, shmem_##K##_##OP##_to_all,                                             \
               (T *target, const T *source, const mpishmem_fint *nreduce,                   \
                const mpishmem_fint *PE_start, const mpishmem_fint *logPE_stride,           \
                const mpishmem_fint *PE_size, T *pWrk, mpishmem_fint *pSync))               \
    {                                                                                       \
        shmem_##N##_##OP##_to_all(target, source, *nreduce, *PE_start, *logPE_stride,       \
                                  *PE_size, pWrk, PSYNC(pSync));                            \
    }
MPISHMEM_F_TO_ALL_INT(F_TO_ALL, and)
MPISHMEM_F_TO_ALL_INT(F_TO_ALL, or)
MPISHMEM_F_TO_ALL_INT(F_TO_ALL, xor)
MPISHMEM_F_TO_ALL_INT(F_TO_ALL, max)
MPISHMEM_F_TO_ALL_INT(F_TO_ALL, min)
MPISHMEM_F_TO_ALL_INT(F_TO_ALL, sum)
MPISHMEM_F_TO_ALL_INT(F_TO_ALL, prod)
MPISHMEM_F_TO_ALL_REAL(F_TO_ALL, max)
MPISHMEM_F_TO_ALL_REAL(F_TO_ALL, min)
MPISHMEM_F_TO_ALL_REAL(F_TO_ALL, sum)
MPISHMEM_F_TO_ALL_REAL(F_TO_ALL, prod)
MPISHMEM_F_TO_ALL_COMPLEX(F_TO_ALL, sum)
MPISHMEM_F_TO_ALL_COMPLEX(F_TO_ALL, prod)

/* SHMEM_COMP4/COMP8_XOR_TO_ALL: XOR of the bits of COMPLEX values, as the
 * XOR of their two halves (2 * nreduce INTEGER*4 or INTEGER*8).  pWrk, of
 * max(nreduce/2+1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) complex elements, is
 * larger than the integer routine needs. */
#define F_COMP_XOR(K, N)                                                                    \
    MPISHMEM_F(void, shmem_##K##_xor_to_all,                                                \
               (void *target, const void *source, const mpishmem_fint *nreduce,             \
                const mpishmem_fint *PE_start, const mpishmem_fint *logPE_stride,           \
                const mpishmem_fint *PE_size, void *pWrk, mpishmem_fint *pSync))            \
    {                                                                                       \
        int n = *nreduce;                                                                   \
        if (n < 0 || n > INT_MAX / 2)                                                       \
            mpishmem_fatal("SHMEM_" #K "_XOR_TO_ALL", "nreduce %d is out of range", n);     \
        shmem_##N##_xor_to_all(target, source, 2 * n, *PE_start, *logPE_stride, *PE_size,   \
                               pWrk, PSYNC(pSync));                                         \
    }
F_COMP_XOR(comp4, int)
F_COMP_XOR(comp8, long)

/* ---- REAL*16 --------------------------------------------------------------
 * gfortran's REAL(16) is IEEE binary128, which no C type of the library
 * covers (long double is the x87 80-bit format on x86-64) and no MPI
 * datatype names.  The reduction runs on the same active-set communicator
 * and MPI_Allreduce path as every other (mpishmem_coll_reduce), with a
 * 16-byte datatype and user operations doing the arithmetic in GCC's
 * __float128 (or long double where that is binary128). */
#if defined(__SIZEOF_FLOAT128__)
typedef __float128 real16_t;
#define HAVE_REAL16 1
#elif defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 113
typedef long double real16_t;
#define HAVE_REAL16 1
#endif

#ifdef HAVE_REAL16
_Static_assert(sizeof(real16_t) == 16, "REAL(16) is 16 bytes");

#define R16_OP(OP, EXPR)                                                                    \
    static void r16_##OP(void *in, void *inout, int *len, MPI_Datatype *dt)                 \
    {                                                                                       \
        (void)dt;                                                                           \
        const real16_t *a = in;                                                             \
        real16_t *b = inout;                                                                \
        for (int i = 0; i < *len; i++)                                                      \
            b[i] = (EXPR);                                                                  \
    }
R16_OP(max, a[i] > b[i] ? a[i] : b[i])
R16_OP(min, a[i] < b[i] ? a[i] : b[i])
R16_OP(sum, a[i] + b[i])
R16_OP(prod, a[i] * b[i])

static MPI_Datatype r16_type;
static MPI_Op r16_ops[4];
static pthread_once_t r16_once = PTHREAD_ONCE_INIT;

/* MPI_Finalize frees MPI_COMM_SELF first, running this: the datatype and
 * operations go before MPI checks for leaked handles. */
static int r16_free(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm, (void)key, (void)value, (void)extra;
    for (int i = 0; i < 4; i++)
        MPISHMEM_MPI(MPI_Op_free(&r16_ops[i]));
    MPISHMEM_MPI(MPI_Type_free(&r16_type));
    return MPI_SUCCESS;
}

/* Made once, on the first REAL*16 reduction, and kept until MPI_Finalize. */
static void r16_init(void)
{
    int key;
    MPISHMEM_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, r16_free, &key, NULL));
    MPISHMEM_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL));
    MPISHMEM_MPI(MPI_Type_contiguous((int)sizeof(real16_t), MPI_BYTE, &r16_type));
    MPISHMEM_MPI(MPI_Type_commit(&r16_type));
    MPISHMEM_MPI(MPI_Op_create(r16_max, 1, &r16_ops[0]));
    MPISHMEM_MPI(MPI_Op_create(r16_min, 1, &r16_ops[1]));
    MPISHMEM_MPI(MPI_Op_create(r16_sum, 1, &r16_ops[2]));
    MPISHMEM_MPI(MPI_Op_create(r16_prod, 1, &r16_ops[3]));
}

static void r16_to_all(const char *routine, int op, real16_t *target, const real16_t *source,
                       int nreduce, int PE_start, int logPE_stride, int PE_size,
                       real16_t *pWrk, mpishmem_fint *pSync)
{
    if (nreduce < 0)
        mpishmem_fatal(routine, "nreduce %d is negative", nreduce);
    mpishmem_coll_comm_t *c = mpishmem_active_set(routine, PE_start, logPE_stride, PE_size,
                                                  PSYNC(pSync), SHMEM_REDUCE_SYNC_SIZE);
    if (MPISHMEM_DEBUG_ON) {
        size_t wrk = (size_t)nreduce / 2 + 1;
        if (wrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE)
            wrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
        mpishmem_coll_check_symmetric(routine, "pWrk", pWrk, wrk * sizeof(real16_t));
    }
    pthread_once(&r16_once, r16_init);
    mpishmem_coll_reduce(routine, c, target, source, (size_t)nreduce, sizeof(real16_t),
                         r16_type, r16_ops[op]);
}

#define F_R16(OP, IDX)                                                                      \
    MPISHMEM_F(void, shmem_real16_##OP##_to_all,                                            \
               (real16_t *target, const real16_t *source, const mpishmem_fint *nreduce,     \
                const mpishmem_fint *PE_start, const mpishmem_fint *logPE_stride,           \
                const mpishmem_fint *PE_size, real16_t *pWrk, mpishmem_fint *pSync))        \
    {                                                                                       \
        r16_to_all("SHMEM_REAL16_" #OP "_TO_ALL", IDX, target, source, *nreduce, *PE_start, \
                   *logPE_stride, *PE_size, pWrk, pSync);                                   \
    }
F_R16(max, 0)
F_R16(min, 1)
F_R16(sum, 2)
F_R16(prod, 3)
#endif
