/*
 * mpishmem: collectives on device memory (a GPU space's buffers, or
 * shmem_malloc memory with SHMEM_DEFAULT_SPACE=GPU).
 *
 * A GPU-aware MPI (mpi_backend/gpu/gpu_path.h) takes device buffers as they
 * are; only the collectives' own local copies go through the runtime
 * (mpishmem_gpu_copy/zero).  Otherwise, and for reductions whose operation
 * is ours rather than MPI's (it would run on the CPU), the device buffers
 * are replaced by host copies for the MPI call and dest is copied back
 * after it.  Buffers that overlap share one host copy, so in-place forms
 * stay in place.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdlib.h>
#include "coll.h"

static void *host_copy(const char *routine, const void *dev, size_t n)
{
    void *h = malloc(n ? n : 1);
    if (h == NULL)
        mpishmem_fatal(routine, "out of memory for a %zu-byte host copy of device memory", n);
    mpishmem_gpu_copy(h, dev, n);
    return h;
}

void mpishmem_coll_stage_in(const char *routine, mpishmem_coll_stage_t *st, void **dest,
                            size_t dlen, const void **source, size_t slen, int force)
{
    st->block = st->src_block = NULL;
    st->dev_dest = NULL;
    int dd = dlen > 0 && mpishmem_gpu_is_device(*dest, dlen);
    int sd = slen > 0 && *source != MPI_IN_PLACE && mpishmem_gpu_is_device(*source, slen);
    if ((!dd && !sd) || (mpishmem_gpu_mpi_aware && !force))
        return;
    uintptr_t d = (uintptr_t)*dest, s = (uintptr_t)*source;
    if (dd && sd && d < s + slen && s < d + dlen) {
        uintptr_t lo = d < s ? d : s, hi = d + dlen > s + slen ? d + dlen : s + slen;
        char *h = st->block = host_copy(routine, (void *)lo, hi - lo);
        *dest = h + (d - lo);
        *source = h + (s - lo);
    } else {
        if (sd)
            *source = st->src_block = host_copy(routine, *source, slen);
        if (dd)
            *dest = st->block = host_copy(routine, *dest, dlen);
    }
    if (dd) {
        st->dev_dest = (void *)d;
        st->host_dest = *dest;
        st->dest_len = dlen;
    }
}

void mpishmem_coll_stage_out(mpishmem_coll_stage_t *st)
{
    if (st->dev_dest)
        mpishmem_gpu_copy(st->dev_dest, st->host_dest, st->dest_len);
    free(st->block);
    free(st->src_block);
}
