/*
 * A program written for OpenSHMEMs whose compiler wrappers link libm (as
 * reduction checks in public suites are): it calls powl and names no -lm,
 * so it links only when oshcc adds libm.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <shmem.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    shmem_init();
    /* argc keeps the compiler from folding the call away. */
    long double x = powl(1.0L + argc, 10.0L);
    if (shmem_my_pe() == 0)
        printf("OK: powl %.0Lf\n", x);
    shmem_finalize();
    return x != 1024.0L;
}
