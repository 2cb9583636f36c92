/*
 * mpishmem: MPI_MAX and MPI_MIN on unsigned integers, where the MPI gets
 * them wrong.
 *
 * Some MPIs compare unsigned integers as signed in MPI_MAX/MPI_MIN: MPICH
 * 4.0.2 for every unsigned type (pmodels/mpich#6083), Open MPI 4.1.2-4.1.4
 * for MPI_UNSIGNED_LONG (open-mpi/ompi#10525; we use MPI_UINT64_T, which
 * it gets right).  The first max or min on an unsigned type probes the
 * MPI's own operation with MPI_Reduce_local; if the answer is wrong, a
 * user-defined operation replaces it.  Every PE runs the same MPI, so
 * every PE of a collective picks the same operation.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coll.h"
#include "../../mpi_backend/runtime/error.h"

#define PROBE_N 64 /* long enough to reach vectorized loops */

#define UNSIGNED_SIZES(X) X(8) X(16) X(32) X(64)

#define DEFINE_OPS(BITS)                                                                      \
    static void max##BITS(void *in, void *inout, int *len, MPI_Datatype *dt)                \
    {                                                                                       \
        const uint##BITS##_t *a = in;                                                       \
        uint##BITS##_t *b = inout;                                                          \
        (void)dt;                                                                           \
        for (int i = 0; i < *len; i++)                                                      \
            if (a[i] > b[i])                                                                \
                b[i] = a[i];                                                                \
    }                                                                                       \
    static void min##BITS(void *in, void *inout, int *len, MPI_Datatype *dt)                \
    {                                                                                       \
        const uint##BITS##_t *a = in;                                                       \
        uint##BITS##_t *b = inout;                                                          \
        (void)dt;                                                                           \
        for (int i = 0; i < *len; i++)                                                      \
            if (a[i] < b[i])                                                                \
                b[i] = a[i];                                                                \
    }                                                                                       \
    /* Whether MPI's max and min get a large and a small value right. */                   \
    static int probe##BITS(MPI_Datatype dt, MPI_Op op)                                      \
    {                                                                                       \
        uint##BITS##_t a[PROBE_N], b[PROBE_N];                                              \
        uint##BITS##_t big = (uint##BITS##_t)~(uint##BITS##_t)0 - 1;                        \
        for (int i = 0; i < PROBE_N; i++) {                                                 \
            a[i] = i % 2 ? big : 1;                                                         \
            b[i] = i % 2 ? 1 : big;                                                         \
        }                                                                                   \
        if (MPI_Reduce_local(a, b, PROBE_N, dt, op) != MPI_SUCCESS)                         \
            return 0;                                                                       \
        for (int i = 0; i < PROBE_N; i++)                                                   \
            if (b[i] != (op == MPI_MAX ? big : 1))                                          \
                return 0;                                                                   \
        return 1;                                                                           \
    }
UNSIGNED_SIZES(DEFINE_OPS)

enum { UNKNOWN = 0, MPI_IS_RIGHT, OWN_OP };

struct fix {
    MPI_Datatype dt;
    MPI_User_function *max, *min;
    int (*probe)(MPI_Datatype, MPI_Op);
    int state[2];        /* [0] max, [1] min */
    MPI_Op own[2];
};

static struct fix fixes[4];
static int fixes_ready;

static void fixes_init(void)
{
    MPI_Datatype dts[4] = {MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T};
    int k = 0;
#define FILL(BITS)                                                                            \
    fixes[k] = (struct fix){dts[k], max##BITS, min##BITS, probe##BITS, {UNKNOWN, UNKNOWN},  \
                            {MPI_OP_NULL, MPI_OP_NULL}};                                    \
    k++;
    UNSIGNED_SIZES(FILL)
#undef FILL
    fixes_ready = 1;
}

MPI_Op mpishmem_coll_minmax_op(const char *routine, MPI_Op op, MPI_Datatype dt)
{
    if (!fixes_ready)
        fixes_init();
    for (int k = 0; k < 4; k++) {
        struct fix *f = &fixes[k];
        if (f->dt != dt)
            continue;
        int m = op == MPI_MIN;
        if (f->state[m] == UNKNOWN) {
            if (f->probe(dt, op)) {
                f->state[m] = MPI_IS_RIGHT;
            } else {
                if (MPI_Op_create(m ? f->min : f->max, 1, &f->own[m]) != MPI_SUCCESS)
                    mpishmem_fatal(routine, "cannot create an unsigned %s operation",
                                   m ? "min" : "max");
                f->state[m] = OWN_OP;
            }
        }
        return f->state[m] == OWN_OP ? f->own[m] : op;
    }
    return op;
}

void mpishmem_coll_minmax_finalize(void)
{
    for (int k = 0; fixes_ready && k < 4; k++)
        for (int m = 0; m < 2; m++) {
            if (fixes[k].own[m] != MPI_OP_NULL)
                MPISHMEM_MPI(MPI_Op_free(&fixes[k].own[m]));
            fixes[k].state[m] = UNKNOWN;
        }
}
