/*
 * An OpenSHMEM 1.0 program: the deprecated header path, start_pes,
 * _my_pe/_num_pes, shmalloc/shfree, shmem_long_put, shmem_long_wait_until,
 * and no shmem_finalize: the library must finalize when main returns (the
 * MPI launcher reports a process that exits without finalizing as an error).
 * It cannot use the Check harness, which calls shmem_init/shmem_finalize.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <mpi.h>
#include <mpp/shmem.h>

static int failures;

#define EXPECT(cond)                                                                      \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "PE %d: %s:%d: check failed: %s\n", _my_pe(), __FILE__,      \
                    __LINE__, #cond);                                                     \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)

/* Registered before start_pes, so it runs after the library's own exit
 * handler: by then the library and MPI must be finalized. */
static void check_finalized_at_exit(void)
{
    int init = -1, fin = 0;
    shmem_query_initialized(&init);
    MPI_Finalized(&fin);
    if (init != 0 || !fin) {
        fprintf(stderr, "setup_legacy: at exit the library is %s and MPI is %s\n",
                init ? "still initialized" : "finalized",
                fin ? "finalized" : "not finalized");
        _exit(1);
    }
}

int main(void)
{
    atexit(check_finalized_at_exit);
    start_pes(0);
    start_pes(0); /* a second call is harmless */
    int me = _my_pe(), npes = _num_pes();
    EXPECT(me == shmem_my_pe() && npes == shmem_n_pes());
    EXPECT(me >= 0 && me < npes);

    /* Every PE writes its slot on every PE. */
    long *slots = (long *)shmalloc(npes * sizeof(long));
    EXPECT(slots != NULL);
    long mine = 1000 + me;
    for (int pe = 0; pe < npes; pe++)
        shmem_long_put(&slots[me], &mine, 1, pe);
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++)
        EXPECT(slots[pe] == 1000 + pe);

    /* A token passed round the ring, each PE waiting for its turn. */
    long *token = (long *)shmalloc(sizeof(long));
    *token = -1;
    shmem_barrier_all();
    if (me == 0) {
        long t = 1;
        shmem_long_put(token, &t, 1, (me + 1) % npes);
    }
    shmem_long_wait_until(token, _SHMEM_CMP_GE, me == 0 ? npes : me);
    EXPECT(*token == (me == 0 ? npes : me));
    if (me != 0) {
        long t = me + 1;
        shmem_long_put(token, &t, 1, (me + 1) % npes);
    }
    shmem_barrier_all();

    shfree(token);
    shfree(slots);
    if (me == 0)
        printf("setup_legacy: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0; /* no shmem_finalize: the library does it at exit */
}
