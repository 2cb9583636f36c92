/*
 * amo_requests: AMOs sent as requests to the owning PE (MPISHMEM_AMO_AM,
 * mpi_backend/data_path/amo_am.c) complete where OpenSHMEM says they must.
 *
 * A non-fetching AMO sent as a request is complete only once its owner
 * has applied it and said so; quiet, fence, pe_quiet and barrier_all must
 * wait for that.  On one machine a request arrives at once, so a library
 * that forgot to wait would go unseen.  Here the program interposes on MPI
 * (the profiling interface): 32-byte MPI_Byte sends with tag 1 (the
 * requests) are held back, in order, and sent only once the oldest has
 * waited DELAY_MS and the library polls MPI (MPI_Test, MPI_Iprobe) again.
 * A flag put right after the completion routine then reaches the receiver
 * long before the adds when the routine does not wait.
 *
 * Cases (PE i sends to i + npes/2; heap and global data each):
 *   quiet, ctx_quiet, fence, pe_quiet   K adds; routine; flag put
 *                                       (receiver: flag, then the count)
 *   barrier                             K adds; barrier_all (receiver: count)
 *   fetch_order                         K adds, then a fetch: it sees them all
 *   setup_entry                         the receiver enters a first active-set
 *                                       reduction and a team split (blocking
 *                                       MPI set-up calls) while the sender's
 *                                       fetch-adds wait for it
 *   mpi_blocked                         the receiver sits in MPI_Barrier (the
 *                                       program's own MPI) while the sender
 *                                       fetch-adds it: the progress thread must
 *                                       answer (run only with one)
 * The sender checks that requests were held at all (the route is in use).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>

#define DELAY_MS 20
#define K 8
#define HELD_MAX 1024

/* ---- the interposer ---- */

typedef struct held {
    char buf[32];
    int dest;
    MPI_Comm comm;
} held_t;

static held_t held[HELD_MAX];
static int n_held;
static double first_held_at;
static unsigned long n_ever_held;
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;

static void release_due(void)
{
    pthread_mutex_lock(&held_lock);
    if (n_held > 0 && PMPI_Wtime() - first_held_at >= DELAY_MS / 1000.0) {
        for (int i = 0; i < n_held; i++)
            PMPI_Send(held[i].buf, 32, MPI_BYTE, held[i].dest, 1, held[i].comm);
        n_held = 0;
    }
    pthread_mutex_unlock(&held_lock);
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    if (type == MPI_BYTE && count == 32 && tag == 1) {
        pthread_mutex_lock(&held_lock);
        if (n_held < HELD_MAX) { /* in order behind the ones already held */
            if (n_held == 0)
                first_held_at = PMPI_Wtime();
            memcpy(held[n_held].buf, buf, 32);
            held[n_held].dest = dest;
            held[n_held].comm = comm;
            n_held++;
            n_ever_held++;
            pthread_mutex_unlock(&held_lock);
            return MPI_SUCCESS;
        }
        pthread_mutex_unlock(&held_lock);
        release_due();
    }
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Test(MPI_Request *r, int *flag, MPI_Status *st)
{
    release_due();
    return PMPI_Test(r, flag, st);
}

int MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *st)
{
    release_due();
    return PMPI_Iprobe(src, tag, comm, flag, st);
}

/* ---- the cases ---- */

static long g_count;
static long g_flag;
static long *h_count, *h_flag;
static int me, npes, failures;

enum how { QUIET, CTX_QUIET, FENCE, PE_QUIET, BARRIER };

static void one_round(const char *name, enum how how, long *count, long *flag, int sender,
                      int peer, long round)
{
    if (sender) {
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
        if (how == CTX_QUIET && shmem_ctx_create(0, &ctx) != 0)
            ctx = SHMEM_CTX_DEFAULT;
        for (int k = 0; k < K; k++)
            shmem_ctx_long_atomic_add(ctx, count, 1, peer);
        switch (how) {
        case QUIET: shmem_quiet(); break;
        case CTX_QUIET: shmem_ctx_quiet(ctx); break;
        case FENCE: shmem_fence(); break;
        case PE_QUIET: shmem_pe_quiet(&peer, 1); break;
        case BARRIER: break;
        }
        if (how != BARRIER)
            shmem_long_p(flag, round, peer);
        if (ctx != SHMEM_CTX_DEFAULT)
            shmem_ctx_destroy(ctx);
    } else if (peer >= 0 && how != BARRIER) {
        shmem_long_wait_until(flag, SHMEM_CMP_EQ, round);
        long seen = shmem_long_atomic_fetch(count, me);
        if (seen != round * K) {
            fprintf(stderr, "amo_requests: %s (%s): PE %d saw the flag of round %ld with "
                    "%ld adds applied, expected %ld\n", name,
                    count == &g_count ? "globals" : "heap", me, round, seen, round * K);
            failures++;
        }
    }
    shmem_barrier_all();
    if (!sender && peer >= 0 && how == BARRIER) {
        long seen = shmem_long_atomic_fetch(count, me);
        if (seen != round * K) {
            fprintf(stderr, "amo_requests: barrier (%s): PE %d has %ld adds after the "
                    "barrier, expected %ld\n", count == &g_count ? "globals" : "heap", me,
                    seen, round * K);
            failures++;
        }
    }
    shmem_barrier_all();
}

