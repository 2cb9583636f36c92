/*
 * mpishmem: communicators of the deprecated active sets.
 *
 * An active set (PE_start, logPE_stride, PE_size) is called only by its
 * members, so its communicator is made with MPI_Comm_create_group on the
 * world communicator, which is collective over the group alone.  Making
 * one costs a few collective rounds, so each is made once, on the set's
 * first collective, and kept in a hash table keyed by the triple: repeated
 * calls on a set create nothing.  shmem_finalize frees them all.
 *
 * The table is chained and never shrinks: a program uses few distinct
 * sets.  Lookups take no lock (see create()).  The calls of one set are
 * ordered the same way on every member, so all members create its
 * communicator in the same collective call.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <pthread.h>
#include <stdlib.h>
#include "coll.h"
#include "../../mpi_backend/memory/segment.h"
#include "../../mpi_backend/runtime/error.h"
#include "../../mpi_backend/progress/progress.h"
#include "../../mpi_backend/runtime/runtime.h"
#include "../../teams/team_plan.h"

#define BUCKETS 256u

struct active_set {
    int start, log_stride, size;
    mpishmem_coll_comm_t cc;
    mpishmem_pe_map_t map;      /* its members (strided) */
    mpishmem_team_plan_t plan;  /* its routes, decided when it is made */
    struct active_set *next;
};

static struct active_set *buckets[BUCKETS];

static unsigned hash3(int start, int log_stride, int size)
{
    unsigned h = (unsigned)start * 0x9e3779b1u;
    h = (h ^ (unsigned)log_stride) * 0x85ebca6bu;
    h = (h ^ (unsigned)size) * 0xc2b2ae35u;
    return h ^ (h >> 16);
}

/* SHMEM_DEBUG: pSync is symmetric and every element holds SHMEM_SYNC_VALUE,
 * as the spec requires on entry (this library never writes it, so it also
 * holds it on return). */
static void check_psync(const char *routine, const long *pSync, int n)
{
    mpishmem_coll_check_symmetric(routine, "pSync", pSync, (size_t)n * sizeof(long));
    for (int i = 0; i < n; i++) {
        long v;
        mpishmem_gpu_copy(&v, &pSync[i], sizeof v); /* pSync may be device memory */
        if (v != SHMEM_SYNC_VALUE)
            mpishmem_fatal(routine, "pSync[%d] is %ld, not SHMEM_SYNC_VALUE (%ld): every "
                           "element must hold SHMEM_SYNC_VALUE when the routine is called",
                           i, v, (long)SHMEM_SYNC_VALUE);
    }
}

/* Stops unless the triple is a valid active set holding this PE. */
static void validate(const char *routine, int start, int log_stride, int size)
{
    int me = mpishmem_rt.my_pe, npes = mpishmem_rt.n_pes;
    const char *problem = NULL;
    if (start < 0)
        problem = "PE_start is negative";
    else if (log_stride < 0 || log_stride > 30)
        problem = "logPE_stride must be between 0 and 30";
    else if (size < 1)
        problem = "PE_size must be at least 1";
    else if ((long long)start + ((long long)(size - 1) << log_stride) >= npes)
        problem = "its last PE, PE_start + (PE_size - 1) * 2^logPE_stride, is not a PE";
    else if (me < start || ((me - start) & ((1 << log_stride) - 1)) != 0 ||
             (me - start) >> log_stride >= size)
        problem = "the calling PE is not in it (only its members may call)";
    if (problem != NULL)
        mpishmem_fatal(routine, "invalid active set (PE_start %d, logPE_stride %d, PE_size "
                       "%d) of %d PEs: %s", start, log_stride, size, npes, problem);
}

/* Creations of different sets may run at once in different threads, and
 * only the tag of MPI_Comm_create_group keeps them apart, so every set
 * gets its own: (PE_start, PE_size - 1, logPE_stride) numbered densely,
 * which fits MPI_TAG_UB (at least 2^31 - 1 on MPICH and Open MPI) up to
 * about 8000 PEs.  Beyond that the tag is a hash, and creations in this
 * process are serialised instead (-1). */
static int set_tag(int start, int log_stride, int size)
{
    long long tag = ((long long)start * mpishmem_rt.n_pes + (size - 1)) * 31 + log_stride;
    int *ub = NULL, flag = 0;
    MPISHMEM_MPI(MPI_Comm_get_attr(mpishmem_rt.world, MPI_TAG_UB, &ub, &flag));
    /* Step over the tags of the library's own point-to-point collectives,
     * which members_meet's messages on the world would otherwise match. */
    if (tag >= MPISHMEM_P2P_COLL_TAGS)
        tag += 32768 - MPISHMEM_P2P_COLL_TAGS;
    return flag && ub && tag <= *ub ? (int)tag : -1;
}

static pthread_mutex_t hashed_tag_lock = PTHREAD_MUTEX_INITIALIZER;

