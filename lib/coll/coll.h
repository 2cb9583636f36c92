/*
 * mpishmem: the collectives layer.
 *
 * Every collective is one MPI collective on a communicator: a team's own
 * communicator, or for the deprecated active-set routines a communicator
 * made once per (PE_start, logPE_stride, PE_size) and cached
 * (active_set.c).  Data moves through MPI on the PEs' local buffers, so it
 * needs no RMA; the MPI datatype and operation are the ones matching the C
 * type, so reductions are done by MPI.
 *
 * When every PE of the communicator has a core of its own, a routine
 * calls the blocking MPI collective.  When PEs outnumber cores, where the
 * blocking calls spin for milliseconds, it starts the non-blocking form and
 * polls it (mpishmem_coll_wait): the polls keep MPI (and so RMA aimed at
 * this PE) progressing and give the core away.  The choice is made alike
 * on every PE of the communicator, when its team or active set is made
 * (teams/team_plan.h, mpishmem_coll_blocking);
 * docs/collectives.md has the measurements behind both choices.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_COLL_H
#define MPISHMEM_COLL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <mpi.h>
#include <shmem.h>
#include "../../mpi_backend/runtime/error.h"
#include "../../mpi_backend/gpu/gpu_path.h"
#include "../../mpi_backend/progress/progress.h"

/* The communicator a collective runs on, and its scratch. */
typedef struct mpishmem_coll_comm {
    MPI_Comm comm;
    int me, n;                  /* rank in comm, size of comm */
    int *counts, *displs;       /* [n]: collect's Allgatherv arguments, made on first use */
    int *world;                 /* [n]: world PE of each rank, made on first use (coll_large.c) */
    int may_block;              /* the plan's: no PE of comm yields, small calls may block */
    struct mpishmem_team_plan *plan; /* routes decided when the team or set was made */
    int barrier_ready;          /* the plan's barrier carried out (sync.c), at its first barrier */
    struct mpishmem_node_barrier *shm_barrier; /* shared-memory barrier, or NULL: MPI's */
} mpishmem_coll_comm_t;

/* c's shared-memory barrier object, whose slots carry small collectives
 * (coll_small.c), or NULL when c has one member or its plan says MPI's
 * barrier; the first time, collective over c, it maps the flags the plan
 * names (sync.c). */
struct mpishmem_node_barrier *mpishmem_coll_node(const char *routine, mpishmem_coll_comm_t *c);

/* Bytes of the record each PE writes into its slot for the large
 * collectives (coll_large.c). */
#define MPISHMEM_COLL_RECORD 48

/* ---- small collectives through the node object (coll_small.c) ------------
 * Each is collective over c and assumes its part fits a slot
 * (MPISHMEM_NODE_SLOT bytes), which the caller tests alike on every PE. */
enum mpishmem_small_reduce { MPISHMEM_SMALL_ALLREDUCE, MPISHMEM_SMALL_INSCAN, MPISHMEM_SMALL_EXSCAN };
/* dest and send in host memory; send may be MPI_IN_PLACE. */
/* op: the routine's operation; mpi_op: MPI's operation for it (they
 * differ for unsigned max/min, unsigned_minmax.c). */
void mpishmem_coll_small_reduce(struct mpishmem_node_barrier *b, mpishmem_coll_comm_t *c,
                                void *dest, const void *send, int count, size_t bytes,
                                MPI_Datatype dt, MPI_Op op, MPI_Op mpi_op,
                                enum mpishmem_small_reduce kind);
/* inout[k] = in[k] op inout[k], as MPI_Reduce_local computes it: natively
 * for the fixed-size integer and the real types, else by
 * MPI_Reduce_local with mpi_op.  op is the operation the routine names;
 * mpi_op the one MPI computes it with (ours for unsigned max/min where
 * MPI gets them wrong). */
void mpishmem_coll_combine(void *inout, const void *in, int count, MPI_Datatype dt, MPI_Op op,
                           MPI_Op mpi_op);
