/*
 * Oversubscribed-run workloads (issue 14), timed by bench/oversub.sh:
 *   oversub init            shmem_init + shmem_finalize
 *   oversub spaces N        N memory-space create/malloc/put/free/destroy cycles
 *   oversub amo N           N mixed AMOs per PE on one global of PE 0, checked
 *   oversub globals         every PE puts to and gets from every PE's global
 * Each mode checks its result and exits non-zero when it is wrong; PE 0
 * prints the seconds the work took (init: the whole program).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long counter;        /* the AMO target (a global: MPI path) */
static long slots[1024];    /* one slot per PE for the globals mode */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int spaces(int n)
{
    for (int k = 0; k < n; k++) {
        shmem_space_config_t c = {.device_type = SHMEM_DEVICE_CPU,
                                  .size = (size_t)(k % 4 + 1) << 20,
                                  .flags = SHMEM_SPACE_FLAG_DEFAULT};
        shmem_space_t s;
        shmem_team_t t;
        if (shmem_space_create(&c, &s, &t) != 0)
            return 1;
        int *p = shmem_space_malloc(s, 4096);
        if (p == NULL)
            return 1;
        shmem_int_p(p, k, (shmem_my_pe() + 1) % shmem_n_pes());
        shmem_space_free(s, p);
        shmem_team_destroy(t);
        if (shmem_space_destroy(s) != 0)
            return 1;
    }
    return 0;
}

/* Adds 1 per PE per iteration in total whatever the mix, so the final
 * value is known: add, fetch_add, inc, fetch_inc, and a CAS retry loop. */
static int amo(int n)
{
    int me = shmem_my_pe();
    for (int i = 0; i < n; i++) {
        switch ((i + me) % 5) {
        case 0: shmem_long_atomic_add(&counter, 1, 0); break;
        case 1: (void)shmem_long_atomic_fetch_add(&counter, 1, 0); break;
        case 2: shmem_long_atomic_inc(&counter, 0); break;
        case 3: (void)shmem_long_atomic_fetch_inc(&counter, 0); break;
        default: {
            long v = shmem_long_atomic_fetch(&counter, 0);
            while (shmem_long_atomic_compare_swap(&counter, v, v + 1, 0) != v)
                v = shmem_long_atomic_fetch(&counter, 0);
        }
        }
    }
    shmem_barrier_all();
    long want = (long)n * shmem_n_pes();
    return me == 0 && counter != want;
}

static int globals(void)
{
    int me = shmem_my_pe(), np = shmem_n_pes();
    if (np > 1024)
        return 1;
    for (int pe = 0; pe < np; pe++)
        shmem_long_p(&slots[me], 1000L * me + pe, pe);
    shmem_barrier_all();
    int bad = 0;
    for (int pe = 0; pe < np; pe++) {
        if (slots[pe] != 1000L * pe + me)
            bad = 1;
        if (shmem_long_g(&slots[me], pe) != 1000L * me + pe)
            bad = 1;
    }
    return bad;
}

int main(int argc, char **argv)
{
    double t0 = now();
    const char *mode = argc > 1 ? argv[1] : "init";
    int n = argc > 2 ? atoi(argv[2]) : 0;
    shmem_init();
    shmem_barrier_all();
    double t1 = now();
    int bad = 0;
    if (strcmp(mode, "spaces") == 0)
        bad = spaces(n);
    else if (strcmp(mode, "amo") == 0)
        bad = amo(n);
    else if (strcmp(mode, "globals") == 0)
        bad = globals();
    else if (strcmp(mode, "init") != 0)
        bad = 2;
    shmem_barrier_all();
    double t2 = now();
    int me = shmem_my_pe();
    shmem_finalize();
    if (bad)
        fprintf(stderr, "oversub %s: wrong result on PE %d\n", mode, me);
    else if (me == 0)
        printf("%.3f\n", strcmp(mode, "init") == 0 ? now() - t0 : t2 - t1);
    return bad;
}
