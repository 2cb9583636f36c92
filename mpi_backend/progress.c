/*
 * mpishmem: progress and yielding while polling.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "amo_am.h"
#include "gpu_path.h"
#include "progress.h"
#include "runtime.h"
#include "env_read.h"
#include "error.h"

/* Polling MPI costs more than reading memory; poll it every few spins. */
#define SPINS_PER_MPI_POLL 16u
/* Oversubscribed: yields before a wait starts napping.  sched_yield hands
 * the core only to tasks queued on the same core; a short nap idles it, so
 * the kernel moves a runnable PE over from a busy core (the same rule as
 * the collectives' wait, lib/coll/coll_util.c). */
#define YIELDS_BEFORE_NAP 64u

unsigned long mpishmem_mpi_activity;

void mpishmem_serve(void)
{
    if (mpishmem_gpu_service_on)
        mpishmem_gpu_serve();
    if (mpishmem_amo_am_on)
        mpishmem_amo_am_serve();
}

static inline void poke_mpi(void)
{
    int flag;
    MPISHMEM_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, mpishmem_rt.world, &flag,
                            MPI_STATUS_IGNORE));
}

/* Waits for an RMA answer (mpishmem_wait_rma) yield longer before napping:
 * the answer needs the target PE scheduled, and one that is runnable gets
 * the core through yields; napping early idles the core the answer needs
 * (4 PEs on 2 cores, MPICH, MPISHMEM_SHM=0, bench/random_ops: 300,000
 * operations per second napping after 64 yields, 860,000 after 512,
 * 900,000-960,000 after 4096 or never). */
#define RMA_YIELDS_BEFORE_NAP 1024u

static void give_core_away(unsigned n, unsigned yields_before_nap)
{
    if (n <= yields_before_nap) {
        sched_yield();
    } else {
        struct timespec nap = {0, 1000};
        nanosleep(&nap, NULL);
    }
}

/* With a core of its own a PE never yields: here MPI RMA aimed at a PE
 * completes only while that PE is inside MPI, so a yielding target costs
 * its peer (a raw MPI_Put + flush: 310 ns against a spinning target,
 * 1600 ns against a yielding one; docs/performance-waiting.md). */
void mpishmem_progress_step(unsigned *spins)
{
    unsigned n = ++*spins;
    mpishmem_note_mpi_activity();
    if (MPISHMEM_UNLIKELY(mpishmem_serving()))
        mpishmem_serve(); /* other PEs' requests: device memory, AMOs */
    if (MPISHMEM_UNLIKELY(mpishmem_rt.yield)) {
        poke_mpi();
        give_core_away(n, YIELDS_BEFORE_NAP);
        return;
    }
    if (n % SPINS_PER_MPI_POLL == 0)
        poke_mpi();
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

void mpishmem_progress_test_failed(unsigned *spins)
{
    unsigned n = ++*spins;
    mpishmem_note_mpi_activity();
    if (MPISHMEM_UNLIKELY(mpishmem_serving()))
        mpishmem_serve(); /* a PE polling a test may be the target of a request */
    poke_mpi();
    if (MPISHMEM_UNLIKELY(mpishmem_rt.yield))
        give_core_away(n, YIELDS_BEFORE_NAP);
}

void mpishmem_progress_poke(void)
{
    mpishmem_note_mpi_activity();
    if (MPISHMEM_UNLIKELY(mpishmem_serving()))
        mpishmem_serve();
    poke_mpi();
}

static void wait_request(MPI_Request *req, unsigned yields_before_nap)
{
    unsigned spins = 0;
    int done = 0;
    mpishmem_note_mpi_activity();
    MPISHMEM_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
    while (!done) {
        mpishmem_note_mpi_activity();
        if (MPISHMEM_UNLIKELY(mpishmem_serving()))
            mpishmem_serve();
        if (mpishmem_rt.yield)
            give_core_away(++spins, yields_before_nap);
        MPISHMEM_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
    }
}

void mpishmem_wait_request(MPI_Request *req)
{
    wait_request(req, YIELDS_BEFORE_NAP);
}

void mpishmem_wait_rma(MPI_Request *req)
{
    wait_request(req, RMA_YIELDS_BEFORE_NAP);
}

void mpishmem_meet_before_blocking(MPI_Comm comm)
{
    if (mpishmem_serving())
        mpishmem_barrier_comm(comm);
}

void mpishmem_barrier_comm(MPI_Comm comm)
{
    MPI_Request req;
    MPISHMEM_MPI(MPI_Ibarrier(comm, &req));
    mpishmem_wait_request(&req);
}

int mpishmem_allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm)
{
    MPI_Request req;
    MPISHMEM_MPI(MPI_Iallreduce(in, out, count, type, op, comm, &req));
    mpishmem_wait_request(&req);
    return MPI_SUCCESS; /* a failure stopped the job */
}

int mpishmem_allgather(const void *in, int in_count, MPI_Datatype in_type, void *out,
                       int out_count, MPI_Datatype out_type, MPI_Comm comm)
{
    MPI_Request req;
    MPISHMEM_MPI(MPI_Iallgather(in, in_count, in_type, out, out_count, out_type, comm, &req));
    mpishmem_wait_request(&req);
    return MPI_SUCCESS; /* a failure stopped the job */
}

int mpishmem_comm_dup(MPI_Comm comm, MPI_Comm *dup)
{
    MPI_Request req;
    MPISHMEM_MPI(MPI_Comm_idup(comm, dup, &req));
    mpishmem_wait_request(&req);
    return MPI_SUCCESS; /* a failure stopped the job */
}

/* CPUs the cgroup's quota allows (cgroup v2 cpu.max, or v1 cfs quota), or
 * 0 when there is no quota. */
static long cgroup_cpus(void)
{
    long quota = -1, period = 0;
    FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
    if (f != NULL) {
        char q[32];
        if (fscanf(f, "%31s %ld", q, &period) == 2 && q[0] != 'm')
            sscanf(q, "%ld", &quota);
        fclose(f);
    } else if ((f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "r")) != NULL) {
        if (fscanf(f, "%ld", &quota) != 1)
            quota = -1;
        fclose(f);
        if ((f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "r")) != NULL) {
            if (fscanf(f, "%ld", &period) != 1)
                period = 0;
            fclose(f);
        }
    }
    if (quota <= 0 || period <= 0)
        return 0;
    return (quota + period - 1) / period;
}

int mpishmem_launcher_oversubscribed(void)
{
    static const char *const vars[] = {"MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE"};
    long local = 0;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0] && local <= 0; i++) {
        const char *v = mpishmem_env(vars[i]);
        if (v != NULL)
            local = strtol(v, NULL, 10);
    }
    cpu_set_t mine;
    if (local <= 1 || sched_getaffinity(0, sizeof mine, &mine) != 0)
        return 0;
    return local > CPU_COUNT(&mine);
}

int mpishmem_node_cores(MPI_Comm node)
{
    /* The union of the node's PEs' affinity masks: PEs bound one per core
     * each see one CPU, yet every PE has its own. */
    cpu_set_t mine, all;
    CPU_ZERO(&mine);
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        for (long c = 0; c < n && c < CPU_SETSIZE; c++)
            CPU_SET((int)c, &mine);
    }
    mpishmem_allreduce(&mine, &all, (int)sizeof mine, MPI_BYTE, MPI_BOR, node);
    long cores = CPU_COUNT(&all);
    long quota = cgroup_cpus();
    if (quota > 0 && quota < cores)
        cores = quota;
    return cores > 0 ? (int)cores : 1;
}
