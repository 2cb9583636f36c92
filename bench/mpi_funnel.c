/*
 * mpi_funnel: the MPI calls of bench/mpi_routes taken through one lock, as
 * a library would run MPI at MPI_THREAD_SERIALIZED with its progress
 * thread funnelling every call through that lock (issue 19's option "a
 * lower thread level with the thread funnelling every MPI call"): what
 * that would cost against MPICH's own MPI_THREAD_MULTIPLE.
 *
 * Profiling-interface wrappers of exactly the calls mpi_route_ops.h makes;
 * they take the lock only once mpi_funnel_start has run, so the other
 * levels pay one branch.  mpi_funnel_start also starts a thread that, like
 * the library's progress thread while its PE is active, naps 1 ms and then
 * probes MPI under the lock.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <pthread.h>
#include <time.h>
#include "mpi_funnel.h"

static int funnel_on;
static volatile int funnel_stop;
static pthread_mutex_t funnel_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t funnel_thread;
static MPI_Comm probe_comm; /* carries no messages: a probe only progresses */

#define LOCKED(call)                                                                       \
    do {                                                                                   \
        if (!funnel_on)                                                                    \
            return call;                                                                   \
        pthread_mutex_lock(&funnel_lock);                                                  \
        int rc_ = call;                                                                    \
        pthread_mutex_unlock(&funnel_lock);                                                \
        return rc_;                                                                        \
    } while (0)

static void *funnel_progress(void *arg)
{
    (void)arg;
    const struct timespec nap = {0, 1000000L};
    while (!funnel_stop) {
        nanosleep(&nap, NULL);
        int flag;
        pthread_mutex_lock(&funnel_lock);
        PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, probe_comm, &flag, MPI_STATUS_IGNORE);
        pthread_mutex_unlock(&funnel_lock);
    }
    return NULL;
}

void mpi_funnel_start(void)
{
    PMPI_Comm_dup(MPI_COMM_WORLD, &probe_comm);
    funnel_on = 1;
    pthread_create(&funnel_thread, NULL, funnel_progress, NULL);
}

void mpi_funnel_stop(void)
{
    if (!funnel_on)
        return;
    funnel_stop = 1;
    pthread_join(funnel_thread, NULL);
    funnel_on = 0;
    PMPI_Comm_free(&probe_comm);
}

int MPI_Put(const void *o, int oc, MPI_Datatype ot, int t, MPI_Aint d, int tc, MPI_Datatype tt,
            MPI_Win w)
{
    LOCKED(PMPI_Put(o, oc, ot, t, d, tc, tt, w));
}
int MPI_Get(void *o, int oc, MPI_Datatype ot, int t, MPI_Aint d, int tc, MPI_Datatype tt,
            MPI_Win w)
{
    LOCKED(PMPI_Get(o, oc, ot, t, d, tc, tt, w));
}
int MPI_Rget(void *o, int oc, MPI_Datatype ot, int t, MPI_Aint d, int tc, MPI_Datatype tt,
             MPI_Win w, MPI_Request *r)
{
    LOCKED(PMPI_Rget(o, oc, ot, t, d, tc, tt, w, r));
}
int MPI_Accumulate(const void *o, int oc, MPI_Datatype ot, int t, MPI_Aint d, int tc,
                   MPI_Datatype tt, MPI_Op op, MPI_Win w)
{
    LOCKED(PMPI_Accumulate(o, oc, ot, t, d, tc, tt, op, w));
}
int MPI_Fetch_and_op(const void *o, void *r, MPI_Datatype dt, int t, MPI_Aint d, MPI_Op op,
                     MPI_Win w)
{
    LOCKED(PMPI_Fetch_and_op(o, r, dt, t, d, op, w));
}
int MPI_Compare_and_swap(const void *o, const void *c, void *r, MPI_Datatype dt, int t,
                         MPI_Aint d, MPI_Win w)
{
    LOCKED(PMPI_Compare_and_swap(o, c, r, dt, t, d, w));
}
int MPI_Win_flush(int t, MPI_Win w) { LOCKED(PMPI_Win_flush(t, w)); }
int MPI_Win_flush_local(int t, MPI_Win w) { LOCKED(PMPI_Win_flush_local(t, w)); }
int MPI_Send(const void *b, int c, MPI_Datatype dt, int dst, int tag, MPI_Comm comm)
{
    LOCKED(PMPI_Send(b, c, dt, dst, tag, comm));
}
int MPI_Irecv(void *b, int c, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Request *r)
{
    LOCKED(PMPI_Irecv(b, c, dt, src, tag, comm, r));
}
int MPI_Test(MPI_Request *r, int *flag, MPI_Status *s) { LOCKED(PMPI_Test(r, flag, s)); }
int MPI_Wait(MPI_Request *r, MPI_Status *s) { LOCKED(PMPI_Wait(r, s)); }
int MPI_Cancel(MPI_Request *r) { LOCKED(PMPI_Cancel(r)); }
int MPI_Barrier(MPI_Comm comm) { LOCKED(PMPI_Barrier(comm)); }