void mpishmem_coll_small_fcollect(struct mpishmem_node_barrier *b, mpishmem_coll_comm_t *c,
                                  void *dest, const void *source, size_t bytes);
void mpishmem_coll_small_broadcast(struct mpishmem_node_barrier *b, mpishmem_coll_comm_t *c,
                                   void *dest, const void *source, size_t bytes, int root,
                                   int root_dest);
/* collect, any size: writes this PE's count (and bytes, if they fit),
 * waits, fills c->counts and c->displs from every PE's slot and returns
 * whether every part fitted; if so, _finish copies them into dest. */
/* record: MPISHMEM_COLL_RECORD bytes for the large path
 * (mpishmem_coll_large_mark), written after the count. */
int mpishmem_coll_small_collect_start(struct mpishmem_node_barrier *b, mpishmem_coll_comm_t *c,
                                      const void *record, const void *source, size_t bytes,
                                      size_t esize);
/* The bytes of a part that travel in a collect slot, after its count and
 * record. */
#define MPISHMEM_COLL_COLLECT_ROOM (MPISHMEM_NODE_SLOT - 8 - MPISHMEM_COLL_RECORD)
void mpishmem_coll_small_collect_finish(struct mpishmem_node_barrier *b,
                                        mpishmem_coll_comm_t *c, void *dest, size_t esize);

/* ---- large collectives on one node (coll_large.c) --------------------------
 * Direct copies from the peers' symmetric memory, between barriers of b.
 * Each is collective over c and returns 1 when done, 0 when some PE's
 * buffers cannot be read that way (not symmetric, device memory, not
 * mapped, overlapping): then every PE returns 0 and runs MPI's collective. */
int mpishmem_coll_large_fcollect(struct mpishmem_node_barrier *b, mpishmem_coll_comm_t *c,
                                 void *dest, const void *source, size_t bytes);
int mpishmem_coll_large_broadcast(struct mpishmem_node_barrier *b, mpishmem_coll_comm_t *c,
                                  void *dest, const void *source, size_t bytes, int root,
                                  int root_dest);
int mpishmem_coll_large_reduce(struct mpishmem_node_barrier *b, mpishmem_coll_comm_t *c,
                               void *dest, const void *source, int count, size_t esize,
                               MPI_Datatype dt, MPI_Op op, MPI_Op mpi_op);
/* collect: each PE's record (_mark), which collect_start writes into its
 * slot before the counts' barrier, says whether its source and dest can be
 * read; after the barrier, with c->counts and c->displs set, _collect
 * copies every part (from the slot, after the record, when it is at most
 * room bytes) or returns 0. */
void mpishmem_coll_large_mark(mpishmem_coll_comm_t *c, void *into, const void *dest,
                              const void *source, size_t bytes);
int mpishmem_coll_large_collect(struct mpishmem_node_barrier *b, mpishmem_coll_comm_t *c,
                                void *dest, const void *source, size_t esize, size_t room);

/* ---- MPI datatypes and operations of the C types --------------------------
 * Integers map to the MPI fixed-width type of the same size and signedness
 * (char, size_t and ptrdiff_t included: MPI_CHAR is not a reduction type);
 * reals to MPI_FLOAT/DOUBLE/LONG_DOUBLE by size; complex types to
 * MPI_C_FLOAT_COMPLEX/MPI_C_DOUBLE_COMPLEX. */
static inline MPI_Datatype mpishmem_coll_datatype(size_t size, int is_real, int is_signed)
{
    if (is_real)
        return size == sizeof(float) ? MPI_FLOAT
             : size == sizeof(double) ? MPI_DOUBLE : MPI_LONG_DOUBLE;
    switch (size) {
    case 1: return is_signed ? MPI_INT8_T : MPI_UINT8_T;
    case 2: return is_signed ? MPI_INT16_T : MPI_UINT16_T;
    case 4: return is_signed ? MPI_INT32_T : MPI_UINT32_T;
    default: return is_signed ? MPI_INT64_T : MPI_UINT64_T;
    }
}

