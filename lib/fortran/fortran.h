/*
 * mpishmem: the OpenSHMEM Fortran interface (1.0 through 1.4, and the
 * SGI/Cray-era routines public codes still call), as thin C shells.
 *
 * Fortran passes every argument by reference, so each shell dereferences
 * its scalars and calls the C routine that does the work.  Names follow
 * gfortran (and g77 -fno-second-underscore, ifort, flang): lower case plus
 * one trailing underscore.  Each shell also gets a two-underscore alias
 * (g77's default for names that contain an underscore, which all of ours
 * do); no alias without an underscore, because those are the names of the
 * C routines (shmem_put32, shmem_barrier_all, ...) with other arguments.
 * docs/fortran.md records the decisions.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_FORTRAN_H
#define MPISHMEM_FORTRAN_H

#include <stddef.h>
#include <stdint.h>
#include <shmem.h>

/* Default INTEGER and LOGICAL are 4 bytes (gfortran without
 * -fdefault-integer-8); .TRUE. is 1. */
typedef int32_t mpishmem_fint;
typedef int32_t mpishmem_flogical;

/* Defines the Fortran entry NAME_ (and its alias NAME__):
 *   MPISHMEM_F(void, shmem_fence, (void)) { ... } */
#define MPISHMEM_F(RET, NAME, PARAMS)                                          \
    RET NAME##_ PARAMS;                                                        \
    RET NAME##__ PARAMS __attribute__((alias(#NAME "_")));                     \
    RET NAME##_ PARAMS

/* ---- Type tables ------------------------------------------------------------
 * Typed RMA: X(fortran name, bits per element, A).  COMPLEX is the default
 * complex (two REALs), LOGICAL the default logical; CHARACTER elements are
 * characters (the hidden length arguments gfortran appends are ignored). */
#define MPISHMEM_F_RMA_TYPES(X, A)                                             \
    X(complex, 64, A) X(double, 64, A) X(integer, 32, A) X(logical, 32, A)     \
    X(real, 32, A)
#define MPISHMEM_F_RMA_CHAR(X, A) X(character, 8, A)

/* Sized routines: X(suffix, C bits, A).  The Fortran suffix counts bytes
 * for 4 and 8, bits for 16, 32, 64 and 128.  BROADCAST, COLLECT and
 * FCOLLECT come in 4, 8, 32 and 64; the puts and gets, blocking and NBI,
 * also in 128; the blocking and strided ones also in 16 (Cray: 16-bit
 * elements, the INTEGER*2 transfers); ALLTOALL(S) only in 32 and 64. */
#define MPISHMEM_F_SIZES(X, A) X(4, 32, A) X(8, 64, A) X(32, 32, A) X(64, 64, A)
#define MPISHMEM_F_NBI_SIZES(X, A) MPISHMEM_F_SIZES(X, A) X(128, 128, A)
#define MPISHMEM_F_RMA_SIZES(X, A) MPISHMEM_F_NBI_SIZES(X, A) X(16, 16, A)
#define MPISHMEM_F_ALLTOALL_SIZES(X, A) X(32, 32, A) X(64, 64, A)

/* Integer AMOs and waits: X(fortran kind name, C type, C type name, A).
 * SWAP, FETCH and SET also cover the reals. */
#define MPISHMEM_F_AMO_INT_TYPES(X, A)                                         \
    X(int4, int32_t, int32, A) X(int8, int64_t, int64, A)
#define MPISHMEM_F_AMO_REAL_TYPES(X, A)                                        \
    X(real4, float, float, A) X(real8, double, double, A)

/* Active-set reductions: X(fortran kind name, C type, C type name, OP).
 * INTEGER*2 (the Cray-era INT2 routines) is C short; COMPLEX*8 and
 * COMPLEX*16 are two REAL*4 or REAL*8, as C's float and double _Complex. */
#define MPISHMEM_F_TO_ALL_INT(X, OP)                                           \
    X(int2, short, short, OP) X(int4, int, int, OP) X(int8, long, long, OP)
#define MPISHMEM_F_TO_ALL_REAL(X, OP) X(real4, float, float, OP) X(real8, double, double, OP)
#define MPISHMEM_F_TO_ALL_COMPLEX(X, OP)                                       \
    X(comp4, float _Complex, complexf, OP) X(comp8, double _Complex, complexd, OP)

/* The version the Fortran interface implements: 1.4, the last
 * specification with a Fortran binding (shmem.fh says the same). */
#define MPISHMEM_F_MAJOR_VERSION 1
#define MPISHMEM_F_MINOR_VERSION 4

#endif
