/*
 * A team's routes are decided when it is made (teams/team_plan.h), and its
 * first collective carries them out without choosing again
 * (lib/coll/sync.c).  White box:
 *  - SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED and split teams hold a plan as
 *    soon as they are made, before any collective made their state, with
 *    the route the rules give: node-shared flags iff MPISHMEM_SHM is on,
 *    MPISHMEM_BARRIER is not mpi and every member shares this node; the
 *    algorithm MPISHMEM_BARRIER names (central or dissemination);
 *  - a plan changed after creation (alike on every member) is the route
 *    the first collective takes: flags set to MPI's stay off the flags,
 *    one flag algorithm set to the other runs it, and MPI's set to flags
 *    (on one node) maps them.  A first collective that chose by the rules
 *    would take the rules' route instead;
 *  - flags that cannot be mapped (PE 0 out of descriptors) give MPI's
 *    barrier on every member, and the plan says why.
 * After each, barriers and a small reduction must still give right
 * answers.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/resource.h>
#include <shmem.h>
#include "../../lib/coll/coll.h"
#include "../../mpi_backend/progress/node_barrier.h"
#include "../../mpi_backend/runtime/route_plan.h"
#include "../../teams/team.h"

static int me, npes, failures;
static long *slot; /* heap: one per world PE */

#define FAIL(...)                                                                          \
    do {                                                                                   \
        if (++failures <= 8) {                                                             \
            fprintf(stderr, "coll_teamplan: PE %d: ", me);                                 \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
        }                                                                                  \
    } while (0)

/* The flag algorithm MPISHMEM_BARRIER names, or MPISHMEM_BARRIER_MPI. */
static int setting(void)
{
    const char *shm = getenv("MPISHMEM_SHM"), *b = getenv("MPISHMEM_BARRIER");
    if ((shm && strcmp(shm, "0") == 0) || (b && strcasecmp(b, "mpi") == 0))
        return MPISHMEM_BARRIER_MPI;
    if (b && strcasecmp(b, "shm-central") == 0)
        return MPISHMEM_BARRIER_CENTRAL;
    if (b && strcasecmp(b, "shm-dissemination") == 0)
        return MPISHMEM_BARRIER_DISSEMINATION;
    /* auto, shm: central where waits sleep on the flags (route_plan.c) */
    return mpishmem_plan.yield && mpishmem_plan.sched_apart ? MPISHMEM_BARRIER_CENTRAL
                                                            : MPISHMEM_BARRIER_DISSEMINATION;
}

static int all_on_my_node(shmem_team_t t)
{
    for (int i = 0; i < shmem_team_n_pes(t); i++)
        if (shmem_team_translate_pe(t, i, SHMEM_TEAM_SHARED) < 0)
            return 0;
    return 1;
}

/* The rules' route for t. */
static int expected(shmem_team_t t)
{
    return all_on_my_node(t) ? setting() : MPISHMEM_BARRIER_MPI;
}

static void check_plan(const char *name, shmem_team_t t)
{
    if (t->coll != NULL)
        FAIL("%s: collective state made before any collective", name);
    if (t->plan.barrier != expected(t))
        FAIL("%s: plan's barrier is %s, the rules give %s", name,
             mpishmem_barrier_name(t->plan.barrier), mpishmem_barrier_name(expected(t)));
    if (t->plan.n != shmem_team_n_pes(t) || t->plan.me != shmem_team_my_pe(t))
        FAIL("%s: plan of %d PEs (me %d), team of %d (me %d)", name, t->plan.n, t->plan.me,
             shmem_team_n_pes(t), shmem_team_my_pe(t));
}

/* Barriers that a barrier letting a PE through early fails, and a small
 * reduction, over t. */
static void exercise(const char *name, shmem_team_t t)
{
    int n = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);
    int next = shmem_team_translate_pe(t, (tme + 1) % n, SHMEM_TEAM_WORLD);
    int prev = shmem_team_translate_pe(t, (tme + n - 1) % n, SHMEM_TEAM_WORLD);
    for (long r = 1; r <= 20; r++) {
        shmem_long_p(&slot[me], r, next);
        shmem_quiet();
        shmem_team_sync(t);
        long got = ((volatile long *)slot)[prev];
        if (got != r)
            FAIL("%s: round %ld: slot of the previous member holds %ld", name, r, got);
        shmem_team_sync(t);
    }
    static int src, dst;
    src = tme + 1;
    shmem_int_sum_reduce(t, &dst, &src, 1);
    if (dst != n * (n + 1) / 2)
        FAIL("%s: sum is %d, not %d", name, dst, n * (n + 1) / 2);
}