/* Both tests are valid for every table type, complex ones included, so one
 * macro serves every table: 1/2 is 0 only in integer arithmetic, and -1/2
 * truncates to 0 only when (T)-1 is negative (for an unsigned type it is
 * the maximum). */
#define MPISHMEM_COLL_IS_REAL(T) ((T)1 / (T)2 != (T)0)
#define MPISHMEM_COLL_IS_SIGNED(T) ((T)-1 / (T)2 == (T)0)
#define MPISHMEM_COLL_SCALAR_DATATYPE(T)                                                   \
    mpishmem_coll_datatype(sizeof(T), MPISHMEM_COLL_IS_REAL(T), MPISHMEM_COLL_IS_SIGNED(T))
#ifdef MPISHMEM_HAVE_COMPLEX
#define MPISHMEM_COLL_DATATYPE(T)                                                          \
    _Generic((T *)0, float _Complex *: MPI_C_FLOAT_COMPLEX,                                \
             double _Complex *: MPI_C_DOUBLE_COMPLEX,                                      \
             default: MPISHMEM_COLL_SCALAR_DATATYPE(T))
#else
#define MPISHMEM_COLL_DATATYPE(T) MPISHMEM_COLL_SCALAR_DATATYPE(T)
#endif

/* The MPI operation of a reduction name (the A of the type tables). */
#define MPISHMEM_COLL_OP_and MPI_BAND
#define MPISHMEM_COLL_OP_or MPI_BOR
#define MPISHMEM_COLL_OP_xor MPI_BXOR
#define MPISHMEM_COLL_OP_max MPI_MAX
#define MPISHMEM_COLL_OP_min MPI_MIN
#define MPISHMEM_COLL_OP_sum MPI_SUM
#define MPISHMEM_COLL_OP_prod MPI_PROD

/* ---- Entry ---------------------------------------------------------------- */

/* The communicator of a team collective, or NULL when team is
 * SHMEM_TEAM_INVALID (the routine then returns nonzero).  SHMEM_DEBUG:
 * stops unless team is a live team handle. */
mpishmem_coll_comm_t *mpishmem_coll_team(const char *routine, shmem_team_t team);

/* The communicator of an active set, made on first use and cached.  Stops
 * with a message when the set is invalid or the caller is not in it.
 * SHMEM_DEBUG: also checks that pSync (sync_size longs) is symmetric and
 * holds SHMEM_SYNC_VALUE. */
mpishmem_coll_comm_t *mpishmem_active_set(const char *routine, int PE_start, int logPE_stride,
                                          int PE_size, const long *pSync, int sync_size);
/* Frees every cached active-set communicator (shmem_finalize). */
void mpishmem_active_sets_finalize(void);

/* The operation that computes MPI_MAX or MPI_MIN right on dt (see
 * unsigned_minmax.c); op itself for every other operation and type. */
MPI_Op mpishmem_coll_minmax_op(const char *routine, MPI_Op op, MPI_Datatype dt);
void mpishmem_coll_minmax_finalize(void);

/* The barrier route of c: the whole world's barrier for
 * shmem_barrier_all/sync_all (sync.c), and c's own state to release
 * (coll_util.c). */
void mpishmem_coll_sync_world(const char *routine);
void mpishmem_coll_sync_free(mpishmem_coll_comm_t *c);

/* Releases what the collectives keep between calls (shmem_finalize;
 * active_set.c). */
void mpishmem_coll_finalize(void);

/* ---- Shared helpers (coll_util.c) ------------------------------------------ */

