/*
 * Cost of shmem_quiet / shmem_fence with nothing outstanding, and of an
 * 8-byte heap put followed by quiet or fence (and quiet on a created
 * context), against the store + memory barrier floor measured in the same
 * run (issue 10 targets: idle quiet under 2 ns; put + quiet at most 2x the
 * store + fence floor).
 *   mpiexec -n 2 build/bench/quiet_latency     # JSON lines, PE 0 reports
 * With MPISHMEM_SHM=0 the put rows measure the MPI path (floor: raw
 * MPI_Put + MPI_Win_flush on a window made like ours).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include "bench_floor.h"
#include "bench_util.h"

static bench_config_t cfg;
static long *target;
static long source = 42;
static bench_floor_t fl;
static long *raw_shm_peer;
static shmem_ctx_t ctx;

static void op_quiet(int n) { for (int i = 0; i < n; i++) shmem_quiet(); }
static void op_fence(int n) { for (int i = 0; i < n; i++) shmem_fence(); }
static void op_ctx_quiet(int n) { for (int i = 0; i < n; i++) shmem_ctx_quiet(ctx); }
static void op_put_quiet(int n) { for (int i = 0; i < n; i++) { shmem_long_p(target, i, 1); shmem_quiet(); } }
static void op_put_fence(int n) { for (int i = 0; i < n; i++) { shmem_long_p(target, i, 1); shmem_fence(); } }
static void op_ctx_put_quiet(int n) { for (int i = 0; i < n; i++) { shmem_ctx_long_p(ctx, target, i, 1); shmem_ctx_quiet(ctx); } }
static void op_putmem_quiet(int n) { for (int i = 0; i < n; i++) { shmem_putmem(target, &source, 8, 1); shmem_quiet(); } }

static void raw_store_fence(int n)
{
    for (int i = 0; i < n; i++) {
        *(volatile long *)raw_shm_peer = i;
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
}
static void raw_mpi_put_flush(int n)
{
    for (int i = 0; i < n; i++) {
        MPI_Put(&source, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, fl.created);
        MPI_Win_flush(1, fl.created);
    }
}
static void raw_empty(int n)
{
    for (int i = 0; i < n; i++)
        __asm__ volatile("" ::: "memory");
}

int main(void)
{
    cfg = bench_start("quiet_latency");
    target = shmem_malloc(sizeof(long));
    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0)
        ctx = SHMEM_CTX_DEFAULT;
    bench_floor_open(&fl, 1);
    raw_shm_peer = (long *)fl.shm_peer;
    /* Not shmem_ptr: once it hands out a pointer every quiet fences (the
     * program may store through it).  SHMEM_TEAM_SHARED holds exactly the
     * PEs whose heap this PE stores into directly. */
    int shm_path = shmem_team_translate_pe(SHMEM_TEAM_WORLD, 1, SHMEM_TEAM_SHARED) >= 0;
    double loop = bench_measure(cfg, raw_empty);
    double store_fence = raw_shm_peer ? bench_measure(cfg, raw_store_fence) : 0.0;
    double put_flush = bench_measure(cfg, raw_mpi_put_flush);
    const char *pfn = shm_path ? "shm_store_fence" : "mpi_put_flush";
    double pf = shm_path ? store_fence : put_flush;
    if (shmem_my_pe() == 0)
        printf("{\"bench\":\"config\",\"path\":\"%s\",\"iters\":%d,\"reps\":%d,"
               "\"empty_loop_ns\":%.2f,\"shm_store_fence_ns\":%.2f,\"mpi_put_flush_ns\":%.1f}\n",
               shm_path ? "load/store" : "mpi", cfg.iters, cfg.reps, loop, store_fence,
               put_flush);
    /* Idle quiet/fence against the store + fence floor: the target is
     * "under 2 ns", i.e. well below one memory barrier. */
    bench_report("quiet_idle", bench_measure(cfg, op_quiet), "shm_store_fence", store_fence);
    bench_report("fence_idle", bench_measure(cfg, op_fence), "shm_store_fence", store_fence);
    bench_report("ctx_quiet_idle", bench_measure(cfg, op_ctx_quiet), "shm_store_fence",
                 store_fence);
    bench_report("long_p+quiet", bench_measure(cfg, op_put_quiet), pfn, pf);
    bench_report("putmem8+quiet", bench_measure(cfg, op_putmem_quiet), pfn, pf);
    /* A created context's quiet after stores checks its handle in full. */
    bench_report("ctx_long_p+ctx_quiet", bench_measure(cfg, op_ctx_put_quiet), pfn, pf);
    bench_report("long_p+fence", bench_measure(cfg, op_put_fence), pfn, pf);
    bench_floor_close(&fl);
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    shmem_free(target);
    shmem_finalize();
    return 0;
}
