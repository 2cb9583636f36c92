/*
 * Large collectives (lib/coll/coll_large.c, docs/collectives.md, "Large
 * collectives"): on one node the PEs copy straight from their peers'
 * symmetric memory; elsewhere (MPISHMEM_SHM=0, pretend nodes, device or
 * non-symmetric buffers) MPI's collective runs.  Checked in rounds whose
 * values change every round, at sizes just above a slot (65 longs), above
 * the size where reductions share the work (2100) and at 1 MiB:
 * fcollect (out of place, in place), collect (one part small enough for
 * a slot, the others not; every part large), broadcast from every root,
 * and reductions (long sum out of place and in place, double sum,
 * unsigned long max with the top bit set), on the world, a strided team
 * (start 1, stride 2) and the active sets of all PEs, evens and odds
 * through the deprecated routines; heap buffers, and global data at one
 * size.  Each PE overwrites its source as soon as a call returns, so a PE
 * returning while a peer still reads its source shows as wrong values.
 *
 * White box: MPI's collectives, and the messages of the library's polled
 * collectives, are interposed and counted while the large calls of teams
 * and sets of 2 PEs or more run on the heap.  Where every member shares
 * this node and the node-shared barrier is allowed, none may be called
 * (the direct path ran); elsewhere they must be.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int counting;
static long mpi_calls;
#define COUNTED(NAME, PARAMS, ARGS)                                                         \
    int NAME PARAMS                                                                         \
    {                                                                                       \
        mpi_calls += counting;                                                              \
        return P##NAME ARGS;                                                                \
    }
COUNTED(MPI_Allgather, (const void *s, int sc, MPI_Datatype st, void *r, int rc,
                        MPI_Datatype rt, MPI_Comm c), (s, sc, st, r, rc, rt, c))
COUNTED(MPI_Allgatherv, (const void *s, int sc, MPI_Datatype st, void *r, const int *rc,
                         const int *d, MPI_Datatype rt, MPI_Comm c), (s, sc, st, r, rc, d, rt, c))
COUNTED(MPI_Iallgather, (const void *s, int sc, MPI_Datatype st, void *r, int rc,
                         MPI_Datatype rt, MPI_Comm c, MPI_Request *q), (s, sc, st, r, rc, rt, c, q))
COUNTED(MPI_Iallgatherv, (const void *s, int sc, MPI_Datatype st, void *r, const int *rc,
                          const int *d, MPI_Datatype rt, MPI_Comm c, MPI_Request *q),
        (s, sc, st, r, rc, d, rt, c, q))
COUNTED(MPI_Bcast, (void *b, int n, MPI_Datatype t, int root, MPI_Comm c), (b, n, t, root, c))
COUNTED(MPI_Ibcast, (void *b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request *q),
        (b, n, t, root, c, q))
COUNTED(MPI_Allreduce, (const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c),
        (s, r, n, t, o, c))
COUNTED(MPI_Iallreduce, (const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c,
                         MPI_Request *q), (s, r, n, t, o, c, q))
/* Messages count only with the tags of the library's polled collectives
 * (32704-32711: broadcast, reduction, gather); its waits post receives of
 * their own. */
#define COLL_TAG(tag) ((tag) >= 32704 && (tag) < 32712)
int MPI_Isend(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c, MPI_Request *q)
{
    mpi_calls += counting && COLL_TAG(tag);
    return PMPI_Isend(b, n, t, to, tag, c, q);
}
int MPI_Irecv(void *b, int n, MPI_Datatype t, int from, int tag, MPI_Comm c, MPI_Request *q)
{
    mpi_calls += counting && COLL_TAG(tag);
    return PMPI_Irecv(b, n, t, from, tag, c, q);
}

#define MAX_LONGS (1 << 17) /* 1 MiB */
#define ROUNDS 3
static const size_t sizes[] = {65, 2100, MAX_LONGS};
static long errors, *src, *dst, *pwrk;
static long gsrc[2100], gdst[4 * 2100];
static long psync[SHMEM_REDUCE_SYNC_SIZE];
static int me, npes, round_no;

static void expect(long got, long want, const char *what, size_t n, size_t k)
{
    if (got != want && errors++ < 8)
        fprintf(stderr, "coll_large: PE %d: %s of %zu longs, round %d, element %zu: %ld, "
                "expected %ld\n", me, what, n, round_no, k, got, want);
}

/* Element k of world PE pe's source this round. */
static long val(int pe, size_t k)
{
    return (long)round_no * 1000003L + pe * 7919L + (long)k;
}

static void fill(long *a, size_t n, int pe)
{
    for (size_t k = 0; k < n; k++)
        a[k] = val(pe, k);
}

/* Overwrites a source the moment the call returns: a PE that returned
 * while a peer still read its source would hand that peer these. */
static void poison(long *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        s[k] = -7;
}

static void reset_psync(void)
{
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
}

/* A team or an active set: its members as world PEs. */
typedef struct group {
    const char *name;
    shmem_team_t team; /* SHMEM_TEAM_INVALID: the active set below */
    int start, log_stride, size;
    int world[64];
} group_t;

