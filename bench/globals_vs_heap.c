/*
 * The same operations on a global variable and on the symmetric heap, PE 0
 * -> PE 1, in one run: globals should cost what the heap costs (both on the
 * load/store path on one node, both through MPI otherwise).  The ratio is
 * global / heap; docs/globals.md records the results.
 *
 * Run: mpiexec -n 2 ./globals_vs_heap ; MPISHMEM_SHM_GLOBALS=0 (globals
 * through MPI) for the old figures.  Knobs: BENCH_ITERS, BENCH_REPS.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include "bench_util.h"

static bench_config_t cfg;
static long *target;
static long global_target[8] __attribute__((aligned(64)));
static volatile long sink;

static void op_put_quiet(int n)
{
    for (int i = 0; i < n; i++) {
        shmem_long_p(target, i, 1);
        shmem_quiet();
    }
}
static void op_g(int n) { for (int i = 0; i < n; i++) sink += shmem_long_g(target, 1); }
static void op_fetch_add(int n) { for (int i = 0; i < n; i++) sink += shmem_long_atomic_fetch_add(target, 1, 1); }
static void op_add(int n) { for (int i = 0; i < n; i++) shmem_long_atomic_add(target, 1, 1); shmem_quiet(); }
static void op_cswap(int n) { for (int i = 0; i < n; i++) sink += shmem_long_atomic_compare_swap(target, i, i + 1, 1); }

static const struct {
    const char *name;
    void (*fn)(int);
} ops[] = {
    {"long_p+quiet", op_put_quiet},
    {"long_g", op_g},
    {"long_atomic_fetch_add", op_fetch_add},
    {"long_atomic_add+quiet_per_batch", op_add},
    {"long_atomic_compare_swap", op_cswap},
};

int main(void)
{
    cfg = bench_start("globals_vs_heap");
    long *heap = shmem_calloc(8, sizeof(long));
    if (shmem_my_pe() == 0)
        printf("{\"bench\":\"config\",\"global_direct\":%d,\"heap_direct\":%d,\"iters\":%d,"
               "\"reps\":%d}\n", shmem_ptr(global_target, 1) != NULL,
               shmem_ptr(heap, 1) != NULL, cfg.iters, cfg.reps);
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        target = heap;
        double h = bench_measure(cfg, ops[k].fn);
        target = global_target;
        double g = bench_measure(cfg, ops[k].fn);
        char name[96];
        snprintf(name, sizeof name, "global:%s", ops[k].name);
        bench_report(name, g, "heap", h);
    }
    shmem_free(heap);
    shmem_finalize();
    return 0;
}
