/*
 * The C11 generic shmem_wait_until and shmem_test accept the deprecated
 * short and unsigned short (their typed routines exist; old code calls the
 * generic names).  Before the fix this file did not compile.  Each PE sets
 * its right neighbour's variables; values outside the range of the other
 * integer types' truncation would expose a wrong dispatch.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <shmem.h>

static short s_var;
static unsigned short us_var;

static void fail(const char *what, int me)
{
    fprintf(stderr, "sync_generic_short: PE %d: %s\n", me, what);
    shmem_global_exit(1);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
    short *heap_s = shmem_malloc(sizeof *heap_s);
    unsigned short *heap_us = shmem_malloc(sizeof *heap_us);
    *heap_s = 0;
    *heap_us = 0;
    shmem_barrier_all();

    for (int round = 1; round <= 3; round++) {
        short sv = (short)(-1000 * round);
        unsigned short usv = (unsigned short)(65000 + round);
        shmem_short_p(&s_var, sv, right);
        shmem_ushort_p(&us_var, usv, right);
        shmem_short_p(heap_s, sv, right);
        shmem_ushort_p(heap_us, usv, right);
        shmem_quiet();
        shmem_wait_until(&s_var, SHMEM_CMP_EQ, sv);
        shmem_wait_until(heap_s, SHMEM_CMP_LE, sv);
        while (!shmem_test(&us_var, SHMEM_CMP_EQ, usv))
            ;
        while (!shmem_test(heap_us, SHMEM_CMP_GE, usv))
            ;
        if (s_var != sv || *heap_s != sv || us_var != usv || *heap_us != usv)
            fail("wrong value after the wait", me);
        /* A condition that does not hold must test false. */
        if (shmem_test(&s_var, SHMEM_CMP_GT, (short)0) ||
            shmem_test(&us_var, SHMEM_CMP_LT, (unsigned short)65000))
            fail("shmem_test reported a false condition as true", me);
        shmem_barrier_all();
    }
    if (me == 0)
        printf("sync_generic_short: ok on %d PEs\n", n);
    shmem_free(heap_s);
    shmem_free(heap_us);
    shmem_finalize();
    return 0;
}
