/*
 * ctx_misuse: one misuse of contexts per run (argv[1]); ctx_misuse.sh
 * checks the job stops with the library's message.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>

static shmem_ctx_t shared_ctx;
static long *box;

/* Keeps the compiler from reasoning about a handle's origin. */
static void *launder(void *p)
{
    __asm__ volatile("" : "+r"(p));
    return p;
}

/* A destroyed context (or garbage) handed to another routine.  Returns -1
 * for a case that is not one of these. */
static int run_handle_case(const char *c)
{
    shmem_ctx_t ctx = SHMEM_CTX_INVALID, gone;
    shmem_team_t team;
    if (strncmp(c, "garbage_", 8) != 0 && shmem_ctx_create(0, &ctx) != 0)
        return -2;
    gone = ctx;
    if (ctx != SHMEM_CTX_INVALID)
        shmem_ctx_destroy(ctx);
    if (!strcmp(c, "destroy_twice"))
        shmem_ctx_destroy(gone);
    else if (!strcmp(c, "fence_destroyed"))
        shmem_ctx_fence(gone);
    else if (!strcmp(c, "get_team_destroyed"))
        shmem_ctx_get_team(gone, &team);
    else if (!strcmp(c, "session_destroyed"))
        shmem_ctx_session_start(gone, 0, NULL, 0);
    else if (!strcmp(c, "fetch_add_destroyed"))
        shmem_ctx_long_atomic_fetch_add(gone, box, 1, 0);
    else if (!strcmp(c, "garbage_destroy"))
        shmem_ctx_destroy(launder((void *)(uintptr_t)0x10));
    else if (!strcmp(c, "garbage_heap_quiet")) {
        void *junk = launder(malloc(4096)); /* mapped memory that is no context */
        memset(junk, 0x5a, 4096);
        shmem_ctx_quiet(junk);
    } else if (!strcmp(c, "garbage_get_team"))
        shmem_ctx_get_team(launder((void *)(uintptr_t)0xdead0000), &team);
    else
        return -1;
    return 0;
}

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
    } else if (!strcmp(c, "team_ctx_destroyed")) {
        /* A team's context, destroyed: its PE range check names the cause. */
        shmem_team_t all;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &all);
        shmem_team_create_ctx(all, 0, &ctx);
        shmem_ctx_destroy(ctx);
        shmem_ctx_long_atomic_add(ctx, box, 1, 0);
    } else if (run_handle_case(c) != 0) {
        fprintf(stderr, "unknown case %s\n", c);
        return 2;
    }
    printf("case %s: no error was reported (%d PEs)\n", c, npes);
    shmem_finalize();
    return 0;
}
