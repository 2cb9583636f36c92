/*
 * mpi_mix: one program, two APIs on the same groups of processes.
 *
 * MPI splits the job into rows of a 2-wide grid; shmemx_team_create_from_comm
 * turns each row communicator into a SHMEM team.  Inside a row, each PE puts
 * its value into its neighbour's symmetric buffer (SHMEM), then the row sums
 * the received values with MPI_Allreduce on the communicator behind the team
 * (shmemx_team_get_mpi_comm).  Run: mpiexec -n 4 ./mpi_mix
 */
#include <mpi.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>

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
    shmem_long_p(inbox, 100 + me, right);   /* SHMEM one-sided put */
    shmem_barrier_all();

    MPI_Comm comm;
    shmemx_team_get_mpi_comm(team, &comm);
    long row_sum = 0;
    MPI_Allreduce(inbox, &row_sum, 1, MPI_LONG, MPI_SUM, comm);  /* MPI collective */
    printf("PE %d of %d: row %d has %d PE(s), received %ld, row sum %ld\n", me, npes, me / 2,
           tn, *inbox, row_sum);
    /* Row r holds world PEs 2r and 2r+1 (if it exists): check both APIs agreed. */
    long want = 0;
    for (int pe = me / 2 * 2; pe < me / 2 * 2 + tn; pe++)
        want += 100 + pe;
    int left = shmem_team_translate_pe(team, (tme + tn - 1) % tn, SHMEM_TEAM_WORLD);
    if (row_sum != want || *inbox != 100 + left) {
        fprintf(stderr, "PE %d: expected row sum %ld and %d received\n", me, want, 100 + left);
        shmem_global_exit(1);
    }

    shmem_free(inbox);
    shmem_team_destroy(team);
    MPI_Comm_free(&row);
    shmem_finalize();
    MPI_Finalize();
    return 0;
}