/* Set t's plan to `barrier` on every member, run it, check the route. */
static void forced(const char *name, shmem_team_t t, int barrier)
{
    t->plan.barrier = barrier;
    exercise(name, t);
    mpishmem_coll_comm_t *c = t->coll;
    struct mpishmem_node_barrier *b = c ? c->shm_barrier : NULL;
    int want_algo = barrier == MPISHMEM_BARRIER_CENTRAL ? MPISHMEM_NODE_BARRIER_CENTRAL
                                                        : MPISHMEM_NODE_BARRIER_DISSEMINATION;
    if (c == NULL || !c->barrier_ready)
        FAIL("%s: no route carried out after a barrier", name);
    else if ((barrier == MPISHMEM_BARRIER_MPI) != (b == NULL))
        FAIL("%s: plan says %s, the first collective took %s", name,
             mpishmem_barrier_name(barrier), b ? "the flags" : "MPI's barrier");
    else if (b != NULL && (int)b->algo != want_algo)
        FAIL("%s: plan says %s, the flags run the other algorithm", name,
             mpishmem_barrier_name(barrier));
}

static shmem_team_t copy_of_world(void)
{
    shmem_team_t t = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t);
    return t;
}

/* The flags a plan names cannot be mapped (PE 0, which makes them, may
 * open no descriptor at the first collective): every member takes MPI's
 * barrier, the fallback the plan names, and the plan says so. */
static void unmappable(void)
{
    shmem_team_t t = copy_of_world();
    if (t->plan.barrier != MPISHMEM_BARRIER_MPI && npes > 1) {
        struct rlimit was;
        getrlimit(RLIMIT_NOFILE, &was);
        if (me == 0) { /* every descriptor below the lowest free one is taken */
            int fd = dup(0);
            close(fd);
            struct rlimit none = {(rlim_t)fd, was.rlim_max};
            setrlimit(RLIMIT_NOFILE, &none);
        }
        shmem_team_sync(t);
        if (me == 0)
            setrlimit(RLIMIT_NOFILE, &was);
        mpishmem_coll_comm_t *c = t->coll;
        if (c == NULL || c->shm_barrier != NULL || t->plan.barrier != MPISHMEM_BARRIER_MPI ||
            t->plan.why != MPISHMEM_TEAM_UNMAPPED)
            FAIL("flags that cannot be mapped: the team is not on MPI's barrier, or its plan "
                 "does not say why");
        exercise("flags that cannot be mapped", t);
    }
    shmem_team_destroy(t);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    /* Before any collective: the predefined teams' plans. */
    check_plan("SHMEM_TEAM_WORLD", SHMEM_TEAM_WORLD);
    check_plan("SHMEM_TEAM_SHARED", SHMEM_TEAM_SHARED);
    slot = shmem_calloc((size_t)npes, sizeof(long));

    shmem_team_t evens = SHMEM_TEAM_INVALID, row = SHMEM_TEAM_INVALID,
                 col = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
    shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &row, NULL, 0, &col);
    if (evens != SHMEM_TEAM_INVALID)
        check_plan("evens", evens);
    check_plan("2D row", row);
    check_plan("2D column", col);
    if (evens != SHMEM_TEAM_INVALID)
        exercise("evens", evens);
    exercise("2D row", row);

    /* Plans changed after creation: the first collective follows them. */
    int rule = expected(SHMEM_TEAM_WORLD), on_node = all_on_my_node(SHMEM_TEAM_WORLD);
    const char *shm_var = getenv("MPISHMEM_SHM");
    int shm = !(shm_var && strcmp(shm_var, "0") == 0);
    shmem_team_t a = copy_of_world(), b = copy_of_world();
    if (rule != MPISHMEM_BARRIER_MPI) {
        forced("flags set to MPI's", a, MPISHMEM_BARRIER_MPI);
        forced("flags set to the other algorithm", b,
               rule == MPISHMEM_BARRIER_CENTRAL ? MPISHMEM_BARRIER_DISSEMINATION
                                                : MPISHMEM_BARRIER_CENTRAL);
    } else if (on_node && shm) {
        forced("MPI's set to the flags", a, MPISHMEM_BARRIER_DISSEMINATION);
        forced("MPI's set to central flags", b, MPISHMEM_BARRIER_CENTRAL);
    } else {
        forced("MPI's, kept", a, MPISHMEM_BARRIER_MPI);
    }
    shmem_team_destroy(a);
    shmem_team_destroy(b);
    unmappable();

    static int f_src, f_dst;
    f_src = failures;
    shmem_barrier_all();
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &f_dst, &f_src, 1);
    if (me == 0)
        printf("coll_teamplan: %d PEs, %s\n", npes, f_dst ? "FAILED" : "ok");
    shmem_free(slot);
    shmem_finalize();
    return f_dst ? EXIT_FAILURE : EXIT_SUCCESS;
}