/* MPI-3 counts are int: stop when nelems does not fit. */
static inline int mpishmem_coll_count(const char *routine, size_t nelems)
{
    if (MPISHMEM_UNLIKELY(nelems > (size_t)INT_MAX))
        mpishmem_fatal(routine, "%zu elements exceed INT_MAX, the largest count of an "
                       "MPI-3 collective", nelems);
    return (int)nelems;
}

/* The bytes of nelems elements (`bytes` bytes) from each of n PEs. */
static inline size_t mpishmem_coll_total(const char *routine, size_t nelems, size_t bytes, int n)
{
    size_t total;
    if (MPISHMEM_UNLIKELY(__builtin_mul_overflow(bytes, (size_t)n, &total) ||
                          total > (size_t)PTRDIFF_MAX))
        mpishmem_fatal(routine, "nelems %zu for each of %d PEs is more than PTRDIFF_MAX bytes "
                       "in all", nelems, n);
    return total;
}

static inline int mpishmem_coll_overlap(const void *a, size_t alen, const void *b, size_t blen)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return alen > 0 && blen > 0 && x < y + blen && y < x + alen;
}

/* A non-blocking MPI collective could not start: stop with MPI's reason. */
void mpishmem_coll_mpi_fail(const char *routine, const char *call, int rc)
    __attribute__((noreturn, cold));
static inline void mpishmem_coll_started(const char *routine, const char *call, int rc)
{
    if (MPISHMEM_UNLIKELY(rc != MPI_SUCCESS))
        mpishmem_coll_mpi_fail(routine, call, rc);
}

/* Waits for a started collective as the library's other waits do
 * (mpi_backend/progress/progress.h): spinning with a core per PE, yielding and then
 * napping when PEs outnumber cores; every step tests the request, which
 * also drives MPI progress. */
static inline void mpishmem_coll_wait(MPI_Request *req)
{
    mpishmem_wait_request(req);
}

/* Whether to call the blocking MPI collective: when every PE of c has a
 * core of its own, MPI's blocking algorithms are the fastest (its
 * non-blocking ones are slower, by 1-5 us for small messages and up to 2x
 * for large ones on Open MPI), and its progress engine still serves RMA
 * while it waits.  When PEs outnumber cores, spinning inside MPI keeps the
 * core from the PEs being waited for: start the non-blocking call and
 * poll (mpishmem_coll_wait). */
static inline int mpishmem_coll_blocking(const mpishmem_coll_comm_t *c)
{
    /* A PE may be waiting for another's GPU agent or for its answer to an
     * AMO request (mpi_backend/progress/progress.h): polling serves them, blocking
     * would not. */
    return c->may_block && !mpishmem_must_poll();
}

/* One MPI collective, blocking (BLOCKING_CALL) or started and polled
 * (NB_CALL, which takes a trailing MPI_Request *). */
