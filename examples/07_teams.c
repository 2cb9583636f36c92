/*
 * Tutorial step 7 (docs/tutorial.md): teams, and a reduction inside each.
 *
 * A team is a subset of the PEs with its own numbering.  Here the world is
 * split in two with shmem_team_split_strided: the even PEs (0, 2, 4, ...)
 * and the odd ones (1, 3, 5, ...).  Inside its team each PE is PE 0, 1,
 * 2, ... again, and a reduction on a team involves that team only: the
 * two teams add up their own members' numbers at the same time.
 *
 *   oshcc 07_teams.c -o teams && oshrun -n 4 ./teams
 */
#include <stdio.h>
#include <shmem.h>

static int my_number, team_sum;  /* reduction buffers: symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (n < 2) {
        printf("run at least 2 PEs\n");
        shmem_finalize();
        return 1;
    }

    /* Every PE calls both splits (they are collective over the world);
     * each PE ends up in one team and gets SHMEM_TEAM_INVALID for the other. */
    shmem_team_t even, odd;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &even);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd);
    shmem_team_t mine = me % 2 == 0 ? even : odd;

    /* On world PE 0: report[pe] is PE pe's number in its team; for each
     * team t (0 even, 1 odd), info[3t..3t+2] hold its size, the world number of
     * its last PE and its sum. */
    int *report = shmem_calloc((size_t)n, sizeof(int));
    int *info = shmem_calloc(6, sizeof(int));

    my_number = me;
    shmem_int_sum_reduce(mine, &team_sum, &my_number, 1);   /* within my team only */

    int tme = shmem_team_my_pe(mine), tn = shmem_team_n_pes(mine);
    shmem_int_p(&report[me], tme, 0);
    if (tme == 0) {                  /* each team's first PE reports for its team */
        /* Team PE numbers translate to world ones (and back). */
        int last = shmem_team_translate_pe(mine, tn - 1, SHMEM_TEAM_WORLD);
        int rec[3] = {tn, last, team_sum};
        shmem_int_put(&info[3 * (me % 2)], rec, 3, 0);
    }
    shmem_barrier_all();

    if (me == 0) {
        for (int pe = 0; pe < n; pe++)
            printf("world PE %d is PE %d of the %s team\n", pe, report[pe],
                   pe % 2 ? "odd" : "even");
        for (int t = 0; t < 2; t++)
            printf("%s team: %d PEs, the last is world PE %d, sum of world numbers %d\n",
                   t ? "odd" : "even", info[3 * t], info[3 * t + 1], info[3 * t + 2]);
    }

    shmem_free(info);
    shmem_free(report);
    shmem_team_destroy(mine);
    shmem_finalize();
    return 0;
}
