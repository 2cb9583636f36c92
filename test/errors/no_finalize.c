/*
 * Leaving main without shmem_finalize (issue 20): `no_finalize CASE`.
 * no_finalize.sh runs each case and checks the job's status and messages.
 *
 *   all:   OpenSHMEM 1.0-1.3 style: shmem_init, a put to the right
 *          neighbour, a barrier, a check, return 0 on every PE; the library
 *          finalizes at exit and the job ends with status 0
 *   late:  the same, but PE 0 returns at once and the others 1 s later
 *          (still status 0: the leaving PEs wait for each other)
 *   early: PE 0 returns right away while the others sleep 1 s and then
 *          call shmem_barrier_all; the job must stop, non-zero, by name
 *   exit3: every PE calls exit(3) without finalizing: non-zero
 *   one3:  the last PE calls exit(3), the others return 0: non-zero
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <shmem.h>

static long cell = -1;

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "all";
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (!strcmp(c, "early")) {
        if (me == 0)
            return 0; /* leaves while the others still work */
        sleep(1);
        shmem_barrier_all();
        printf("PE %d: was not stopped\n", me);
        shmem_finalize();
        return 0;
    }
    shmem_long_p(&cell, me, (me + 1) % n);
    shmem_barrier_all();
    long want = (me + n - 1) % n;
    printf("PE %d of %d: %s\n", me, n, cell == want ? "ok" : "FAILED");
    fflush(stdout);
    if (!strcmp(c, "late") && me != 0)
        sleep(1);
    if (!strcmp(c, "exit3") || (!strcmp(c, "one3") && me == n - 1))
        exit(3);
    return 0; /* no shmem_finalize */
}