/* While PEs serve requests (AMO requests, GPU agents: progress.h), the
 * members meet in a polled barrier before MPI_Comm_create_group, which
 * blocks inside MPI: a member blocked there could not answer a member
 * still waiting for an AMO answer, which then never arrives (OSU's atomics
 * test: targets enter shmem_double_sum_to_all while their peers' fetching
 * AMOs wait).  There is no communicator of the members yet: a
 * dissemination barrier of zero-byte messages over the world, with the
 * set's tag. */
static void members_meet(int start, int stride, int size, int tag)
{
    if (!mpishmem_serving())
        return;
    int me = (mpishmem_rt.my_pe - start) / stride;
    for (int k = 1; k < size; k <<= 1) {
        int to = start + (me + k) % size * stride, from = start + (me - k + size) % size * stride;
        MPI_Request r[2];
        MPISHMEM_MPI(MPI_Irecv(NULL, 0, MPI_BYTE, from, tag, mpishmem_rt.world, &r[0]));
        MPISHMEM_MPI(MPI_Isend(NULL, 0, MPI_BYTE, to, tag, mpishmem_rt.world, &r[1]));
        mpishmem_wait_request(&r[0]);
        mpishmem_wait_request(&r[1]);
    }
}

static struct active_set *create(const char *routine, int start, int log_stride, int size,
                                 unsigned h)
{
    validate(routine, start, log_stride, size);
    struct active_set *s = calloc(1, sizeof *s);
    if (s == NULL)
        mpishmem_fatal(routine, "out of memory for an active set");
    int stride = 1 << log_stride;
    int range[1][3] = {{start, start + (size - 1) * stride, stride}};
    MPI_Group world, group;
    MPISHMEM_MPI(MPI_Comm_group(mpishmem_rt.world, &world));
    MPISHMEM_MPI(MPI_Group_range_incl(world, 1, range, &group));
    int tag = set_tag(start, log_stride, size), hashed = tag < 0;
    if (hashed) {
        pthread_mutex_lock(&hashed_tag_lock);
        tag = (int)(h % MPISHMEM_P2P_COLL_TAGS);
    }
    members_meet(start, stride, size, tag);
    int rc = MPI_Comm_create_group(mpishmem_rt.world, group, tag, &s->cc.comm);
    if (hashed)
        pthread_mutex_unlock(&hashed_tag_lock);
    MPISHMEM_MPI(MPI_Group_free(&group));
    MPISHMEM_MPI(MPI_Group_free(&world));
    if (rc != MPI_SUCCESS)
        mpishmem_coll_mpi_fail(routine, "MPI_Comm_create_group (of the active set)", rc);
    MPISHMEM_MPI(MPI_Comm_set_errhandler(s->cc.comm, MPI_ERRORS_RETURN));
    MPISHMEM_MPI(MPI_Comm_rank(s->cc.comm, &s->cc.me));
    MPISHMEM_MPI(MPI_Comm_size(s->cc.comm, &s->cc.n));
    /* Its plan, as a team's (teams/team_plan.h): collective over the set. */
    mpishmem_pe_map_strided(&s->map, start, stride, size);
    mpishmem_team_plan_decide(s->cc.comm, &s->map, 1, &s->plan);
    s->cc.plan = &s->plan;
    s->cc.may_block = s->plan.may_block;
    s->start = start;
    s->log_stride = log_stride;
    s->size = size;
    /* Published with a release CAS, so threads may look sets up while
     * another inserts one (entries are never removed before finalize). */
    struct active_set **head = &buckets[h % BUCKETS];
    s->next = __atomic_load_n(head, __ATOMIC_ACQUIRE);
    while (!__atomic_compare_exchange_n(head, &s->next, s, 1, __ATOMIC_RELEASE,
                                        __ATOMIC_ACQUIRE))
        ;
    return s;
}

mpishmem_coll_comm_t *mpishmem_active_set(const char *routine, int PE_start, int logPE_stride,
                                          int PE_size, const long *pSync, int sync_size)
{
    mpishmem_check_running(routine);
    if (MPISHMEM_DEBUG_ON)
        check_psync(routine, pSync, sync_size);
    unsigned h = hash3(PE_start, logPE_stride, PE_size);
    for (struct active_set *s = __atomic_load_n(&buckets[h % BUCKETS], __ATOMIC_ACQUIRE);
         s != NULL; s = s->next)
        if (s->start == PE_start && s->log_stride == logPE_stride && s->size == PE_size)
            return &s->cc;
    return &create(routine, PE_start, logPE_stride, PE_size, h)->cc;
}

void mpishmem_active_sets_finalize(void)
{
    for (unsigned b = 0; b < BUCKETS; b++) {
        while (buckets[b] != NULL) {
            struct active_set *s = buckets[b];
            buckets[b] = s->next;
            mpishmem_coll_sync_free(&s->cc);
            MPISHMEM_MPI(MPI_Comm_free(&s->cc.comm));
            free(s->cc.counts);
            free(s->cc.displs);
            free(s->cc.world);
            free(s);
        }
    }
}

/* At shmem_finalize: the active sets, then the min/max operations. */
void mpishmem_coll_finalize(void)
{
    mpishmem_active_sets_finalize();
    mpishmem_coll_minmax_finalize();
}