#define MPISHMEM_COLL_RUN(routine, blocking, BLOCKING_CALL, NB_CALL, ...)                  \
    do {                                                                                   \
        if (blocking) {                                                                    \
            mpishmem_blocking_mpi_enter();                                                 \
            mpishmem_coll_started(routine, #BLOCKING_CALL, BLOCKING_CALL(__VA_ARGS__));    \
            mpishmem_blocking_mpi_leave();                                                 \
        } else {                                                                           \
            MPI_Request req_;                                                              \
            mpishmem_coll_started(routine, #NB_CALL, NB_CALL(__VA_ARGS__, &req_));         \
            mpishmem_coll_wait(&req_);                                                     \
        }                                                                                  \
    } while (0)

/* Device memory (coll_gpu.c): unless MPI is GPU-aware (and force is 0),
 * *dest and *source, when device memory, are replaced by host copies for
 * the MPI call; stage_out copies dest back and frees them.  Only while
 * mpishmem_gpu_on (MPISHMEM_COLL_STAGE costs one branch otherwise). */
typedef struct mpishmem_coll_stage {
    void *block, *src_block;   /* host copies, freed by stage_out */
    void *dev_dest, *host_dest; /* dest to copy back, or dev_dest NULL */
    size_t dest_len;
} mpishmem_coll_stage_t;
void mpishmem_coll_stage_in(const char *routine, mpishmem_coll_stage_t *st, void **dest,
                            size_t dlen, const void **source, size_t slen, int force);
void mpishmem_coll_stage_out(mpishmem_coll_stage_t *st);
#define MPISHMEM_COLL_STAGE(routine, st, dest, dlen, source, slen, force)                  \
    do {                                                                                   \
        (st)->block = (st)->src_block = (st)->dev_dest = NULL;                             \
        if (MPISHMEM_UNLIKELY(mpishmem_gpu_on))                                            \
            mpishmem_coll_stage_in(routine, st, dest, dlen, source, slen, force);          \
    } while (0)
#define MPISHMEM_COLL_UNSTAGE(st)                                                          \
    do {                                                                                   \
        if (MPISHMEM_UNLIKELY(mpishmem_gpu_on))                                            \
            mpishmem_coll_stage_out(st);                                                   \
    } while (0)

/* A private copy of source (len bytes) in *tmp, for the rare call whose
 * source overlaps dest without being the same array: MPI forbids aliased
 * buffers.  Free *tmp afterwards. */
const void *mpishmem_coll_copy_source(const char *routine, const void *source, size_t len,
                                      void **tmp);

/* ---- SHMEM_DEBUG checks (coll_check.c) --------------------------------------- */

/* Every PE of c passed the same values v[0..n) (named names[i]); stops
 * naming the routine and the argument otherwise. */
void mpishmem_coll_check_same(const char *routine, mpishmem_coll_comm_t *c,
                              const char *const *names, const long long *v, int n);
/* [p, p+len) is symmetric (len 0: nothing to check). */
/* SHMEM_DEBUG: dest and source are symmetric over their lengths, in one
 * space (below), and, if plain_alias, the same array or disjoint. */
void mpishmem_coll_check_buffers(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                                 size_t dlen, const void *source, size_t slen, int plain_alias);
/* SHMEM_DEBUG: dest and source lie in one memory space that allows
 * collectives and holds every PE of c. */
void mpishmem_coll_check_space(const char *routine, mpishmem_coll_comm_t *c, const void *dest,
                               const void *source);
void mpishmem_coll_check_symmetric(const char *routine, const char *what, const void *p,
                                   size_t len);
/* dest and source are the same array or disjoint, as the spec requires. */
void mpishmem_coll_check_alias(const char *routine, const void *dest, size_t dlen,
                               const void *source, size_t slen);
/* The offset of p in its symmetric segment, so PEs can compare addresses. */
long long mpishmem_coll_symmetric_offset(const void *p);

/* ---- The collectives on a communicator ------------------------------------------
 * esize is the element size, dt its MPI datatype. */

/* root_dest: whether the root's dest is written too (team broadcast: yes;
 * the deprecated active-set broadcast leaves it alone). */
void mpishmem_coll_broadcast(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                             const void *source, size_t nelems, size_t esize, MPI_Datatype dt,
                             int root, int root_dest);
void mpishmem_coll_collect(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                           const void *source, size_t nelems, size_t esize, MPI_Datatype dt);
void mpishmem_coll_fcollect(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                            const void *source, size_t nelems, size_t esize, MPI_Datatype dt);
void mpishmem_coll_alltoall(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                            const void *source, size_t nelems, size_t esize, MPI_Datatype dt);
void mpishmem_coll_alltoalls(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                             const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                             size_t esize, MPI_Datatype dt);
void mpishmem_coll_reduce(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                          const void *source, size_t nreduce, size_t esize, MPI_Datatype dt,
                          MPI_Op op);
/* exclusive: 0 inclusive scan, 1 exclusive (PE 0 gets zeros). */
void mpishmem_coll_scan(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                        const void *source, size_t nelems, size_t esize, MPI_Datatype dt,
                        int exclusive);

#endif
