/*
 * Barriers and syncs that a broken barrier cannot pass, on every route
 * (node-shared flags or MPI, lib/coll/sync.c).
 *
 * Each round r, every member of a team writes r into its own slot (its
 * world PE number: one writer per slot, whatever the team) of every
 * member's array (puts, or direct stores where shmem_ptr maps the
 * peer), synchronizes, and checks that it sees r from every member.  The
 * rounds alternate between two arrays, so one barrier per round suffices
 * with a correct barrier: a PE can write round r+2 into an array only after
 * the barrier of round r+1, which every PE enters after its check of round
 * r.  A barrier that lets a PE through early shows a stale slot.
 *
 * Run over: shmem_barrier_all, shmem_sync_all (after a quiet, or after
 * plain stores: sync orders memory), shmem_team_sync on the world, on
 * SHMEM_TEAM_SHARED and on split teams (evens, odds, pairs, halves), and
 * the deprecated shmem_barrier/shmem_sync on active sets, in the heap and
 * in global data.  White box: each team's barrier took the route the rules
 * give (node-shared flags iff MPISHMEM_SHM is on, MPISHMEM_BARRIER is not
 * mpi, and every member shares the node); under MPISHMEM_TEST_NODES=2 the
 * world must span the pretend nodes, so its barrier must be MPI's.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>
#include "../../lib/coll/coll.h"

#define MAX_PES 64
/* Rounds per run (even, see next_run): fewer when PEs outnumber the
 * cores of a small machine, where each round costs a scheduling slice. */
#define ROUNDS (npes > 2 ? 30 : 100)

enum how { BARRIER_ALL, SYNC_ALL_PUT, SYNC_ALL_STORE, TEAM_SYNC_PUT, TEAM_SYNC_STORE,
           ACTIVE_BARRIER, ACTIVE_SYNC };
static const char *const how_name[] = {"shmem_barrier_all", "quiet + shmem_sync_all",
                                       "stores + shmem_sync_all", "quiet + shmem_team_sync",
                                       "stores + shmem_team_sync", "shmem_barrier (active set)",
                                       "quiet + shmem_sync (active set)"};

static long g_buf[2 * MAX_PES];     /* global data */
static long *h_buf;                 /* heap */
static long pSync[SHMEM_BARRIER_SYNC_SIZE];
static int failures, me, npes;
/* Values of a run are serial + round; every PE advances serial at every
 * run, member or not, so members agree and no run sees an earlier run's
 * value as current. */
static long serial;

static void fail(const char *fmt, ...)
{
    if (++failures <= 5) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "coll_barrier: PE %d: ", me);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
}

struct set { int start, log, size; }; /* an active set, for ACTIVE_* */

static void synchronize(enum how how, shmem_team_t team, const struct set *as)
{
    switch (how) {
    case BARRIER_ALL: shmem_barrier_all(); break;
    case SYNC_ALL_PUT: shmem_quiet(); shmem_sync_all(); break;
    case SYNC_ALL_STORE: shmem_sync_all(); break;
    case TEAM_SYNC_PUT: shmem_quiet(); shmem_team_sync(team); break;
    case TEAM_SYNC_STORE: shmem_team_sync(team); break;
    case ACTIVE_BARRIER: shmem_barrier(as->start, as->log, as->size, pSync); break;
    case ACTIVE_SYNC: shmem_quiet(); shmem_sync(as->start, as->log, as->size, pSync); break;
    }
}

/* ROUNDS rounds of write-everyone, synchronize, check-everyone over team
 * (its world PEs in world[0..n)). */
static void rounds(const char *team_name, enum how how, shmem_team_t team, const struct set *as,
                   const int *world, int n, long *buf)
{
    int stores = how == SYNC_ALL_STORE || how == TEAM_SYNC_STORE;
    for (long r = 1; r <= ROUNDS; r++) {
        long *slot = buf + (r & 1) * MAX_PES, v = serial + r;
        for (int i = 0; i < n; i++) {
            long *peer = stores ? shmem_ptr(slot + me, world[i]) : NULL;
            if (peer != NULL)
                *peer = v;
            else
                shmem_long_p(slot + me, v, world[i]);
        }
        if (stores)
            shmem_quiet(); /* only the puts made where shmem_ptr gave nothing */
        synchronize(how, team, as);
        for (int i = 0; i < n; i++) {
            long got = ((volatile long *)slot)[world[i]];
            if (got != v)
                fail("%s, %s: round %ld: member %d's slot holds %ld, not %ld", team_name,
                     how_name[how], r, i, got, v);
        }
    }
}

/* Every PE calls each run in the same order; non-members skip it.  A run
 * ends in round ROUNDS (even: array 0) and the next starts in array 1, so
 * a PE that moves on early cannot overwrite a slot still being checked. */
static int next_run(void)
{
    serial += 2 * ROUNDS;
    return 1;
}

static int on_my_node(int pe)
{
    return shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) >= 0;
}

