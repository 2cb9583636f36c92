/*
 * Tutorial step 1 (docs/tutorial.md): start, find out who we are, stop.
 *
 * Every PE (processing element: one process of the job) runs this same
 * program.  shmem_my_pe() and shmem_n_pes() tell a PE which one it is and
 * how many there are.  Lines printed by different PEs reach the terminal
 * in no fixed order, so each PE writes its greeting into an array on PE 0
 * and PE 0 prints them all, in PE order.
 *
 *   oshcc 01_hello.c -o hello && oshrun -n 4 ./hello
 */
#include <stdio.h>
#include <shmem.h>

#define LINE 64   /* bytes per greeting */

int main(void)
{
    shmem_init();                    /* every OpenSHMEM program starts here */
    int me = shmem_my_pe();          /* 0, 1, ..., n - 1 */
    int n = shmem_n_pes();

    /* Symmetric memory: shmem_calloc runs on every PE and returns the
     * same address everywhere, so a PE can name a place in another PE's
     * copy.  Here: n lines of text, zeroed. */
    char *board = shmem_calloc((size_t)n, LINE);

    char line[LINE];
    snprintf(line, sizeof line, "hello from PE %d of %d", me, n);
    /* Write my line into slot `me` of PE 0's board (a "put"). */
    shmem_putmem(&board[me * LINE], line, sizeof line, 0);

    /* A barrier waits for every PE and completes every put made before
     * it: after it, PE 0's board is full. */
    shmem_barrier_all();

    if (me == 0) {
        int major, minor;
        shmem_info_get_version(&major, &minor);
        printf("OpenSHMEM %d.%d, %d PEs\n", major, minor, n);
        for (int pe = 0; pe < n; pe++)
            printf("%s\n", &board[pe * LINE]);
    }

    shmem_free(board);               /* collective, like shmem_calloc */
    shmem_finalize();                /* and every program ends here */
    return 0;
}
