/*
 * ctx_misuse: one misuse of contexts per run (argv[1]); ctx_misuse.sh
 * checks the job stops with the library's message.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <shmem.h>

static shmem_ctx_t shared_ctx;
static long *box;

static void *other_thread(void *arg)
{
    (void)arg;
    shmem_ctx_long_p(shared_ctx, box, 1, 0);
    return NULL;
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    int provided;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    box = shmem_malloc(sizeof *box);
    int npes = shmem_n_pes();
    shmem_ctx_t ctx;
    if (!strcmp(c, "destroy_default"))
        shmem_ctx_destroy(SHMEM_CTX_DEFAULT);
    else if (!strcmp(c, "use_destroyed")) {
        shmem_ctx_create(0, &ctx);
        shmem_ctx_destroy(ctx);
        shmem_ctx_long_p(ctx, box, 1, 0);
    } else if (!strcmp(c, "quiet_destroyed")) {
        shmem_ctx_create(0, &ctx);
        shmem_ctx_destroy(ctx);
        shmem_ctx_quiet(ctx);
    } else if (!strcmp(c, "private_other_thread")) {
        shmem_ctx_create(SHMEM_CTX_PRIVATE, &shared_ctx);
        pthread_t t;
        pthread_create(&t, NULL, other_thread, NULL);
        pthread_join(t, NULL);
    } else if (!strcmp(c, "team_pe_range")) {
        shmem_team_t half;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &half);
        if (half != SHMEM_TEAM_INVALID) {
            shmem_team_create_ctx(half, 0, &ctx);
            shmem_ctx_long_p(ctx, box, 1, 1); /* the team has one PE */
        }
        shmem_barrier_all();
    } else if (!strcmp(c, "bad_options")) {
        shmem_ctx_create(1L << 9, &ctx);
    } else {
        fprintf(stderr, "unknown case %s\n", c);
        return 2;
    }
    printf("case %s: no error was reported (%d PEs)\n", c, npes);
    shmem_finalize();
    return 0;
}
