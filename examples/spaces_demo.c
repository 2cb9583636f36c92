/*
 * Demo: a dynamic memory space and a team split from its team.
 *
 * Every PE that can reach a CPU space joins it (try
 * MPISHMEM_VISIBLE_DEVICES=none on some PEs to leave them out).  The
 * members split their space team into pairs, each PE adds its number into
 * its partner's counter with an atomic in the space's memory, and the
 * space team's first PE collects the counters.
 *
 *   mpicc spaces_demo.c -lmpishmem && mpiexec -n 4 ./a.out
 */
#include <stdio.h>
#include <shmem.h>

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    shmem_space_config_t cfg = {.device_type = SHMEM_DEVICE_CPU,
                                .size = 1 << 20,
                                .flags = SHMEM_SPACE_FLAG_DEFAULT};
    shmem_space_t space;
    shmem_team_t space_team;
    int ok = 1;
    if (shmem_space_create(&cfg, &space, &space_team) != 0) {
        if (me == 0)
            printf("no CPU space could be created\n");
        shmem_finalize();
        return 1;
    }
    if (shmem_team_is_valid(space_team)) {
        int n = shmem_team_n_pes(space_team), tme = shmem_team_my_pe(space_team);
        shmem_team_t pairs, across;   /* x: PEs 0-1, 2-3, ...; y: the rest */
        shmem_team_split_2d(space_team, 2, NULL, 0, &pairs, NULL, 0, &across);
        long *counter = shmem_space_calloc(space, 1, sizeof(long));
        long *all = shmem_space_calloc(space, (size_t)n, sizeof(long));

        int np = shmem_team_n_pes(pairs), pme = shmem_team_my_pe(pairs);
        int partner = shmem_team_translate_pe(pairs, (pme + 1) % np, SHMEM_TEAM_WORLD);
        shmem_long_atomic_add(counter, me + 1, partner);
        shmem_barrier_all();        /* completes the AMOs in every space */

        int first = shmem_team_translate_pe(space_team, 0, SHMEM_TEAM_WORLD);
        shmem_long_p(&all[tme], *counter, first);
        shmem_barrier_all();
        if (tme == 0) {
            for (int i = 0; i < n; i++) {
                int w = shmem_team_translate_pe(space_team, i, SHMEM_TEAM_WORLD);
                printf("space PE %d (world PE %d) was given %ld\n", i, w, all[i]);
            }
            printf("%d of %d PEs are in the space\n", n, shmem_n_pes());
        }
        shmem_space_free(space, all);
        shmem_space_free(space, counter);
        shmem_team_destroy(pairs);
        shmem_team_destroy(across);
        shmem_team_destroy(space_team);   /* teams first: destroy refuses otherwise */
        ok = shmem_space_destroy(space) == 0;
    } else {
        shmem_barrier_all();        /* non-members still take part in world barriers */
        shmem_barrier_all();
    }
    shmem_finalize();
    return ok ? 0 : 1;
}
