/*
 * mpishmem: small collectives of a team whose PEs share one node, through
 * the slots of its node-shared object (mpi_backend/progress/node_barrier.h): each
 * PE writes its part into its slot, all wait in the object's barrier, and
 * each PE reads what it needs from every slot.  One barrier instead of an
 * MPI collective's rounds, each of which waits for a PE to be scheduled
 * when PEs outnumber cores (docs/collectives.md, "Small collectives").
 *
 * Every PE of the team decides alike whether to come here: the object
 * exists on all or none, and the sizes these routines test are the same on
 * every PE (collect, whose sizes differ, decides after the barrier from
 * what every PE wrote).  Reductions combine the slots in member order
 * (natively for the common types, else with MPI_Reduce_local), so every
 * PE computes the same result bit for bit.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <string.h>
#include "coll.h"
#include "../../mpi_backend/progress/node_barrier.h"

/* A copy between host or device buffers (device memory only while a GPU
 * space exists). */
static inline void copy(void *dst, const void *src, size_t n)
{
    if (MPISHMEM_UNLIKELY(mpishmem_gpu_on))
        mpishmem_gpu_copy(dst, src, n);
    else
        memmove(dst, src, n);
}

/* inout[k] = in[k] op inout[k], as MPI_Reduce_local computes it, for the
 * fixed-size integer and the real types and MPI's predefined operations;
 * 0 for any other (MPI_Reduce_local then).  MPI_Reduce_local cost 350 ns a
 * call at 8 PEs (MPICH, 16-core VM), most of an 8-byte reduction.  Integer
 * sums and products wrap, computed unsigned; max and min compare in the
 * type itself, so unsigned ones are right here (unsigned_minmax.c). */
#define LOOP(T, EXPR)                                                                        \
    do {                                                                                     \
        T *o = inout;                                                                        \
        const T *x = in;                                                                     \
        for (int k = 0; k < count; k++) {                                                    \
            T a = x[k], b = o[k];                                                            \
            o[k] = (T)(EXPR);                                                                \
        }                                                                                    \
        return 1;                                                                            \
    } while (0)
#define ORDER(T)                                                                             \
    if (op == MPI_MAX)                                                                       \
        LOOP(T, a > b ? a : b);                                                              \
    if (op == MPI_MIN)                                                                       \
        LOOP(T, a < b ? a : b);
