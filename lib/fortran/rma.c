/*
 * mpishmem Fortran: puts and gets, contiguous and strided, generated from
 * the Fortran type tables (fortran.h).  Every routine is the C sized
 * routine of the element's width; strides and counts are default INTEGER.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "fortran.h"

#define F_PUTGET(NAME, BITS)                                                              \
    MPISHMEM_F(void, NAME##_put, (void *target, const void *source,                       \
                                  const mpishmem_fint *nelems, const mpishmem_fint *pe))  \
    {                                                                                     \
        shmem_put##BITS(target, source, (size_t)*nelems, *pe);                            \
    }                                                                                     \
    MPISHMEM_F(void, NAME##_get, (void *target, const void *source,                       \
                                  const mpishmem_fint *nelems, const mpishmem_fint *pe))  \
    {                                                                                     \
        shmem_get##BITS(target, source, (size_t)*nelems, *pe);                            \
    }
#define F_STRIDED(NAME, BITS)                                                             \
    MPISHMEM_F(void, NAME##_iput, (void *target, const void *source,                      \
                                   const mpishmem_fint *tst, const mpishmem_fint *sst,    \
                                   const mpishmem_fint *nelems, const mpishmem_fint *pe)) \
    {                                                                                     \
        shmem_iput##BITS(target, source, *tst, *sst, (size_t)*nelems, *pe);               \
    }                                                                                     \
    MPISHMEM_F(void, NAME##_iget, (void *target, const void *source,                      \
                                   const mpishmem_fint *tst, const mpishmem_fint *sst,    \
                                   const mpishmem_fint *nelems, const mpishmem_fint *pe)) \
    {                                                                                     \
        shmem_iget##BITS(target, source, *tst, *sst, (size_t)*nelems, *pe);               \
    }

/* SHMEM_INTEGER_PUT, SHMEM_REAL_IGET, ... and SHMEM_CHARACTER_PUT/GET. */
#define F_TYPED(FNAME, BITS, A) F_PUTGET(shmem_##FNAME, BITS) F_STRIDED(shmem_##FNAME, BITS)
MPISHMEM_F_RMA_TYPES(F_TYPED, _)
#define F_TYPED_CHAR(FNAME, BITS, A) F_PUTGET(shmem_##FNAME, BITS)
MPISHMEM_F_RMA_CHAR(F_TYPED_CHAR, _)

/* SHMEM_PUT4 ... SHMEM_IGET128: the names are shmem_put4, not shmem_4_put. */
#define F_SIZED(SUFFIX, BITS, A)                                                          \
    MPISHMEM_F(void, shmem_put##SUFFIX, (void *target, const void *source,                \
                                         const mpishmem_fint *nelems,                     \
                                         const mpishmem_fint *pe))                        \
    {                                                                                     \
        shmem_put##BITS(target, source, (size_t)*nelems, *pe);                            \
    }                                                                                     \
    MPISHMEM_F(void, shmem_get##SUFFIX, (void *target, const void *source,                \
                                         const mpishmem_fint *nelems,                     \
                                         const mpishmem_fint *pe))                        \
    {                                                                                     \
        shmem_get##BITS(target, source, (size_t)*nelems, *pe);                            \
    }                                                                                     \
    MPISHMEM_F(void, shmem_iput##SUFFIX, (void *target, const void *source,               \
                                          const mpishmem_fint *tst,                       \
                                          const mpishmem_fint *sst,                       \
                                          const mpishmem_fint *nelems,                    \
                                          const mpishmem_fint *pe))                       \
    {                                                                                     \
        shmem_iput##BITS(target, source, *tst, *sst, (size_t)*nelems, *pe);               \
    }                                                                                     \
    MPISHMEM_F(void, shmem_iget##SUFFIX, (void *target, const void *source,               \
                                          const mpishmem_fint *tst,                       \
                                          const mpishmem_fint *sst,                       \
                                          const mpishmem_fint *nelems,                    \
                                          const mpishmem_fint *pe))                       \
    {                                                                                     \
        shmem_iget##BITS(target, source, *tst, *sst, (size_t)*nelems, *pe);               \
    }
MPISHMEM_F_RMA_SIZES(F_SIZED, _)

/* SHMEM_PUT and SHMEM_GET move 64-bit words, as on the Cray systems the
 * interface comes from; PUTMEM and GETMEM move bytes. */
F_PUTGET(shmem, 64)
MPISHMEM_F(void, shmem_putmem, (void *target, const void *source, const mpishmem_fint *nelems,
                                const mpishmem_fint *pe))
{
    shmem_putmem(target, source, (size_t)*nelems, *pe);
}
MPISHMEM_F(void, shmem_getmem, (void *target, const void *source, const mpishmem_fint *nelems,
                                const mpishmem_fint *pe))
{
    shmem_getmem(target, source, (size_t)*nelems, *pe);
}
