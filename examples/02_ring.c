/*
 * Tutorial step 2 (docs/tutorial.md): one-sided put and get around a ring.
 *
 * PE i writes its number into the global `inbox` of PE i+1 (a put), waits
 * until its own inbox has been written by PE i-1, then reads a value out
 * of PE i+1's memory (a get).  Nobody calls "receive": the PE whose memory
 * is read or written takes no part in the transfer.
 *
 *   oshcc 02_ring.c -o ring && oshrun -n 4 ./ring
 */
#include <stdio.h>
#include <shmem.h>

/* Global and static variables are symmetric too: every PE has its own
 * `inbox` at the same address. */
static long inbox = -1;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n;

    long *secret = shmem_malloc(sizeof *secret);   /* from the symmetric heap */
    int *report = shmem_calloc(2 * (size_t)n, sizeof *report);
    *secret = 100 + me;
    shmem_barrier_all();             /* every secret is set before anyone reads one */

    shmem_long_p(&inbox, me, right);                /* put: my number to the right */
    shmem_wait_until(&inbox, SHMEM_CMP_NE, -1);     /* wait for the left neighbour's */
    long got = shmem_long_g(secret, right);         /* get: read the right one's secret */

    /* Report both to PE 0, then let PE 0 print them in order. */
    int mine[2] = {(int)inbox, (int)got};
    shmem_int_put(&report[2 * me], mine, 2, 0);
    shmem_barrier_all();

    int ok = 1;
    if (me == 0) {
        for (int pe = 0; pe < n; pe++) {
            printf("PE %d heard from PE %d and read %d from PE %d\n", pe, report[2 * pe],
                   report[2 * pe + 1], (pe + 1) % n);
            ok &= report[2 * pe] == (pe + n - 1) % n && report[2 * pe + 1] == 100 + (pe + 1) % n;
        }
        printf("%s: %d PEs passed a message around the ring\n", ok ? "OK" : "FAILED", n);
    }
    shmem_free(report);
    shmem_free(secret);
    shmem_finalize();
    return ok ? 0 : 1;
}
