/*
 * mpishmem: fatal errors and the SHMEM_DEBUG argument checks.
 *
 * Every message has the form "mpishmem: <routine>: <problem>", then the
 * whole job stops with a non-zero status.  Checks that guard memory safety
 * (PE range, symmetric address) always run: they cost one predictable
 * branch.  The exhaustive ones run only when SHMEM_DEBUG is set.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_ERROR_H
#define MPISHMEM_ERROR_H

#include <stddef.h>
#include <stdint.h>
#include "runtime.h"
#include "env_parse.h"

/* Stops the whole job with status 1 once the message is on stderr. */
void mpishmem_stop_job(void) __attribute__((noreturn, cold));
void mpishmem_fatal(const char *routine, const char *fmt, ...)
    __attribute__((noreturn, cold, format(printf, 2, 3)));

/* The name a message shows for `routine`.  The library is compiled with
 * every API name renamed to its profiling name (pshmem_put, pshmalloc,
 * pstart_pes, ...), so __func__ says "pshmem_put" even when the user called
 * shmem_put; messages name the routine as the user knows it. */
static inline const char *mpishmem_api_name(const char *routine)
{
    if (routine[0] == 'p' &&
        ((routine[1] == 's' && routine[2] == 'h') || routine[1] == '_' ||
         __builtin_strcmp(routine, "pstart_pes") == 0))
        return routine + 1;
    return routine;
}

/* The one MPI error rule (docs/checks.md, "MPI errors").  The library's
 * communicators and windows return MPI errors to the library instead of
 * aborting inside MPI, and every MPI call it makes is either wrapped here
 * or uses its return value where it stands (saying why);
 * test/errors/mpi_rule.py checks the sources.  A failure stops the job with
 * "mpishmem: <routine>: <MPI call> failed: <MPI's error string>", where
 * <routine> is the OpenSHMEM routine or the library function that made the
 * call. */
void mpishmem_mpi_failed(const char *routine, const char *call, int rc)
    __attribute__((noreturn, cold));
#define MPISHMEM_MPI(call) MPISHMEM_MPI_IN(__func__, call)
#define MPISHMEM_MPI_IN(routine, call)                                                     \
    do {                                                                                   \
        int mpishmem_rc_ = (call);                                                         \
        if (MPISHMEM_UNLIKELY(mpishmem_rc_ != MPI_SUCCESS))                                \
            mpishmem_mpi_failed(routine, #call, mpishmem_rc_);                             \
    } while (0)

/* Explains why a routine was called at the wrong time and stops. */
void mpishmem_fatal_state(const char *routine) __attribute__((noreturn, cold));
void mpishmem_fatal_pe(const char *routine, int pe) __attribute__((noreturn, cold));
void mpishmem_fatal_address(const char *routine, const void *addr, size_t len, int pe)
    __attribute__((noreturn, cold));

#define MPISHMEM_DEBUG_ON MPISHMEM_UNLIKELY(mpishmem_rt.debug)

/* Stops if the library is not between shmem_init and shmem_finalize. */
static inline void mpishmem_check_running(const char *routine)
{
    if (MPISHMEM_UNLIKELY(mpishmem_rt.state != MPISHMEM_RUNNING))
        mpishmem_fatal_state(routine);
}

static inline void mpishmem_check_pe(const char *routine, int pe)
{
    if (MPISHMEM_UNLIKELY((unsigned)pe >= (unsigned)mpishmem_rt.n_pes))
        mpishmem_fatal_pe(routine, pe);
}

void mpishmem_fatal_count(const char *routine, const char *name, size_t n, size_t elem)
    __attribute__((noreturn, cold));
void mpishmem_fatal_strided(const char *routine, int is_put, ptrdiff_t tst, ptrdiff_t lst,
                            size_t elem, size_t bsize, size_t nblocks)
    __attribute__((noreturn, cold));

/* n * elem without wrapping, for the user's count argument `name` (nelems,
 * nreduce, ...); sizes past PTRDIFF_MAX usually mean a negative count was
 * passed as size_t. */
static inline size_t mpishmem_checked_count(const char *routine, const char *name, size_t n,
                                            size_t elem)
{
    size_t bytes;
    if (MPISHMEM_UNLIKELY(__builtin_mul_overflow(n, elem, &bytes) ||
                          bytes > (size_t)PTRDIFF_MAX))
        mpishmem_fatal_count(routine, name, n, elem);
    return bytes;
}

static inline size_t mpishmem_checked_bytes(const char *routine, size_t nelems, size_t elem)
{
    return mpishmem_checked_count(routine, "nelems", nelems, elem);
}

/* |x| of a stride, in size_t so PTRDIFF_MIN does not overflow. */
static inline size_t mpishmem_stride_abs(ptrdiff_t x)
{
    return x < 0 ? -(size_t)x : (size_t)x;
}

/* Bytes spanned by nblocks blocks of bsize elements of `elem` bytes, the
 * blocks `stride` elements apart: ((nblocks - 1) * |stride| + bsize) * elem.
 * Sets *bad when a step wraps or the span passes PTRDIFF_MAX (so every
 * offset i * stride * elem of the transfer fits a ptrdiff_t). */
static inline size_t mpishmem_strided_extent(size_t nblocks, ptrdiff_t stride, size_t bsize,
                                             size_t elem, int *bad)
{
    size_t blocks, span;
    int o = __builtin_mul_overflow(nblocks - 1, mpishmem_stride_abs(stride), &blocks);
    o |= __builtin_add_overflow(blocks, bsize, &blocks);
    o |= __builtin_mul_overflow(blocks, elem, &span);
    *bad |= o | (span > (size_t)PTRDIFF_MAX);
    return span;
}

/* mpishmem_env_shown: env_parse.h. */

#endif
