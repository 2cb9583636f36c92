/*
 * The spec's profiling example, written for this suite: a tool times
 * shmem_long_put by defining it and calling the name-shifted pshmem_long_put.
 * main checks the tool saw every put and the data arrived.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <time.h>
#include <pshmem.h>

static double put_seconds;
static long puts_timed;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

void shmem_long_put(long *dest, const long *source, size_t nelems, int pe)
{
    double t0 = now();
    pshmem_long_put(dest, source, nelems, pe);
    put_seconds += now() - t0;
    puts_timed++;
}

static long target[4];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long v[4] = {me, me + 1, me + 2, me + 3};
    for (int pe = 0; pe < npes; pe++)
        if (pe == (me + 1) % npes)
            shmem_long_put(target, v, 4, pe);
    shmem_barrier_all();
    int left = (me + npes - 1) % npes, bad = 0;
    for (int i = 0; i < 4; i++)
        bad |= target[i] != left + i;
    if (puts_timed != 1 || put_seconds < 0 || bad) {
        fprintf(stderr, "spec_put_timer: PE %d: timed %ld puts, data %s\n", me,
                puts_timed, bad ? "wrong" : "right");
        bad = 1;
    } else if (me == 0) {
        printf("spec_put_timer: 1 put timed per PE, average %.3g s\n",
               put_seconds / puts_timed);
    }
    shmem_finalize();
    return bad;
}