static void completion_case(const char *name, enum how how, int sender, int peer)
{
    long *counts[2] = {&g_count, h_count}, *flags[2] = {&g_flag, h_flag};
    for (int where = 0; where < 2; where++) {
        *counts[where] = 0;
        *flags[where] = 0;
        shmem_barrier_all();
        for (long round = 1; round <= 3; round++)
            one_round(name, how, counts[where], flags[where], sender, peer, round);
    }
}

static void fetch_order_case(int sender, int peer)
{
    *h_count = 0;
    shmem_barrier_all();
    if (sender) {
        for (int k = 0; k < K; k++)
            shmem_long_atomic_add(h_count, 1, peer);
        long seen = shmem_long_atomic_fetch(h_count, peer);
        if (seen != K) {
            fprintf(stderr, "amo_requests: fetch_order: PE %d fetched %ld after %d adds\n",
                    me, seen, K);
            failures++;
        }
    }
    shmem_barrier_all();
}

/* The receiver enters collectives that set up communicators (an active
 * set's first reduction: MPI_Comm_create_group; a team split:
 * MPI_Comm_split), which block inside MPI, while the sender still waits
 * for answers to its fetch-adds: the library must meet in a polled
 * barrier first (progress.h), or both wait forever. */
static double red_src, red_dst, red_wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long red_sync[SHMEM_REDUCE_SYNC_SIZE];

static void setup_entry_case(int sender, int peer)
{
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        red_sync[i] = SHMEM_SYNC_VALUE;
    *h_count = 0;
    shmem_barrier_all();
    if (sender)
        for (int k = 0; k < K; k++)
            shmem_long_atomic_fetch_add(h_count, 1, peer);
    red_src = 1;
    shmem_double_sum_to_all(&red_dst, &red_src, 1, 0, 0, npes, red_wrk, red_sync);
    if (red_dst != npes) {
        fprintf(stderr, "amo_requests: setup_entry: PE %d summed %g, expected %d\n", me,
                red_dst, npes);
        failures++;
    }
    if (sender)
        for (int k = 0; k < K; k++)
            shmem_long_atomic_fetch_add(h_count, 1, peer);
    shmem_team_t t = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t);
    if (t != SHMEM_TEAM_INVALID)
        shmem_team_destroy(t);
    shmem_barrier_all();
    if (!sender && peer >= 0 && *h_count != 2 * K) {
        fprintf(stderr, "amo_requests: setup_entry: PE %d has %ld adds, expected %d\n", me,
                *h_count, 2 * K);
        failures++;
    }
}

/* The receiver is inside the program's own MPI call, not the library:
 * only its progress thread can answer the sender's fetch-add. */
static void mpi_blocked_case(int sender, int peer)
{
    *h_count = 0;
    shmem_barrier_all();
    if (sender) {
        long old = shmem_long_atomic_fetch_add(h_count, 5, peer);
        if (old != 0) {
            fprintf(stderr, "amo_requests: mpi_blocked: PE %d fetched %ld\n", me, old);
            failures++;
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    shmem_barrier_all();
    if (!sender && peer >= 0 && *h_count != 5) {
        fprintf(stderr, "amo_requests: mpi_blocked: PE %d has %ld\n", me, *h_count);
        failures++;
    }
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    h_count = shmem_calloc(1, sizeof *h_count);
    h_flag = shmem_calloc(1, sizeof *h_flag);
    /* PE i sends to i + npes/2: on two pretend nodes, to the other node. */
    int half = npes / 2;
    int sender = me < half;
    int peer = sender ? me + half : (me < 2 * half ? me - half : -1);
    shmem_barrier_all();

    completion_case("quiet", QUIET, sender, peer);
    completion_case("ctx_quiet", CTX_QUIET, sender, peer);
    completion_case("fence", FENCE, sender, peer);
    completion_case("pe_quiet", PE_QUIET, sender, peer);
    completion_case("barrier", BARRIER, sender, peer);
    fetch_order_case(sender, peer);
    setup_entry_case(sender, peer);
    const char *with_thread = getenv("AMO_REQUESTS_THREAD");
    if (with_thread != NULL && atoi(with_thread) == 1)
        mpi_blocked_case(sender, peer);

    /* The requests must have been held, or this tested the MPI route. */
    if (sender && shmem_ptr(h_count, peer) == NULL && n_ever_held == 0) {
        fprintf(stderr, "amo_requests: PE %d sent no AMO request: the request route is "
                "not in use\n", me);
        failures++;
    }
    if (me == 0)
        printf("amo_requests: %lu requests held back on PE 0\n", n_ever_held);
    shmem_free(h_flag);
    shmem_free(h_count);
    shmem_finalize();
    return failures != 0;
}
