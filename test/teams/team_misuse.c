/*
 * team_misuse: one misuse of the team API per run (argv[1]); the script
 * team_misuse.sh checks the job stops with the library's message.
 */
#include <stdio.h>
#include <string.h>
#include <shmem.h>

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_team_t t;
    if (!strcmp(c, "destroy_world"))
        shmem_team_destroy(SHMEM_TEAM_WORLD);
    else if (!strcmp(c, "destroy_shared"))
        shmem_team_destroy(SHMEM_TEAM_SHARED);
    else if (!strcmp(c, "destroy_twice")) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t);
        shmem_team_destroy(t);
        shmem_team_destroy(t);
    } else if (!strcmp(c, "use_destroyed")) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t);
        shmem_team_destroy(t);
        printf("%d\n", shmem_team_n_pes(t));
    } else if (!strcmp(c, "bad_triplet_debug"))
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes + 1, NULL, 0, &t);
    else if (!strcmp(c, "mismatched_triplet"))
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, me == 0 ? 1 : npes, NULL, 0, &t);
    else if (!strcmp(c, "bad_config_mask"))
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 1L << 5, &t);
    else if (!strcmp(c, "xrange_zero")) {
        shmem_team_t y;
        shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, NULL, 0, &t, NULL, 0, &y);
    } else {
        fprintf(stderr, "unknown case %s\n", c);
        return 2;
    }
    printf("case %s: no error was reported\n", c);
    shmem_finalize();
    return 0;
}
