/* Linked with the other MPI than the library's: shmem_init must stop with
 * a message naming both, before it touches an MPI handle. */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    printf("PE %d started\n", shmem_my_pe());
    shmem_finalize();
    return 0;
}