#define INTEGER(T, U)                                                                        \
    if (dt == MPI_##T##_T || dt == MPI_##U##_T) {                                            \
        if (op == MPI_SUM)                                                                   \
            LOOP(U##_t, (U##_t)(a + b));                                                     \
        if (op == MPI_PROD)                                                                  \
            LOOP(U##_t, (U##_t)(a * b));                                                     \
        if (op == MPI_BAND)                                                                  \
            LOOP(U##_t, a & b);                                                              \
        if (op == MPI_BOR)                                                                   \
            LOOP(U##_t, a | b);                                                              \
        if (op == MPI_BXOR)                                                                  \
            LOOP(U##_t, a ^ b);                                                              \
        if (dt == MPI_##T##_T) {                                                             \
            ORDER(T##_t)                                                                     \
        } else {                                                                             \
            ORDER(U##_t)                                                                     \
        }                                                                                    \
        return 0;                                                                            \
    }
#define REAL(T, DT)                                                                          \
    if (dt == DT) {                                                                          \
        if (op == MPI_SUM)                                                                   \
            LOOP(T, a + b);                                                                  \
        if (op == MPI_PROD)                                                                  \
            LOOP(T, a * b);                                                                  \
        ORDER(T)                                                                             \
        return 0;                                                                            \
    }
typedef int8_t INT8_t;
typedef uint8_t UINT8_t;
typedef int16_t INT16_t;
typedef uint16_t UINT16_t;
typedef int32_t INT32_t;
typedef uint32_t UINT32_t;
typedef int64_t INT64_t;
typedef uint64_t UINT64_t;

static int combine_native(void *inout, const void *in, int count, MPI_Datatype dt, MPI_Op op)
{
    INTEGER(INT64, UINT64)
    INTEGER(INT32, UINT32)
    REAL(double, MPI_DOUBLE)
    REAL(float, MPI_FLOAT)
    INTEGER(INT16, UINT16)
    INTEGER(INT8, UINT8)
    return 0;
}
#undef LOOP
#undef ORDER
#undef INTEGER
#undef REAL

void mpishmem_coll_combine(void *inout, const void *in, int count, MPI_Datatype dt, MPI_Op op,
                           MPI_Op mpi_op)
{
    if (!combine_native(inout, in, count, dt, op))
        MPISHMEM_MPI(MPI_Reduce_local(in, inout, count, dt, mpi_op));
}

/* dest (host memory) <- the reduction of the first `upto` members' slots
 * of the barrier just passed, in member order. */
static void combine(mpishmem_node_barrier_t *b, void *dest, int upto, int count, size_t bytes,
                    MPI_Datatype dt, MPI_Op op, MPI_Op mpi_op)
{
    memcpy(dest, mpishmem_node_slot(b, 0, 0), bytes);
    for (int i = 1; i < upto; i++)
        mpishmem_coll_combine(dest, mpishmem_node_slot(b, i, 0), count, dt, op, mpi_op);
}

void mpishmem_coll_small_reduce(mpishmem_node_barrier_t *b, mpishmem_coll_comm_t *c,
                                void *dest, const void *send, int count, size_t bytes,
                                MPI_Datatype dt, MPI_Op op, MPI_Op mpi_op,
                                enum mpishmem_small_reduce kind)
{
    memcpy(mpishmem_node_slot(b, c->me, 1), send == MPI_IN_PLACE ? dest : send, bytes);
    mpishmem_node_barrier_wait(b);
    switch (kind) {
    case MPISHMEM_SMALL_ALLREDUCE:
        combine(b, dest, c->n, count, bytes, dt, op, mpi_op);
        break;
    case MPISHMEM_SMALL_INSCAN:
        combine(b, dest, c->me + 1, count, bytes, dt, op, mpi_op);
        break;
    case MPISHMEM_SMALL_EXSCAN: /* PE 0's result is set by the caller */
        if (c->me > 0)
            combine(b, dest, c->me, count, bytes, dt, op, mpi_op);
        break;
    }
}

void mpishmem_coll_small_fcollect(mpishmem_node_barrier_t *b, mpishmem_coll_comm_t *c,
                                  void *dest, const void *source, size_t bytes)
{
    copy(mpishmem_node_slot(b, c->me, 1), source, bytes);
    mpishmem_node_barrier_wait(b);
    for (int i = 0; i < c->n; i++)
        copy((char *)dest + (size_t)i * bytes, mpishmem_node_slot(b, i, 0), bytes);
}

void mpishmem_coll_small_broadcast(mpishmem_node_barrier_t *b, mpishmem_coll_comm_t *c,
                                   void *dest, const void *source, size_t bytes, int root,
                                   int root_dest)
{
    if (c->me == root)
        copy(mpishmem_node_slot(b, root, 1), source, bytes);
    mpishmem_node_barrier_wait(b);
    if (c->me != root || (root_dest && dest != source))
        copy(dest, mpishmem_node_slot(b, root, 0), bytes);
}

/* A collect slot: the byte count, this PE's record for the large path
 * (coll_large.c), then the bytes if they fit.  The caller sets c->displs
 * from c->counts before _finish. */
#define COLLECT_ROOM MPISHMEM_COLL_COLLECT_ROOM
#define COLLECT_DATA (sizeof(uint64_t) + MPISHMEM_COLL_RECORD)

int mpishmem_coll_small_collect_start(mpishmem_node_barrier_t *b, mpishmem_coll_comm_t *c,
                                      const void *record, const void *source,
                                      size_t bytes, size_t esize)
{
    char *mine = mpishmem_node_slot(b, c->me, 1);
    uint64_t len = bytes;
    memcpy(mine, &len, sizeof len);
    memcpy(mine + sizeof len, record, MPISHMEM_COLL_RECORD);
    if (bytes <= COLLECT_ROOM)
        copy(mine + COLLECT_DATA, source, bytes);
    mpishmem_node_barrier_wait(b);
    /* Every PE reads the same counts: all of them finish here, or none. */
    int fits = 1;
    for (int i = 0; i < c->n; i++) {
        memcpy(&len, mpishmem_node_slot(b, i, 0), sizeof len);
        fits = fits && len <= COLLECT_ROOM;
        c->counts[i] = (int)(len / esize); /* each PE checked its count against INT_MAX */
    }
    return fits;
}

void mpishmem_coll_small_collect_finish(mpishmem_node_barrier_t *b, mpishmem_coll_comm_t *c,
                                        void *dest, size_t esize)
{
    for (int i = 0; i < c->n; i++)
        copy((char *)dest + (size_t)c->displs[i] * esize,
             mpishmem_node_slot(b, i, 0) + COLLECT_DATA, (size_t)c->counts[i] * esize);
}
