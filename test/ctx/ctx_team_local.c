/*
 * ctx_team_local: shmem_team_create_ctx is not collective (OpenSHMEM 1.6).
 *   - PE 0 creates a context on SHMEM_TEAM_SHARED while the others create
 *     one on SHMEM_TEAM_WORLD (this hung when creation was collective);
 *   - PE 0 alone creates and destroys contexts on the world team;
 *   - the per-team SHMEM_TEAM_NUM_CONTEXTS budget counts this PE's live
 *     contexts only;
 *   - SHMEM_TEAM_INVALID gives nonzero and *ctx = SHMEM_CTX_INVALID, on
 *     which quiet is a no-op.
 * alarm() turns a hang into a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <shmem.h>

static int me, npes, failures;

#define CHECK(c, what)                                                                     \
    do {                                                                                   \
        if (!(c)) {                                                                        \
            fprintf(stderr, "PE %d: line %d: %s\n", me, __LINE__, what);                   \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

int main(void)
{
    shmem_init();
    alarm(60);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    long *box = shmem_calloc((size_t)npes, sizeof(long));
    shmem_barrier_all();

    /* Different teams on different PEs, at the same time. */
    shmem_team_t team = me == 0 ? SHMEM_TEAM_SHARED : SHMEM_TEAM_WORLD;
    shmem_ctx_t c = SHMEM_CTX_INVALID;
    CHECK(shmem_team_create_ctx(team, 0, &c) == 0, "create on own team");
    if (c != SHMEM_CTX_INVALID) {
        /* PE 0 of any team is a member of it: put to team PE 0. */
        shmem_ctx_long_p(c, &box[me], me + 100, 0);
        shmem_ctx_quiet(c);
        shmem_ctx_destroy(c);
    }
    shmem_barrier_all();
    /* Team PE 0 is world PE 0 for WORLD; for SHARED it is the first PE of
     * PE 0's node, which is PE 0 itself. */
    if (me == 0)
        for (int pe = 0; pe < npes; pe++)
            CHECK(box[pe] == pe + 100, "value put through a team context");

    /* Only PE 0 creates: no other PE takes part. */
    if (me == 0) {
        shmem_ctx_t many[4];
        for (int i = 0; i < 4; i++)
            CHECK(shmem_team_create_ctx(SHMEM_TEAM_WORLD, 0, &many[i]) == 0, "PE 0 alone");
        for (int i = 0; i < 4; i++)
            shmem_ctx_destroy(many[i]);
    }

    /* Budget: this PE's live contexts on the team. */
    shmem_team_config_t conf = {.num_contexts = 1};
    shmem_team_t t;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &conf,
                                   SHMEM_TEAM_NUM_CONTEXTS, &t) == 0, "split");
    shmem_ctx_t a = SHMEM_CTX_INVALID, b = SHMEM_CTX_DEFAULT;
    if (me == npes - 1) { /* the last PE alone uses its budget */
        CHECK(shmem_team_create_ctx(t, 0, &a) == 0, "first context within budget");
        CHECK(shmem_team_create_ctx(t, 0, &b) != 0, "second context over budget");
        CHECK(b == SHMEM_CTX_INVALID, "over budget gives SHMEM_CTX_INVALID");
        shmem_ctx_destroy(a);
        CHECK(shmem_team_create_ctx(t, 0, &a) == 0, "room again after destroy");
        shmem_ctx_destroy(a);
    }
    shmem_team_destroy(t);

    /* The invalid team. */
    shmem_ctx_t bad = SHMEM_CTX_DEFAULT;
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &bad) != 0, "invalid team refused");
    CHECK(bad == SHMEM_CTX_INVALID, "invalid team gives SHMEM_CTX_INVALID");
    shmem_ctx_quiet(bad); /* a no-op on SHMEM_CTX_INVALID */

    shmem_barrier_all();
    int total = 0;
    static int sum_src, sum_dst;
    sum_src = failures;
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &sum_dst, &sum_src, 1);
    total = sum_dst;
    if (me == 0)
        printf("ctx_team_local: %s\n", total ? "FAILED" : "ok");
    shmem_free(box);
    shmem_finalize();
    return total ? EXIT_FAILURE : EXIT_SUCCESS;
}
