/*
 * mpishmem: the MPI side of the data path (targets we cannot load/store).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "rma_path.h"

void mpishmem_mpi_put_bytes(mpishmem_segment_t *s, const void *src, size_t n, int pe,
                            size_t off)
{
    const char *p = src;
    while (n > 0) {
        size_t c = n < MPISHMEM_MPI_CHUNK ? n : MPISHMEM_MPI_CHUNK;
        MPI_Put(p, (int)c, MPI_BYTE, mpishmem_segment_rank(s, pe), (MPI_Aint)off, (int)c,
                MPI_BYTE, s->win);
        p += c;
        off += c;
        n -= c;
    }
}

void mpishmem_mpi_get_bytes(mpishmem_segment_t *s, void *dst, size_t n, int pe, size_t off)
{
    char *p = dst;
    while (n > 0) {
        size_t c = n < MPISHMEM_MPI_CHUNK ? n : MPISHMEM_MPI_CHUNK;
        MPI_Get(p, (int)c, MPI_BYTE, mpishmem_segment_rank(s, pe), (MPI_Aint)off, (int)c,
                MPI_BYTE, s->win);
        p += c;
        off += c;
        n -= c;
    }
}

/* A committed type of `count` blocks of `bsize` elements, `stride` elements
 * apart.  The caller frees it; MPI keeps it alive until the operation ends. */
static MPI_Datatype strided_type(size_t count, size_t bsize, ptrdiff_t stride, size_t elem)
{
    MPI_Datatype element, vec;
    MPI_Type_contiguous((int)elem, MPI_BYTE, &element);
    MPI_Type_create_hvector((int)count, (int)bsize, (MPI_Aint)stride * (MPI_Aint)elem, element,
                            &vec);
    MPI_Type_commit(&vec);
    MPI_Type_free(&element);
    return vec;
}

void mpishmem_mpi_strided(mpishmem_segment_t *s, int is_put, char *local, size_t off,
                          ptrdiff_t tst, ptrdiff_t lst, size_t elem, size_t bsize,
                          size_t nblocks, int pe)
{
    /* Blocks too large for one int count go one contiguous block at a time. */
    if (bsize * elem > (size_t)INT_MAX) {
        for (size_t i = 0; i < nblocks; i++) {
            char *l = local + (ptrdiff_t)i * lst * (ptrdiff_t)elem;
            size_t o = off + (size_t)((ptrdiff_t)i * tst * (ptrdiff_t)elem);
            if (is_put)
                mpishmem_mpi_put_bytes(s, l, bsize * elem, pe, o);
            else
                mpishmem_mpi_get_bytes(s, l, bsize * elem, pe, o);
        }
        return;
    }
    const size_t max_blocks = INT_MAX;
    while (nblocks > 0) {
        size_t c = nblocks < max_blocks ? nblocks : max_blocks;
        MPI_Datatype ltype = strided_type(c, bsize, lst, elem);
        MPI_Datatype ttype = strided_type(c, bsize, tst, elem);
        if (is_put)
            MPI_Put(local, 1, ltype, mpishmem_segment_rank(s, pe), (MPI_Aint)off, 1, ttype, s->win);
        else
            MPI_Get(local, 1, ltype, mpishmem_segment_rank(s, pe), (MPI_Aint)off, 1, ttype, s->win);
        MPI_Type_free(&ltype);
        MPI_Type_free(&ttype);
        local += (ptrdiff_t)c * lst * (ptrdiff_t)elem;
        off += (size_t)((ptrdiff_t)c * tst * (ptrdiff_t)elem);
        nblocks -= c;
    }
}
