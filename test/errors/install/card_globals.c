/*
 * The design card's program, linked as the card says:
 *   mpicc -I$P/include app.c -L$P/lib -lmpishmem && mpiexec -n 4 ./a.out
 * -lmpishmem is the archive, and a program calling a few routines pulls
 * only a few of its objects.  This one checks that the parts that work at
 * load time still come along: its globals are symmetric and, with
 * MPISHMEM_SHM on, other PEs reach them by load/store (the constructor that
 * gives them a shared-memory backing ran).  `card_globals exit`: the last
 * PE returns without shmem_finalize, which the exit check must turn into a
 * message and a failed job.
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static int cells[256];
static long total;
static int good;

int main(int argc, char **argv)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
    shmem_int_p(&cells[me], me + 1, right);         /* a global, on another PE */
    shmem_long_atomic_add(&total, me + 1, 0);        /* an AMO on PE 0's global */
    shmem_barrier_all();
    int left = (me + n - 1) % n;
    int ok = n <= 256 && cells[left] == left + 1 && (me != 0 || total == (long)n * (n + 1) / 2);
    int direct = shmem_ptr(&cells[0], right) != NULL;
    shmem_int_atomic_add(&good, ok, 0);
    shmem_barrier_all();
    int all_ok = shmem_int_g(&good, 0) == n;
    if (me == 0)
        printf("%s: %d PEs, globals symmetric; globals by load/store: %s\n",
               all_ok ? "OK" : "FAILED", n, direct ? "yes" : "no");
    if (argc > 1 && strcmp(argv[1], "exit") == 0 && me == n - 1)
        return 0;                                    /* no shmem_finalize */
    shmem_finalize();
    return all_ok ? 0 : 1;
}
