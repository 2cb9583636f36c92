/*
 * check_cost: what the always-on argument checks cost on the fastest
 * paths, where a check would show: 8-byte put, get, p, g and fetch_add to
 * a PE of the same node (load/store with MPISHMEM_SHM=1, MPI RMA with 0),
 * through the default context and a created one, quiet on a created
 * context with nothing outstanding, and wait_until / test on a value that
 * already satisfies them (heap and global data).
 *
 * PE 0 issues, PE 1 waits in a barrier.  Build it against two libraries
 * and run them interleaved to compare (medians of BENCH_REPS samples of
 * BENCH_ITERS operations).  Output, one CSV line per figure:
 *   check_cost,<operation>,<ns per operation>
 *
 * Run: mpiexec -n 2 ./check_cost
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench_time.h"

#define MAX_REPS 63

static int iters = 200000, reps = 11;
static long glob = 1;
static long *heap, src = 1, sink;
static shmem_ctx_t ctx;

enum { PUT, GET, P, G, FADD, CTX_P, CTX_FADD, CTX_QUIET, WAIT_HEAP, WAIT_GLOB, TEST_HEAP, N_OPS };
static const char *const names[N_OPS] = {"put", "get", "p", "g", "fetch_add", "ctx_p",
                                         "ctx_fetch_add", "ctx_quiet", "wait_until_heap",
                                         "wait_until_global", "test_heap"};

static void run(int op, int n)
{
    for (int i = 0; i < n; i++) {
        switch (op) {
        case PUT: shmem_long_put(heap, &src, 1, 1); break;
        case GET: shmem_long_get(&sink, heap, 1, 1); break;
        case P: shmem_long_p(heap, i, 1); break;
        case G: sink += shmem_long_g(heap, 1); break;
        case FADD: sink += shmem_long_atomic_fetch_add(heap + 1, 1, 1); break;
        case CTX_P: shmem_ctx_long_p(ctx, heap, i, 1); break;
        case CTX_FADD: sink += shmem_ctx_long_atomic_fetch_add(ctx, heap + 1, 1, 1); break;
        case CTX_QUIET: shmem_ctx_quiet(ctx); break;
        case WAIT_HEAP: shmem_long_wait_until(heap + 2, SHMEM_CMP_EQ, 1); break;
        case WAIT_GLOB: shmem_long_wait_until(&glob, SHMEM_CMP_EQ, 1); break;
        default: sink += shmem_long_test(heap + 2, SHMEM_CMP_EQ, 1); break;
        }
    }
    if (op <= CTX_FADD)
        shmem_quiet();
    if (op >= CTX_P && op <= CTX_FADD)
        shmem_ctx_quiet(ctx);
}

int main(void)
{
    shmem_init();
    bench_sample_sizes(&iters, &reps, 100, MAX_REPS);
    heap = shmem_calloc(4, sizeof *heap);
    heap[2] = 1;
    if (shmem_ctx_create(0, &ctx) != 0)
        ctx = SHMEM_CTX_DEFAULT;
    int me = shmem_my_pe();
    shmem_barrier_all();
    if (me == 0 && shmem_n_pes() > 1) {
        double t[N_OPS][MAX_REPS];
        run(PUT, iters); /* warm up */
        for (int r = 0; r < reps; r++)
            for (int op = 0; op < N_OPS; op++) {
                double t0 = bench_now_ns();
                run(op, iters);
                t[op][r] = (bench_now_ns() - t0) / iters;
            }
        for (int op = 0; op < N_OPS; op++)
            printf("check_cost,%s,%.2f\n", names[op], bench_median(t[op], reps));
    }
    shmem_barrier_all();
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    shmem_free(heap);
    shmem_finalize();
    return (int)(sink & 0);
}
