/*
 * poll_own: PEs that wait by polling their OWN memory with fetching AMOs,
 * the pattern of bale's exstack2 (sssp, histogram): every round each PE
 * puts a buffer to every other PE, fences, and raises a counter for it on
 * that PE with an atomic add; it then waits for every sender's counter on
 * itself, reads the buffers, and tells each sender with an atomic add on
 * the sender that its buffer may be written again.  Every wait is a loop
 * of shmem_long_atomic_fetch on this PE's own counters, except on the
 * last PE, which loops on shmem_long_test (as sssp's waits split).  No
 * barrier inside the timed rounds: nothing but the AMO loops waits.
 *
 * Prints one JSON object (PE 0): rounds, us per round, the whole time.
 * Knobs: BENCH_ITERS (rounds, default 500), BENCH_WORDS (longs per buffer,
 * 64).  Standard API only, so Open MPI's oshcc builds it too.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <shmem.h>
#include "bench_time.h"

#define MAX_PES 64
#define MAX_WORDS 1024

static long inbox[MAX_PES][MAX_WORDS]; /* [sender][word] */
static long arrived[MAX_PES];          /* rounds each sender has delivered here */
static long freed[MAX_PES];            /* rounds each receiver has consumed from here */

/* Until *counter on this PE reaches want, polled as the PE does. */
static void wait_own(long *counter, long want, int by_test)
{
    if (by_test) {
        while (!shmem_long_test(counter, SHMEM_CMP_GE, want))
            ;
        return;
    }
    while (shmem_long_atomic_fetch(counter, shmem_my_pe()) < want)
        ;
}

static int round_of(int me, int n, int words, long r, int by_test, long *out)
{
    int bad = 0;
    for (int d = 1; d < n; d++) {
        int to = (me + d) % n;
        wait_own(&freed[to], r - 1, by_test); /* its copy of my last buffer is read */
        for (int w = 0; w < words; w++)
            out[w] = r * 1000 + me + w;
        shmem_long_put(inbox[me], out, (size_t)words, to);
        shmem_fence();
        shmem_long_atomic_add(&arrived[me], 1, to);
    }
    for (int d = 1; d < n; d++) {
        int from = (me + n - d) % n;
        wait_own(&arrived[from], r, by_test);
        bad |= inbox[from][0] != r * 1000 + from || inbox[from][words - 1] != r * 1000 + from + words - 1;
        shmem_long_atomic_add(&freed[me], 1, from);
    }
    return bad;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    const char *v = getenv("BENCH_ITERS");
    long rounds = v && atol(v) > 0 ? atol(v) : 500;
    v = getenv("BENCH_WORDS");
    int words = v && atoi(v) > 0 && atoi(v) <= MAX_WORDS ? atoi(v) : 64;
    if (n > MAX_PES || n < 2) {
        if (me == 0)
            fprintf(stderr, "poll_own: 2 to %d PEs\n", MAX_PES);
        shmem_finalize();
        return 2;
    }
    static long out[MAX_WORDS];
    int by_test = me == n - 1, bad = 0;
    shmem_barrier_all();
    double t0 = bench_now_ns();
    for (long r = 1; r <= rounds; r++)
        bad |= round_of(me, n, words, r, by_test, out);
    double t = bench_now_ns() - t0;
    shmem_barrier_all();
    if (bad)
        fprintf(stderr, "poll_own: PE %d read a buffer with wrong contents\n", me);
    if (me == 0)
        printf("{\"bench\":\"poll_own\",\"npes\":%d,\"rounds\":%ld,\"words\":%d,"
               "\"us_per_round\":%.2f,\"seconds\":%.4f}\n",
               n, rounds, words, t / 1e3 / (double)rounds, t / 1e9);
    shmem_finalize();
    return bad;
}