static void fcollect(group_t *g, long *d, long *s, size_t n, int in_place)
{
    int mine = 0;
    while (g->world[mine] != me)
        mine++;
    if (in_place)
        s = d + (size_t)mine * n;
    fill(s, n, me);
    if (g->team != SHMEM_TEAM_INVALID)
        shmem_fcollectmem(g->team, d, s, n * sizeof(long));
    else
        shmem_fcollect64(d, s, n, g->start, g->log_stride, g->size, psync);
    if (!in_place)
        poison(s, n);
    for (int i = 0; i < g->size; i++)
        for (size_t k = 0; k < n; k++)
            expect(d[(size_t)i * n + k], val(g->world[i], k), in_place ? "fcollect in place"
                                                                        : "fcollect", n, k);
}

/* Part of member i: one small part (fits a slot) at member 1 when `mixed`. */
static size_t part(int i, size_t n, int mixed)
{
    return mixed && i == 1 ? 7 : n + (size_t)i * 3;
}

static void collect(group_t *g, long *d, long *s, size_t n, int mixed)
{
    int mine = 0;
    while (g->world[mine] != me)
        mine++;
    fill(s, part(mine, n, mixed), me);
    if (g->team != SHMEM_TEAM_INVALID)
        shmem_collectmem(g->team, d, s, part(mine, n, mixed) * sizeof(long));
    else
        shmem_collect64(d, s, part(mine, n, mixed), g->start, g->log_stride, g->size, psync);
    poison(s, part(mine, n, mixed));
    size_t at = 0;
    for (int i = 0; i < g->size; i++)
        for (size_t k = 0; k < part(i, n, mixed); k++)
            expect(d[at++], val(g->world[i], k), mixed ? "collect (one small part)" : "collect",
                   n, k);
}

static void broadcast(group_t *g, long *d, long *s, size_t n, int root)
{
    fill(s, n, me);
    d[0] = -5;
    if (g->team != SHMEM_TEAM_INVALID)
        shmem_broadcastmem(g->team, d, s, n * sizeof(long), root);
    else
        shmem_broadcast64(d, s, n, root, g->start, g->log_stride, g->size, psync);
    poison(s, n);
    int legacy_root = g->team == SHMEM_TEAM_INVALID && g->world[root] == me;
    for (size_t k = 0; k < (legacy_root ? 1 : n); k++)
        expect(d[k], legacy_root ? -5 : val(g->world[root], k), "broadcast", n, k);
}

enum red { LONG_SUM, LONG_SUM_IN_PLACE, DOUBLE_SUM, ULONG_MAX_TOP };

static unsigned long uval(int pe, size_t k)
{
    return (unsigned long)val(pe, k) ^ (pe % 2 ? 1UL << 63 : 0);
}

static void reduce(group_t *g, long *d, long *s, size_t n, enum red r)
{
    int team = g->team != SHMEM_TEAM_INVALID;
    double *dd = (double *)d, *ds = (double *)s;
    unsigned long *ud = (unsigned long *)d, *us = (unsigned long *)s;
    switch (r) {
    case LONG_SUM_IN_PLACE:
        s = d; /* fall through */
    case LONG_SUM:
        fill(s, n, me);
        if (team)
            shmem_long_sum_reduce(g->team, d, s, n);
        else
            shmem_long_sum_to_all(d, s, (int)n, g->start, g->log_stride, g->size, pwrk, psync);
        break;
    case DOUBLE_SUM:
        for (size_t k = 0; k < n; k++)
            ds[k] = (double)val(me, k);
        if (team)
            shmem_double_sum_reduce(g->team, dd, ds, n);
        else
            shmem_double_sum_to_all(dd, ds, (int)n, g->start, g->log_stride, g->size,
                                    (double *)pwrk, psync);
        break;
    case ULONG_MAX_TOP:
        for (size_t k = 0; k < n; k++)
            us[k] = uval(me, k);
        shmem_ulong_max_reduce(team ? g->team : SHMEM_TEAM_WORLD, ud, us, n);
        break;
    }
    if (r != LONG_SUM_IN_PLACE)
        poison(s, n);
    static const char *const name[] = {"long sum", "long sum in place", "double sum",
                                       "unsigned long max"};
    for (size_t k = 0; k < n; k++) {
        long want = 0;
        unsigned long umax = 0;
        for (int i = 0; i < g->size; i++) {
            want += val(g->world[i], k);
            umax = uval(g->world[i], k) > umax ? uval(g->world[i], k) : umax;
        }
        if (r == DOUBLE_SUM)
            expect((long)dd[k], want, name[r], n, k);
        else if (r == ULONG_MAX_TOP)
            expect((long)ud[k], (long)umax, name[r], n, k);
        else
            expect(d[k], want, name[r], n, k);
    }
}

/* Whether the large calls of g must copy directly (no MPI collective;
 * g has more than one member: alone, a polled MPI route sends nothing). */
