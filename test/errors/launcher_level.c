/* Started alone (no mpiexec): prints the MPI thread level shmem_init asked
 * for, which follows the launcher's count of processes on the node
 * (mpi_backend/runtime/launcher_env.c).  Used by launcher_env.sh. */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    int level;
    MPI_Query_thread(&level);
    printf("launcher_level: %s\n", level == MPI_THREAD_MULTIPLE ? "multiple" : "below");
    shmem_finalize();
    return 0;
}
