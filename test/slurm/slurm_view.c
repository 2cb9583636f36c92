/*
 * mpishmem test: what a PE sees when a Slurm job started it (slurm_cluster.sh).
 * Each PE puts its number into its right neighbour, waits at a barrier and
 * prints its left neighbour's number, and the count of processes on its
 * node that the library read from the launcher before MPI started.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include <stdio.h>

/* The library's launcher reader (mpi_backend/runtime/launcher_env.h). */
int mpishmem_launcher_local_size(void);

static long from_left = -1;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_long_p(&from_left, me, (me + 1) % n);
    shmem_barrier_all();
    printf("pe %d of %d: from left %ld, launcher local size %d\n", me, n, from_left,
           mpishmem_launcher_local_size());
    shmem_finalize();
    return 0;
}
