/*
 * Start the library and report, from PE 0, whether a 2 MiB symmetric
 * allocation fits: the heap size the library chose is observable this way.
 * Used by env_errors.sh.
 */
#include <stdio.h>
#include <shmem.h>

int main(void)
{
    shmem_init();
    void *p = shmem_malloc((size_t)2 << 20);
    if (shmem_my_pe() == 0)
        printf("env_probe: 2 MiB allocation %s on %d PEs\n", p ? "succeeded" : "failed",
               shmem_n_pes());
    shmem_free(p);
    shmem_finalize();
    return 0;
}