static int expect_direct(const group_t *g)
{
    const char *shm = getenv("MPISHMEM_SHM"), *mode = getenv("MPISHMEM_BARRIER");
    if ((shm && strcmp(shm, "0") == 0) || (mode && strcmp(mode, "mpi") == 0))
        return 0;
    for (int i = 0; i < g->size; i++)
        if (shmem_team_translate_pe(SHMEM_TEAM_WORLD, g->world[i], SHMEM_TEAM_SHARED) < 0)
            return 0;
    return 1;
}

/* Runs one call on the heap with MPI's collectives counted. */
#define ROUTED(g, what, CALL)                                                               \
    do {                                                                                    \
        mpi_calls = 0;                                                                      \
        counting = 1;                                                                       \
        CALL;                                                                               \
        counting = 0;                                                                       \
        if ((g)->size > 1 && (mpi_calls == 0) != expect_direct(g) && errors++ < 8)                           \
            fprintf(stderr, "coll_large: PE %d: %s %s: %ld MPI calls, expected %s\n", me,   \
                    (g)->name, what, mpi_calls, expect_direct(g) ? "none" : "some");        \
    } while (0)

static void run(group_t *g)
{
    if (g->team != SHMEM_TEAM_INVALID)
        shmem_team_sync(g->team); /* maps the team's flags: not counted */
    else
        shmem_sync(g->start, g->log_stride, g->size, psync);
    for (round_no = 0; round_no < ROUNDS; round_no++) {
        for (int z = 0; z < 3; z++) {
            size_t n = sizes[z];
            ROUTED(g, "fcollect", fcollect(g, dst, src, n, 0));
            ROUTED(g, "fcollect in place", fcollect(g, dst, src, n, 1));
            ROUTED(g, "collect", collect(g, dst, src, n, 0));
            if (g->size > 1)
                ROUTED(g, "collect mixed", collect(g, dst, src, n, 1));
            for (int root = 0; root < g->size; root++)
                ROUTED(g, "broadcast", broadcast(g, dst, src, n, root));
            for (int r = LONG_SUM; r <= ULONG_MAX_TOP; r++)
                if (r != ULONG_MAX_TOP || g->team != SHMEM_TEAM_INVALID)
                    ROUTED(g, "reduce", reduce(g, dst, src, n, (enum red)r));
        }
        /* Global data: either route gives the same answers. */
        fcollect(g, gdst, gsrc, 2100 / 4, 0);
        broadcast(g, gdst, gsrc, 2100, g->size - 1);
        reduce(g, gdst, gsrc, 2100, LONG_SUM);
    }
}

static int member(const group_t *g)
{
    for (int i = 0; i < g->size; i++)
        if (g->world[i] == me)
            return 1;
    return 0;
}

static void active_set(group_t *g, const char *name, int start, int log_stride, int size)
{
    *g = (group_t){name, SHMEM_TEAM_INVALID, start, log_stride, size, {0}};
    for (int i = 0; i < size; i++)
        g->world[i] = start + (i << log_stride);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > 8) {
        fprintf(stderr, "coll_large: at most 8 PEs\n");
        shmem_global_exit(2);
    }
    src = shmem_malloc((MAX_LONGS + 64) * sizeof(long));
    dst = shmem_malloc((size_t)npes * (MAX_LONGS + 64) * sizeof(long));
    pwrk = shmem_malloc((MAX_LONGS / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE) * sizeof(long));
    if (src == NULL || dst == NULL || pwrk == NULL) {
        fprintf(stderr, "coll_large: heap too small\n");
        shmem_global_exit(2);
    }
    reset_psync();
    group_t g[5];
    int ng = 0;
    g[ng] = (group_t){"world", SHMEM_TEAM_WORLD, 0, 0, npes, {0}};
    for (int i = 0; i < npes; i++)
        g[ng].world[i] = i;
    ng++;
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    if (npes >= 2) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
        g[ng] = (group_t){"strided team", odd, 1, 1, npes / 2, {0}};
        for (int i = 0; i < npes / 2; i++)
            g[ng].world[i] = 1 + 2 * i;
        ng++;
    }
    active_set(&g[ng++], "active set of all", 0, 0, npes);
    active_set(&g[ng++], "active set of evens", 0, 1, (npes + 1) / 2);
    if (npes >= 2)
        active_set(&g[ng++], "active set of odds", 1, 1, npes / 2);
    for (int i = 0; i < ng; i++) {
        if (member(&g[i]))
            run(&g[i]);
        shmem_barrier_all();
    }
    static long all, errs, sum_wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
    errs = errors;
    reset_psync();
    shmem_long_sum_to_all(&all, &errs, 1, 0, 0, npes, sum_wrk, psync);
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
    shmem_free(pwrk);
    shmem_free(dst);
    shmem_free(src);
    if (me == 0)
        printf("coll_large: %s (%ld errors)\n", all ? "FAIL" : "ok", all);
    shmem_finalize();
    return all ? 1 : 0;
}
