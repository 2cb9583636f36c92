/*
 * Latency of 8-byte put and get through mpishmem, next to the floor beneath
 * it measured in the same run:
 *   - raw MPI: MPI_Put/MPI_Get + MPI_Win_flush on a window made like ours
 *     (MPI_Win_create) and on an MPI_Win_allocate window (bench_floor.h);
 *   - raw shared memory: a store/load into MPI_Win_allocate_shared memory
 *     plus the memory barrier that shmem_quiet costs.
 * The ratio uses the floor of the path mpishmem takes to the target: shared
 * memory when shmem_ptr() reaches it, MPI on a created window otherwise
 * (MPISHMEM_SHM=0).
 *
 * Run: mpiexec -n 2 ./put_get_latency   (PE 0 is the origin, PE 1 the target)
 * Knobs: BENCH_ITERS (operations per sample), BENCH_REPS (samples).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include <shmem.h>
#include "bench_floor.h"
#include "bench_util.h"


static bench_config_t cfg;


static long *target;          /* symmetric, 8 bytes */
static long source = 42, sink;
static bench_floor_t fl;
static MPI_Win raw_win;       /* the floor window being measured */
static long *raw_shm_peer;    /* PE 1's shared-memory word, mapped here */

static void op_put(int n) { for (int i = 0; i < n; i++) shmem_putmem(target, &source, 8, 1); shmem_quiet(); }
static void op_put_quiet(int n) { for (int i = 0; i < n; i++) { shmem_putmem(target, &source, 8, 1); shmem_quiet(); } }
static void op_put_nbi_quiet(int n) { for (int i = 0; i < n; i++) { shmem_putmem_nbi(target, &source, 8, 1); shmem_quiet(); } }
static void op_p_quiet(int n) { for (int i = 0; i < n; i++) { shmem_long_p(target, i, 1); shmem_quiet(); } }
static void op_get(int n) { for (int i = 0; i < n; i++) shmem_getmem(&sink, target, 8, 1); }
static void op_get_nbi_quiet(int n) { for (int i = 0; i < n; i++) { shmem_getmem_nbi(&sink, target, 8, 1); shmem_quiet(); } }
static void op_g(int n) { for (int i = 0; i < n; i++) sink += shmem_long_g(target, 1); }

static void raw_mpi_put_flush(int n) { for (int i = 0; i < n; i++) { MPI_Put(&source, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, raw_win); MPI_Win_flush(1, raw_win); } }
static void raw_mpi_get_flush(int n) { for (int i = 0; i < n; i++) { MPI_Get(&sink, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, raw_win); MPI_Win_flush(1, raw_win); } }
static void raw_shm_store_fence(int n)
{
    for (int i = 0; i < n; i++) {
        *(volatile long *)raw_shm_peer = i;
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
}
static void raw_shm_load(int n) { for (int i = 0; i < n; i++) sink += *(volatile long *)raw_shm_peer; }

int main(void)
{
    cfg = bench_start("put_get_latency");
    target = shmem_malloc(sizeof(long));

    /* The floors: the same MPI and shared memory, without our layer. */
    bench_floor_open(&fl, 1);
    raw_shm_peer = (long *)fl.shm_peer;
    int on_node = raw_shm_peer != NULL;

    int shm_path = shmem_ptr(target, 1) != NULL;
    raw_win = fl.allocated;
    double alloc_put = bench_measure(cfg, raw_mpi_put_flush);
    double alloc_get = bench_measure(cfg, raw_mpi_get_flush);
    raw_win = fl.created;
    double mpi_put = bench_measure(cfg, raw_mpi_put_flush);
    double mpi_get = bench_measure(cfg, raw_mpi_get_flush);
    double shm_store = on_node ? bench_measure(cfg, raw_shm_store_fence) : 0.0;
    double shm_load = on_node ? bench_measure(cfg, raw_shm_load) : 0.0;
    const char *put_floor = shm_path ? "shm_store_fence" : "mpi_put_flush";
    const char *get_floor = shm_path ? "shm_load" : "mpi_get_flush";
    double pf = shm_path ? shm_store : mpi_put, gf = shm_path ? shm_load : mpi_get;

    if (shmem_my_pe() == 0)
        printf("{\"bench\":\"config\",\"path\":\"%s\",\"iters\":%d,\"reps\":%d,"
               "\"mpi_put_flush_ns\":%.1f,\"mpi_get_flush_ns\":%.1f,"
               "\"mpi_put_flush_allocated_ns\":%.1f,\"mpi_get_flush_allocated_ns\":%.1f,"
               "\"shm_store_fence_ns\":%.1f,\"shm_load_ns\":%.1f}\n",
               shm_path ? "load/store" : "mpi", cfg.iters, cfg.reps, mpi_put, mpi_get, alloc_put,
               alloc_get, shm_store, shm_load);
    bench_report("putmem_blocking_then_one_quiet", bench_measure(cfg, op_put), put_floor, pf);
    bench_report("putmem+quiet", bench_measure(cfg, op_put_quiet), put_floor, pf);
    bench_report("putmem_nbi+quiet", bench_measure(cfg, op_put_nbi_quiet), put_floor, pf);
    bench_report("long_p+quiet", bench_measure(cfg, op_p_quiet), put_floor, pf);
    bench_report("getmem", bench_measure(cfg, op_get), get_floor, gf);
    bench_report("getmem_nbi+quiet", bench_measure(cfg, op_get_nbi_quiet), get_floor, gf);
    bench_report("long_g", bench_measure(cfg, op_g), get_floor, gf);

    bench_floor_close(&fl);
    shmem_free(target);
    shmem_finalize();
    return 0;
}
