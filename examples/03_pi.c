/*
 * Tutorial step 3 (docs/tutorial.md): split the work, add the parts with a
 * reduction.
 *
 * pi is the integral of 4 / (1 + x^2) from 0 to 1.  Cut [0, 1] into SLICES
 * thin slices; PE i adds up slices i, i + n, i + 2n, ...; one call,
 * shmem_double_sum_reduce, adds the n partial sums and gives the total to
 * every PE.
 *
 *   oshcc 03_pi.c -o pi && oshrun -n 4 ./pi
 */
#include <stdio.h>
#include <shmem.h>

#define SLICES 1000000L

/* Reductions read and write symmetric memory: globals will do. */
static double part, total;
static long mine, counted;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();

    double width = 1.0 / SLICES;
    for (long s = me; s < SLICES; s += n) {
        double x = (s + 0.5) * width;            /* the middle of slice s */
        part += 4.0 / (1.0 + x * x) * width;
        mine++;
    }

    /* Every PE of the team calls the reduction; every PE gets the sum. */
    shmem_double_sum_reduce(SHMEM_TEAM_WORLD, &total, &part, 1);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &counted, &mine, 1);

    if (me == 0) {
        double err = total - 3.14159265358979323846;
        printf("%ld slices on %d PEs\n", counted, n);
        printf("pi is about %.10f\n", total);
        printf("the first 10 decimals are %s\n", err < 5e-11 && err > -5e-11 ? "right" : "WRONG");
    }
    shmem_finalize();
    return 0;
}
