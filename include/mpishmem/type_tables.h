/*
 * mpishmem: the one table of types behind every typed OpenSHMEM routine.
 *
 * Each table is an X-macro: X(TYPE, TYPENAME, A), where A is passed through
 * unchanged so one X macro can serve several routines (A names the routine).  The public header uses the
 * tables to declare the typed routines and to build the C11 _Generic
 * selections; the library uses the same tables to define them.  Adding a
 * type here adds every routine for it.
 *
 * The "GENERIC" tables hold the distinct C types, which may appear in a
 * _Generic association list; the "ALIAS" tables hold the fixed-width and
 * size types, which are typedefs of those on every ABI we know, so they get
 * their named routines but no _Generic entry of their own.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_TYPE_TABLES_H
#define MPISHMEM_TYPE_TABLES_H

/* Standard RMA types (OpenSHMEM 1.6, table "Standard RMA Types and Names"). */
#define MPISHMEM_RMA_GENERIC_TYPES(X, A)                                          \
    X(float, float, A)                                                            \
    X(double, double, A)                                                          \
    X(long double, longdouble, A)                                                 \
    X(char, char, A)                                                              \
    X(signed char, schar, A)                                                      \
    X(short, short, A)                                                            \
    X(int, int, A)                                                                \
    X(long, long, A)                                                              \
    X(long long, longlong, A)                                                     \
    X(unsigned char, uchar, A)                                                    \
    X(unsigned short, ushort, A)                                                  \
    X(unsigned int, uint, A)                                                      \
    X(unsigned long, ulong, A)                                                    \
    X(unsigned long long, ulonglong, A)

#define MPISHMEM_RMA_ALIAS_TYPES(X, A)                                            \
    X(int8_t, int8, A)                                                            \
    X(int16_t, int16, A)                                                          \
    X(int32_t, int32, A)                                                          \
    X(int64_t, int64, A)                                                          \
    X(uint8_t, uint8, A)                                                          \
    X(uint16_t, uint16, A)                                                        \
    X(uint32_t, uint32, A)                                                        \
    X(uint64_t, uint64, A)                                                        \
    X(size_t, size, A)                                                            \
    X(ptrdiff_t, ptrdiff, A)

#define MPISHMEM_RMA_TYPES(X, A) MPISHMEM_RMA_GENERIC_TYPES(X, A) MPISHMEM_RMA_ALIAS_TYPES(X, A)

/* Sized RMA routines: X(SIZE, element bytes, A).  SIZE is in bits. */
#define MPISHMEM_RMA_SIZES(X, A) X(8, 1, A) X(16, 2, A) X(32, 4, A) X(64, 8, A) X(128, 16, A)

/* Point-to-point synchronization types (table "Point-to-Point Synchronization Types"). */
#define MPISHMEM_P2P_GENERIC_TYPES(X, A)                                          \
    X(int, int, A)                                                                \
    X(long, long, A)                                                              \
    X(long long, longlong, A)                                                     \
    X(unsigned int, uint, A)                                                      \
    X(unsigned long, ulong, A)                                                    \
    X(unsigned long long, ulonglong, A)

#define MPISHMEM_P2P_ALIAS_TYPES(X, A)                                            \
    X(int32_t, int32, A)                                                          \
    X(int64_t, int64, A)                                                          \
    X(uint32_t, uint32, A)                                                        \
    X(uint64_t, uint64, A)                                                        \
    X(size_t, size, A)                                                            \
    X(ptrdiff_t, ptrdiff, A)

#define MPISHMEM_P2P_TYPES(X, A) MPISHMEM_P2P_GENERIC_TYPES(X, A) MPISHMEM_P2P_ALIAS_TYPES(X, A)

/* Deprecated: short and unsigned short exist only for wait_until and test. */
#define MPISHMEM_P2P_LEGACY_TYPES(X, A) X(short, short, A) X(unsigned short, ushort, A)

