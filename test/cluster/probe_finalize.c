/* Plain MPI, no SHMEM: does MPI_Finalize return on every rank when the
 * job spans the cluster's nodes (docs/mpi-quirks.md, "Between namespace
 * nodes")?  Each rank does one allreduce, then (with an argument "win")
 * makes and frees a window, then finalizes and prints that it returned.
 * A hang here is MPI's own: run it under timeout, e.g.
 *   MPISHMEM_TEST_NET=1 MPISHMEM_TEST_NODES=2 MPISHMEM_CLUSTER=STATE \
 *       MPISHMEM_TEST_TIMEOUT=20 build/test/launch.sh 4 build/test/cluster/probe_finalize */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, sum = 0, one = 1;
    char host[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (argc > 1 && strcmp(argv[1], "win") == 0) {
        long *base;
        MPI_Win win;
        MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
        MPI_Win_free(&win);
    }
    MPI_Finalize();
    printf("probe_finalize: rank %d of %d on %s: MPI_Finalize returned\n", rank, size, host);
    return sum != size;
}
