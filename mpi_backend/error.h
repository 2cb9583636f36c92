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
#include "runtime.h"

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

/* nelems * elem_size without wrapping; sizes past PTRDIFF_MAX usually mean a
 * negative count was passed as size_t. */
static inline size_t mpishmem_checked_bytes(const char *routine, size_t nelems, size_t elem)
{
    size_t bytes;
    if (MPISHMEM_UNLIKELY(__builtin_mul_overflow(nelems, elem, &bytes) ||
                          bytes > (size_t)PTRDIFF_MAX))
        mpishmem_fatal(routine, "element count %zu of %zu bytes is invalid "
                       "(overflow, or a negative count)", nelems, elem);
    return bytes;
}

#endif
