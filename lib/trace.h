/*
 * mpishmem: the communication map (MPISHMEM_TRACE=file, docs/tools.md).
 *
 * When the variable is set, every PE counts operations and bytes to each
 * target PE by kind; shmem_finalize gathers the counts on PE 0, which
 * writes them as CSV.  When it is unset the only cost is the one
 * predictable branch of MPISHMEM_TRACE_ON at each entry point; the counting
 * itself is out of line and cold.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_TRACE_H
#define MPISHMEM_TRACE_H

#include <stddef.h>
#include <mpi.h>
#include <shmem.h>
#include "../mpi_backend/runtime/runtime.h"

enum mpishmem_trace_kind {
    MPISHMEM_TRACE_PUT,
    MPISHMEM_TRACE_GET,
    MPISHMEM_TRACE_AMO,
    MPISHMEM_TRACE_SIGNAL,
    MPISHMEM_TRACE_COLL,
    MPISHMEM_TRACE_KINDS
};

/* Set by shmem_init from MPISHMEM_TRACE (PE 0's value), cleared at finalize.
 * Hidden: read PC-relative, not through the shared library's GOT. */
extern int mpishmem_trace_on __attribute__((visibility("hidden")));
#define MPISHMEM_TRACE_ON MPISHMEM_UNLIKELY(mpishmem_trace_on)

/* One operation of `kind` moving `bytes` to `pe` (numbered in ctx's team).
 * Called before the data path, so that stays a tail call: arguments the
 * data path will reject are not counted (it stops the job anyway), nor are
 * SHMEM_CTX_INVALID and zero-byte transfers, which do nothing. */
void mpishmem_trace_op(const char *routine, shmem_ctx_t ctx, int pe, int kind, size_t bytes)
    __attribute__((cold));

/* One collective call on comm: one operation to every other member, with
 * `bytes` to each (root < 0), or, for a rooted call, `bytes` from the root
 * and 0 from the others. */
void mpishmem_trace_coll(MPI_Comm comm, int root, size_t bytes) __attribute__((cold));

/* shmem_init (collective, after the world communicator exists) and
 * shmem_finalize (collective, before any communicator is freed). */
void mpishmem_trace_init(void);
void mpishmem_trace_finalize(void);

#endif