/* Deprecated shmem_TYPENAME_wait (wait while *ivar == value). */
#define MPISHMEM_WAIT_LEGACY_TYPES(X, A)                                          \
    X(short, short, A) X(int, int, A) X(long, long, A) X(long long, longlong, A)

/* AMO types (tables "Standard/Extended/Bitwise AMO Types and Names").
 * Standard: fetch_inc, inc, fetch_add, add, compare_swap.
 * Extended = standard + float/double: fetch, set, swap.
 * Bitwise: fetch_and/or/xor, and/or/xor. */
#define MPISHMEM_AMO_STD_GENERIC_TYPES(X, A)                                   \
    X(int, int, A)                                                             \
    X(long, long, A)                                                           \
    X(long long, longlong, A)                                                  \
    X(unsigned int, uint, A)                                                   \
    X(unsigned long, ulong, A)                                                 \
    X(unsigned long long, ulonglong, A)

#define MPISHMEM_AMO_STD_ALIAS_TYPES(X, A)                                     \
    X(int32_t, int32, A)                                                       \
    X(int64_t, int64, A)                                                       \
    X(uint32_t, uint32, A)                                                     \
    X(uint64_t, uint64, A)                                                     \
    X(size_t, size, A)                                                         \
    X(ptrdiff_t, ptrdiff, A)

#define MPISHMEM_AMO_STD_TYPES(X, A)                                           \
    MPISHMEM_AMO_STD_GENERIC_TYPES(X, A) MPISHMEM_AMO_STD_ALIAS_TYPES(X, A)

#define MPISHMEM_AMO_FLOAT_TYPES(X, A) X(float, float, A) X(double, double, A)

#define MPISHMEM_AMO_EXT_GENERIC_TYPES(X, A)                                   \
    MPISHMEM_AMO_STD_GENERIC_TYPES(X, A) MPISHMEM_AMO_FLOAT_TYPES(X, A)
#define MPISHMEM_AMO_EXT_TYPES(X, A)                                           \
    MPISHMEM_AMO_STD_TYPES(X, A) MPISHMEM_AMO_FLOAT_TYPES(X, A)

/* int32_t and int64_t are int and long, which no other bitwise entry uses,
 * so they may stand in a _Generic list; uint32_t/uint64_t may not. */
#define MPISHMEM_AMO_BIT_GENERIC_TYPES(X, A)                                   \
    X(unsigned int, uint, A)                                                   \
    X(unsigned long, ulong, A)                                                 \
    X(unsigned long long, ulonglong, A)                                        \
    X(int32_t, int32, A)                                                       \
    X(int64_t, int64, A)
#define MPISHMEM_AMO_BIT_ALIAS_TYPES(X, A) X(uint32_t, uint32, A) X(uint64_t, uint64, A)
#define MPISHMEM_AMO_BIT_TYPES(X, A)                                           \
    MPISHMEM_AMO_BIT_GENERIC_TYPES(X, A) MPISHMEM_AMO_BIT_ALIAS_TYPES(X, A)

/* Deprecated AMO names (shmem_TYPENAME_fadd, ...): cswap, fadd, finc, add,
 * inc exist for these; fetch, set and swap also for float and double. */
#define MPISHMEM_AMO_LEGACY_TYPES(X, A) X(int, int, A) X(long, long, A) X(long long, longlong, A)
#define MPISHMEM_AMO_LEGACY_EXT_TYPES(X, A)                                    \
    MPISHMEM_AMO_LEGACY_TYPES(X, A) MPISHMEM_AMO_FLOAT_TYPES(X, A)

/* Team-based reductions (table "Reduction Types, Names, and Supporting
 * Operations for Team-Based Reductions").  MAX and MIN: every integer and
 * real type below; SUM and PROD (and the scans): those and the complex
 * types; AND, OR and XOR: only the unsigned, fixed-width and size types.
 * The alias tables hold the typedefs, as for RMA. */
