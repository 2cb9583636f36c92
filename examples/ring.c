/*
 * Demo: every PE puts its number into the next PE's global `inbox`, waits
 * for its own neighbour's message, then reports to PE 0 through the
 * symmetric heap.
 *
 *   mpicc ring.c -lmpishmem && mpiexec -n 4 ./a.out
 */
#include <stdio.h>
#include <shmem.h>

static long inbox = -1;     /* a global variable: symmetric, as the spec requires */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int *heard = shmem_calloc((size_t)n, sizeof(int));    /* from the symmetric heap */

    shmem_long_p(&inbox, me, (me + 1) % n);               /* tell the right neighbour */
    shmem_wait_until(&inbox, SHMEM_CMP_NE, -1);           /* hear from the left one */
    shmem_int_p(&heard[me], (int)inbox, 0);               /* report to PE 0 */
    shmem_barrier_all();

    int ok = 1;
    if (me == 0) {
        for (int pe = 0; pe < n; pe++) {
            printf("PE %d heard from PE %d\n", pe, heard[pe]);
            ok &= heard[pe] == (pe + n - 1) % n;
        }
        printf("%s: %d PEs passed a message around the ring\n", ok ? "OK" : "FAILED", n);
    }
    shmem_free(heard);
    shmem_finalize();
    return ok ? 0 : 1;
}
