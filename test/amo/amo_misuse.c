/*
 * amo_misuse: makes one AMO/signal/lock mistake, named by argv[1], so that
 * amo_misuse.sh can check the library stops the job with its message.
 * Every PE makes the mistake (whichever reports first, the job stops).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <shmem.h>

static uint64_t g_sig;
static long g_dest[4];

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    shmem_init();
    int right = (shmem_my_pe() + 1) % shmem_n_pes();
    long *heap = shmem_calloc(4, sizeof(long));
    long src[4] = {1, 2, 3, 4};
    shmem_barrier_all();
    if (strcmp(c, "sig_op_put") == 0)
        shmem_long_put_signal(heap, src, 4, &g_sig, 1, 99, right);
    else if (strcmp(c, "sig_op_putmem_nbi") == 0)
        shmem_putmem_signal_nbi(g_dest, src, sizeof src, &g_sig, 1, -1, right);
    else if (strcmp(c, "sig_op_empty") == 0) /* no payload: sig_op is still checked */
        shmem_put64_signal(g_dest, src, 0, &g_sig, 1, 2, right);
    else if (strcmp(c, "amo_misaligned") == 0)
        shmem_int_atomic_add((int *)((char *)heap + 1), 1, right);
    else if (strcmp(c, "amo_misaligned_global") == 0)
        shmem_long_atomic_fetch_inc((long *)((char *)g_dest + 4), right);
    else if (strcmp(c, "lock_private") == 0) {
        long lock = 0;
        shmem_set_lock(&lock);
    } else {
        fprintf(stderr, "amo_misuse: unknown case '%s'\n", c);
        shmem_finalize();
        return 2;
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* the mistake went unnoticed */
}