/* The route the rules give for members world[0..n) (c: their state). */
static int expect_shm(const int *world, int n)
{
    const char *shm = getenv("MPISHMEM_SHM"), *mode = getenv("MPISHMEM_BARRIER");
    if ((shm && strcmp(shm, "0") == 0) || (mode && strcmp(mode, "mpi") == 0))
        return 0;
    for (int i = 0; i < n; i++)
        if (!on_my_node(world[i]))
            return 0;
    return 1;
}

static void check_route(const char *team_name, mpishmem_coll_comm_t *c, const int *world, int n)
{
    int want = expect_shm(world, n), got = c->barrier_ready && c->shm_barrier != NULL;
    if (!c->barrier_ready)
        fail("%s: route not chosen after a barrier", team_name);
    else if (want != got)
        fail("%s: barrier route is %s, expected %s", team_name,
             got ? "node-shared flags" : "MPI", want ? "node-shared flags" : "MPI");
}

static void team_runs(const char *name, shmem_team_t team)
{
    int member = team != SHMEM_TEAM_INVALID;
    int n = member ? shmem_team_n_pes(team) : 0;
    int world[MAX_PES];
    for (int i = 0; i < n; i++)
        world[i] = shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD);
    if (next_run() && member)
        rounds(name, TEAM_SYNC_PUT, team, NULL, world, n, h_buf);
    if (next_run() && member)
        rounds(name, TEAM_SYNC_STORE, team, NULL, world, n, g_buf);
    if (!member)
        return;
    check_route(name, mpishmem_coll_team("coll_barrier", team), world, n);
}

static void active_runs(const char *name, int start, int log, int size)
{
    if (size < 1 || start + ((size - 1) << log) >= npes)
        return;
    int world[MAX_PES], tme = -1;
    for (int i = 0; i < size; i++) {
        world[i] = start + (i << log);
        if (world[i] == me)
            tme = i;
    }
    struct set as = {start, log, size};
    if (next_run() && tme >= 0)
        rounds(name, ACTIVE_BARRIER, SHMEM_TEAM_INVALID, &as, world, size, g_buf);
    if (next_run() && tme >= 0)
        rounds(name, ACTIVE_SYNC, SHMEM_TEAM_INVALID, &as, world, size, h_buf);
    if (tme >= 0)
        check_route(name, mpishmem_active_set("coll_barrier", start, log, size, pSync,
                                              SHMEM_BARRIER_SYNC_SIZE), world, size);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > MAX_PES) {
        fprintf(stderr, "coll_barrier: at most %d PEs\n", MAX_PES);
        shmem_global_exit(1);
    }
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    h_buf = shmem_calloc(2 * MAX_PES, sizeof(long));
    shmem_barrier_all();

    /* The world: barrier_all, sync_all both ways, team_sync. */
    int world[MAX_PES];
    for (int i = 0; i < npes; i++)
        world[i] = i;
    static const enum how world_hows[] = {BARRIER_ALL, BARRIER_ALL, SYNC_ALL_PUT,
                                          SYNC_ALL_STORE, SYNC_ALL_STORE};
    for (int k = 0; k < 5; k++)
        if (next_run())
            rounds("world", world_hows[k], SHMEM_TEAM_WORLD, NULL, world, npes,
                   k % 2 ? h_buf : g_buf);
    team_runs("world", SHMEM_TEAM_WORLD);

    /* Two pretend nodes: the world spans them, so its barrier is MPI's. */
    const char *nodes = getenv("MPISHMEM_TEST_NODES");
    if (nodes && atoi(nodes) > 1 && npes > 1 &&
        shmem_team_n_pes(SHMEM_TEAM_SHARED) * atoi(nodes) != npes)
        fail("MPISHMEM_TEST_NODES=%s but SHMEM_TEAM_SHARED has %d of %d PEs", nodes,
             shmem_team_n_pes(SHMEM_TEAM_SHARED), npes);

    team_runs("SHMEM_TEAM_SHARED", SHMEM_TEAM_SHARED);

    /* Split teams: evens and odds, pairs, halves. */
    shmem_team_t evens = SHMEM_TEAM_INVALID, odds = SHMEM_TEAM_INVALID;
    shmem_team_t row = SHMEM_TEAM_INVALID, col = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
    if (npes > 1)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odds);
    team_runs("evens", evens);
    team_runs("odds", odds);
    shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &row, NULL, 0, &col);
    team_runs("pairs (2D rows)", row);
    team_runs("2D columns", col);
    /* A team's barrier state goes with the team; a new team over the same
     * PEs makes its own. */
    if (evens != SHMEM_TEAM_INVALID)
        shmem_team_destroy(evens);
    shmem_barrier_all();
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
    team_runs("evens again", evens);

    /* Active sets (deprecated API). */
    active_runs("all PEs", 0, 0, npes);
    active_runs("evens", 0, 1, (npes + 1) / 2);
    active_runs("upper half", npes / 2, 0, npes - npes / 2);

    int all = 0;
    static int f_src, f_dst;
    f_src = failures;
    shmem_barrier_all();
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &f_dst, &f_src, 1);
    all = f_dst;
    if (me == 0)
        printf("coll_barrier: %d PEs, %s\n", npes, all ? "FAILED" : "ok");
    shmem_free(h_buf);
    shmem_finalize();
    return all ? EXIT_FAILURE : EXIT_SUCCESS;
}
