/* An OpenSHMEM 1.0 program: <mpp/shmem.h>, start_pes, no shmem_finalize. */
#include <mpp/shmem.h>
#include <stdio.h>

static long from_left = -1;

int main(void)
{
    start_pes(0);
    int me = _my_pe(), n = _num_pes();
    long v = me;
    shmem_long_put(&from_left, &v, 1, (me + 1) % n);
    shmem_barrier_all();
    int ok = from_left == (me + n - 1) % n;
    if (!ok)
        printf("FAILED: PE %d got %ld\n", me, from_left);
    else if (me == 0)
        printf("OK: mpp/shmem.h program on %d PEs\n", n);
    return ok ? 0 : 1;
}
