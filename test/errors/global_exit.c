/*
 * `global_exit STATUS PE WAIT`: PE number PE (-1: the last) calls
 * shmem_global_exit(STATUS) while every other PE is blocked, in
 * shmem_barrier_all (WAIT = barrier) or in shmem_long_wait_until on a
 * variable nobody writes (WAIT = wait).  The job must end with STATUS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>

static long never_set;

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s STATUS PE barrier|wait\n", argv[0]);
        return 2;
    }
    int status = atoi(argv[1]), who = atoi(argv[2]);
    shmem_init();
    int me = shmem_my_pe();
    if (who < 0)
        who = shmem_n_pes() - 1;
    /* Everyone is up before anyone leaves, so the others really block. */
    shmem_barrier_all();
    if (me == who) {
        printf("PE %d calls shmem_global_exit(%d)\n", me, status);
        shmem_global_exit(status);
        printf("shmem_global_exit returned\n");
        return 3;
    }
    if (!strcmp(argv[3], "wait"))
        shmem_long_wait_until(&never_set, SHMEM_CMP_NE, 0);
    else
        shmem_barrier_all();
    printf("PE %d was not stopped\n", me);
    shmem_finalize();
    return 0;
}
