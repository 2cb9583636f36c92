/*
 * The program owns MPI: MPI_Init_thread, then shmem_init, both used side by
 * side, shmem_finalize, and MPI still works until the program's own
 * MPI_Finalize.
 */
#include <mpi.h>
#include <stdlib.h>
#include <shmem.h>
#include "interop_check.h"

static long win_global[8];

static long ring_global = -1;

int main(int argc, char **argv)
{
    int provided, rank, size, flag;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* A communicator of the program's, made before the library starts. */
    MPI_Comm mine;
    MPI_Comm_dup(MPI_COMM_WORLD, &mine);

    shmem_query_initialized(&flag);
    CHECK(flag == 0, "shmem_query_initialized before shmem_init gave %d", flag);

    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(me == rank, "PE %d but MPI_COMM_WORLD rank %d", me, rank);
    CHECK(n == size, "%d PEs but MPI_COMM_WORLD size %d", n, size);
    shmem_query_initialized(&flag);
    CHECK(flag == 1, "shmem_query_initialized after shmem_init gave %d", flag);

    /* MPI collectives and point-to-point while the library is running. */
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size * (size - 1) / 2, "MPI_Allreduce sum %d", sum);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, heard = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 5, &heard, 1, MPI_INT, left, 5, mine,
                 MPI_STATUS_IGNORE);
    CHECK(heard == left, "MPI_Sendrecv gave %d, expected %d", heard, left);

    /* SHMEM puts to the right neighbour: a global and the heap. */
    int *slots = shmem_malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        slots[i] = -1;
    shmem_barrier_all();
    shmem_long_p(&ring_global, 100 + me, (me + 1) % n);
    for (int pe = 0; pe < n; pe++)
        shmem_int_p(&slots[me], 1000 * me + pe, pe);
    shmem_barrier_all();
    CHECK(ring_global == 100 + (me + n - 1) % n, "ring_global %ld", ring_global);
    for (int i = 0; i < n; i++)
        CHECK(slots[i] == 1000 * i + me, "slots[%d] = %d", i, slots[i]);

    /* The program's own MPI windows over a global and over the heap. */
    long *sym8 = shmem_malloc(8 * sizeof(long));
    interop_user_windows(win_global, sym8, "after shmem_init");
    shmem_barrier_all();
    shmem_free(sym8);

    /* MPI and SHMEM results combined: every PE saw every put. */
    long local = ring_global, total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, mine);
    CHECK(total == 100L * n + (long)n * (n - 1) / 2, "sum of ring_global %ld", total);

    shmem_free(slots);
    shmem_finalize();

    /* The library must leave the program's MPI alone. */
    MPI_Finalized(&flag);
    CHECK(flag == 0, "MPI_Finalized is %d after shmem_finalize", flag);
    MPI_Initialized(&flag);
    CHECK(flag == 1, "MPI_Initialized is %d after shmem_finalize", flag);
    shmem_query_initialized(&flag);
    CHECK(flag == 0, "shmem_query_initialized after shmem_finalize gave %d", flag);
    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Barrier failed");
    sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, mine);
    CHECK(sum == size * (size - 1) / 2, "MPI_Allreduce after shmem_finalize: %d", sum);

    int failures = 0;
    MPI_Allreduce(&interop_failures, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_free(&mine);
    MPI_Finalize();
    if (rank == 0)
        printf("%s: %d failed checks over %d PEs\n", failures ? "FAILED" : "OK", failures,
               size);
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
