/*
 * mpishmem Fortran: puts and gets, contiguous (blocking and NBI) and
 * strided, generated from the Fortran type tables (fortran.h).  Every
 * routine is the C sized routine of the element's width; strides and
 * counts are default INTEGER.
 *
 * The Fortran name is always pasted inside the macro that defines it:
 * a name passed on as a plain macro argument would be expanded, and the
 * profiling rename (shmem_putmem -> pshmem_putmem) would reach the symbol.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "fortran.h"

/* NAME_ (PRE##POST) moves nelems elements with the C routine CFUNC. */
#define F_MOVE(PRE, POST, CFUNC)                                                          \
    MPISHMEM_F(void, PRE##POST, (void *target, const void *source,                        \
                                 const mpishmem_fint *nelems, const mpishmem_fint *pe))   \
    {                                                                                     \
        CFUNC(target, source, (size_t)*nelems, *pe);                                      \
    }
#define F_STRIDE(PRE, POST, CFUNC)                                                        \
    MPISHMEM_F(void, PRE##POST, (void *target, const void *source,                        \
                                 const mpishmem_fint *tst, const mpishmem_fint *sst,      \
                                 const mpishmem_fint *nelems, const mpishmem_fint *pe))   \
    {                                                                                     \
        CFUNC(target, source, *tst, *sst, (size_t)*nelems, *pe);                          \
    }

/* SHMEM_INTEGER_PUT, SHMEM_REAL_GET_NBI, SHMEM_DOUBLE_IGET, ... */
#define F_TYPED_CONTIG(FNAME, BITS, A)                                                    \
    F_MOVE(shmem_##FNAME, _put, shmem_put##BITS)                                          \
    F_MOVE(shmem_##FNAME, _get, shmem_get##BITS)                                          \
    F_MOVE(shmem_##FNAME, _put_nbi, shmem_put##BITS##_nbi)                                \
    F_MOVE(shmem_##FNAME, _get_nbi, shmem_get##BITS##_nbi)
#define F_TYPED(FNAME, BITS, A)                                                           \
    F_TYPED_CONTIG(FNAME, BITS, A)                                                        \
    F_STRIDE(shmem_##FNAME, _iput, shmem_iput##BITS)                                      \
    F_STRIDE(shmem_##FNAME, _iget, shmem_iget##BITS)
MPISHMEM_F_RMA_TYPES(F_TYPED, _)
/* CHARACTER: no strided forms. */
MPISHMEM_F_RMA_CHAR(F_TYPED_CONTIG, _)

/* SHMEM_PUT4 ... SHMEM_IGET128 (the names are shmem_put4, not shmem_4_put)
 * and SHMEM_PUT4_NBI ... SHMEM_GET128_NBI. */
#define F_SIZED(SUFFIX, BITS, A)                                                          \
    F_MOVE(shmem_put, SUFFIX, shmem_put##BITS)                                            \
    F_MOVE(shmem_get, SUFFIX, shmem_get##BITS)                                            \
    F_STRIDE(shmem_iput, SUFFIX, shmem_iput##BITS)                                        \
    F_STRIDE(shmem_iget, SUFFIX, shmem_iget##BITS)
MPISHMEM_F_RMA_SIZES(F_SIZED, _)
#define F_SIZED_NBI(SUFFIX, BITS, A)                                                      \
    F_MOVE(shmem_put, SUFFIX##_nbi, shmem_put##BITS##_nbi)                                \
    F_MOVE(shmem_get, SUFFIX##_nbi, shmem_get##BITS##_nbi)
MPISHMEM_F_NBI_SIZES(F_SIZED_NBI, _)

/* SHMEM_PUT and SHMEM_GET move 64-bit words, as on the Cray systems the
 * interface comes from; PUTMEM and GETMEM (and their NBI forms) bytes. */
F_MOVE(shmem, _put, shmem_put64)
F_MOVE(shmem, _get, shmem_get64)
F_MOVE(shmem, _putmem, shmem_putmem)
F_MOVE(shmem, _getmem, shmem_getmem)
F_MOVE(shmem, _putmem_nbi, shmem_putmem_nbi)
F_MOVE(shmem, _getmem_nbi, shmem_getmem_nbi)
