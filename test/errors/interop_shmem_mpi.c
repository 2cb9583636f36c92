/*
 * The library owns MPI: shmem_init starts it, the program may use MPI in
 * between, and shmem_finalize finalizes it.
 */
#include <mpi.h>
#include <stdlib.h>
#include <shmem.h>
#include "interop_check.h"

static long win_global[8];

int main(void)
{
    int flag = -1;
    MPI_Initialized(&flag);
    CHECK(flag == 0, "MPI_Initialized is %d before shmem_init", flag);

    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    MPI_Initialized(&flag);
    CHECK(flag == 1, "MPI_Initialized is %d after shmem_init", flag);
    MPI_Finalized(&flag);
    CHECK(flag == 0, "MPI_Finalized is %d after shmem_init", flag);

    int rank = -1, size = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(rank == me && size == n, "MPI rank %d of %d, PE %d of %d", rank, size, me, n);

    /* User MPI traffic next to SHMEM traffic: PE 0 gathers by puts, then
     * broadcasts the sum with MPI. */
    long *cells = shmem_calloc((size_t)n, sizeof(long));
    shmem_long_p(&cells[me], me + 1, 0);
    shmem_barrier_all();
    long bcast = 0;
    if (me == 0)
        for (int i = 0; i < n; i++)
            bcast += cells[i];
    MPI_Bcast(&bcast, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    CHECK(bcast == (long)n * (n + 1) / 2, "MPI_Bcast of the SHMEM sum gave %ld", bcast);
    long last = shmem_long_g(&cells[n - 1], 0);
    CHECK(last == n, "shmem_long_g gave %ld", last);
    int sum = 0;
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == n * (n - 1) / 2, "MPI_Allreduce gave %d", sum);
    /* Every PE's checks so far, while MPI is still up. */
    /* The program's own MPI windows over a global and over the heap. */
    long *sym8 = shmem_malloc(8 * sizeof(long));
    interop_user_windows(win_global, sym8, "after shmem_init");
    shmem_barrier_all();
    shmem_free(sym8);

    int failures = 0;
    MPI_Allreduce(&interop_failures, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    shmem_free(cells);

    shmem_finalize();
    MPI_Finalized(&flag);
    CHECK(flag == 1, "MPI_Finalized is %d after shmem_finalize", flag);
    /* MPI is down: each PE reports its own result through its exit status. */
    if (me == 0)
        printf("%s: %d failed checks over %d PEs before shmem_finalize\n",
               failures ? "FAILED" : "OK", failures, n);
    return failures || interop_failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