/* The arithmetic reduction types are exactly the standard RMA types. */
#define MPISHMEM_REDUCE_ARITH_GENERIC_TYPES(X, A) MPISHMEM_RMA_GENERIC_TYPES(X, A)
#define MPISHMEM_REDUCE_ARITH_ALIAS_TYPES(X, A) MPISHMEM_RMA_ALIAS_TYPES(X, A)

#define MPISHMEM_REDUCE_ARITH_TYPES(X, A)                                      \
    MPISHMEM_REDUCE_ARITH_GENERIC_TYPES(X, A) MPISHMEM_REDUCE_ARITH_ALIAS_TYPES(X, A)

/* Complex types exist for SUM and PROD only, and only where the compiler
 * has them (C without __STDC_NO_COMPLEX__, or GNU C++ as an extension). */
#if (!defined(__cplusplus) && !defined(__STDC_NO_COMPLEX__)) ||                \
    (defined(__cplusplus) && defined(__GNUC__))
#define MPISHMEM_HAVE_COMPLEX 1
#define MPISHMEM_REDUCE_COMPLEX_TYPES(X, A)                                    \
    X(float _Complex, complexf, A) X(double _Complex, complexd, A)
#else
#define MPISHMEM_REDUCE_COMPLEX_TYPES(X, A)
#endif

#define MPISHMEM_REDUCE_SUM_GENERIC_TYPES(X, A)                                \
    MPISHMEM_REDUCE_ARITH_GENERIC_TYPES(X, A) MPISHMEM_REDUCE_COMPLEX_TYPES(X, A)
#define MPISHMEM_REDUCE_SUM_TYPES(X, A)                                        \
    MPISHMEM_REDUCE_ARITH_TYPES(X, A) MPISHMEM_REDUCE_COMPLEX_TYPES(X, A)

/* int8_t..int64_t are signed char, short, int and long, which no other
 * bitwise entry uses, so they may stand in a _Generic list; the unsigned
 * fixed-width types and size_t alias entries that are already there. */
#define MPISHMEM_REDUCE_BIT_GENERIC_TYPES(X, A)                                \
    X(unsigned char, uchar, A)                                                 \
    X(unsigned short, ushort, A)                                               \
    X(unsigned int, uint, A)                                                   \
    X(unsigned long, ulong, A)                                                 \
    X(unsigned long long, ulonglong, A)                                        \
    X(int8_t, int8, A)                                                         \
    X(int16_t, int16, A)                                                       \
    X(int32_t, int32, A)                                                       \
    X(int64_t, int64, A)
#define MPISHMEM_REDUCE_BIT_ALIAS_TYPES(X, A)                                  \
    X(uint8_t, uint8, A)                                                       \
    X(uint16_t, uint16, A)                                                     \
    X(uint32_t, uint32, A)                                                     \
    X(uint64_t, uint64, A)                                                     \
    X(size_t, size, A)
#define MPISHMEM_REDUCE_BIT_TYPES(X, A)                                        \
    MPISHMEM_REDUCE_BIT_GENERIC_TYPES(X, A) MPISHMEM_REDUCE_BIT_ALIAS_TYPES(X, A)

/* Deprecated active-set reductions, shmem_TYPENAME_OP_to_all (table
 * "Reduction Types, Names and Supporting Operations for Active-Set-Based
 * Reductions"): AND, OR, XOR on the signed integers; MAX, MIN also on the
 * reals; SUM, PROD also on the complex types. */
#define MPISHMEM_TO_ALL_BIT_TYPES(X, A)                                        \
    X(short, short, A) X(int, int, A) X(long, long, A) X(long long, longlong, A)
#define MPISHMEM_TO_ALL_ARITH_TYPES(X, A)                                      \
    MPISHMEM_TO_ALL_BIT_TYPES(X, A)                                            \
    X(float, float, A) X(double, double, A) X(long double, longdouble, A)
#define MPISHMEM_TO_ALL_SUM_TYPES(X, A)                                        \
    MPISHMEM_TO_ALL_ARITH_TYPES(X, A) MPISHMEM_REDUCE_COMPLEX_TYPES(X, A)

#endif
