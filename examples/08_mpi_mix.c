/*
 * Tutorial step 8 (docs/tutorial.md): MPI and SHMEM in one program.
 *
 * PE numbers are MPI_COMM_WORLD ranks, and the two libraries can share the
 * work: here MPI splits the job into rows of a 2-wide grid,
 * shmemx_team_create_from_comm turns each row's communicator into a SHMEM
 * team, each PE puts a value into its row neighbour's symmetric inbox
 * (SHMEM), and the row adds up its inboxes with MPI_Allreduce on the
 * communicator behind the team (shmemx_team_get_mpi_comm).  MPI_Gather
 * brings every PE's line to rank 0, which prints them in order.
 *
 *   oshcc 08_mpi_mix.c -o mpi_mix && oshrun -n 4 ./mpi_mix
 */
#include <mpi.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>

#define LINE 96

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);          /* the program owns MPI ... */
    shmem_init();                    /* ... and SHMEM runs on top of it */
    int me = shmem_my_pe(), npes = shmem_n_pes();

    MPI_Comm row;
    MPI_Comm_split(MPI_COMM_WORLD, me / 2, me, &row);
    shmem_team_t team;
    if (shmemx_team_create_from_comm(row, &team) != 0)
        shmem_global_exit(1);

    long *inbox = shmem_malloc(sizeof *inbox);
    *inbox = 0;
    shmem_barrier_all();
    int tme = shmem_team_my_pe(team), tn = shmem_team_n_pes(team);
    int right = shmem_team_translate_pe(team, (tme + 1) % tn, SHMEM_TEAM_WORLD);
    shmem_long_p(inbox, 100 + me, right);   /* SHMEM: one-sided put */
    shmem_barrier_all();

    MPI_Comm comm;
    shmemx_team_get_mpi_comm(team, &comm);
    long row_sum = 0;
    MPI_Allreduce(inbox, &row_sum, 1, MPI_LONG, MPI_SUM, comm);  /* MPI: a collective */

    /* Row r holds world PEs 2r and 2r+1 (if it exists): both APIs must agree. */
    long want = 0;
    for (int pe = me / 2 * 2; pe < me / 2 * 2 + tn; pe++)
        want += 100 + pe;
    int left = shmem_team_translate_pe(team, (tme + tn - 1) % tn, SHMEM_TEAM_WORLD);
    int ok = row_sum == want && *inbox == 100 + left;

    char line[LINE], *all = NULL;
    snprintf(line, sizeof line, "PE %d: row %d has %d PE(s), received %ld, row sum %ld%s", me,
             me / 2, tn, *inbox, row_sum, ok ? "" : " (WRONG)");
    if (me == 0)
        all = malloc((size_t)npes * LINE);
    MPI_Gather(line, LINE, MPI_CHAR, all, LINE, MPI_CHAR, 0, MPI_COMM_WORLD);
    int all_ok = 0;
    MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
    if (me == 0) {
        for (int pe = 0; pe < npes; pe++)
            printf("%s\n", all + (size_t)pe * LINE);
        printf("%s: SHMEM puts and MPI sums agree on %d PEs\n", all_ok ? "OK" : "FAILED", npes);
        free(all);
    }
    MPI_Bcast(&all_ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

    shmem_free(inbox);
    shmem_team_destroy(team);
    MPI_Comm_free(&row);
    shmem_finalize();
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
