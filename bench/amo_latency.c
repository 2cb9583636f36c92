/*
 * Latency of blocking AMOs through mpishmem (PE 0 -> PE 1), next to the
 * floors measured in the same run: a CPU atomic on shared memory, and raw
 * MPI_Fetch_and_op / MPI_Compare_and_swap + MPI_Win_flush on a window made
 * like ours and on an MPI_Win_allocate window.  The ratio uses the floor of
 * the path mpishmem takes: CPU atomics when every PE shares the node and
 * MPISHMEM_SHM is on, MPI (created window) otherwise.
 *
 * Run: mpiexec -n 2 ./amo_latency ; MPISHMEM_SHM=0 mpiexec -n 2 ./amo_latency
 * Knobs: BENCH_ITERS, BENCH_REPS.  Output: one JSON object per line.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include "bench_floor.h"
#include "bench_util.h"


static bench_config_t cfg;
static long *target;
static volatile long sink;
static bench_floor_t fl;

static void amo_fetch_add(int n) { for (int i = 0; i < n; i++) sink += shmem_long_atomic_fetch_add(target, 1, 1); }
static void amo_add(int n) { for (int i = 0; i < n; i++) shmem_long_atomic_add(target, 1, 1); shmem_quiet(); }
static void amo_cswap(int n) { for (int i = 0; i < n; i++) sink += shmem_long_atomic_compare_swap(target, i, i + 1, 1); }
static void amo_swap(int n) { for (int i = 0; i < n; i++) sink += shmem_long_atomic_swap(target, i, 1); }
static void amo_fetch(int n) { for (int i = 0; i < n; i++) sink += shmem_long_atomic_fetch(target, 1); }

static void cpu_fetch_add(int n) { for (int i = 0; i < n; i++) sink += __atomic_fetch_add((long *)fl.shm_peer, 1, __ATOMIC_SEQ_CST); }
static void cpu_cswap(int n) { for (int i = 0; i < n; i++) { long c = i; __atomic_compare_exchange_n((long *)fl.shm_peer, &c, i + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); sink += c; } }

static MPI_Win raw;
static void mpi_fao(int n)
{
    uint64_t one = 1, r;
    for (int i = 0; i < n; i++) {
        MPI_Fetch_and_op(&one, &r, MPI_UINT64_T, 1, 0, MPI_SUM, raw);
        MPI_Win_flush(1, raw);
        sink += (long)r;
    }
}
static void mpi_cas(int n)
{
    uint64_t v, c, r;
    for (int i = 0; i < n; i++) {
        c = (uint64_t)i;
        v = c + 1;
        MPI_Compare_and_swap(&v, &c, &r, MPI_UINT64_T, 1, 0, raw);
        MPI_Win_flush(1, raw);
        sink += (long)r;
    }
}

int main(void)
{
    cfg = bench_start("amo_latency");
    target = shmem_calloc(1, sizeof(long));
    bench_floor_open(&fl, 1);

    raw = fl.created;
    double fao_created = bench_measure(cfg, mpi_fao), cas_created = bench_measure(cfg, mpi_cas);
    raw = fl.allocated;
    double fao_alloc = bench_measure(cfg, mpi_fao), cas_alloc = bench_measure(cfg, mpi_cas);
    double cpu_fao = fl.shm_peer ? bench_measure(cfg, cpu_fetch_add) : 0;
    double cpu_cas = fl.shm_peer ? bench_measure(cfg, cpu_cswap) : 0;
    /* Which mechanism mpishmem uses for heap AMOs (amo_path.h's rule). */
    int cpu_path = 1;
    for (int pe = 0; pe < shmem_n_pes(); pe++)
        cpu_path &= shmem_ptr(target, pe) != NULL;

    if (shmem_my_pe() == 0)
        printf("{\"bench\":\"config\",\"path\":\"%s\",\"iters\":%d,\"reps\":%d,"
               "\"cpu_fetch_add_ns\":%.1f,\"cpu_cswap_ns\":%.1f,"
               "\"mpi_fao_flush_created_ns\":%.1f,\"mpi_cas_flush_created_ns\":%.1f,"
               "\"mpi_fao_flush_allocated_ns\":%.1f,\"mpi_cas_flush_allocated_ns\":%.1f}\n",
               cpu_path ? "cpu-atomics" : "mpi-atomics", cfg.iters, cfg.reps, cpu_fao, cpu_cas,
               fao_created, cas_created, fao_alloc, cas_alloc);
    const char *ff = cpu_path ? "cpu_fetch_add" : "mpi_fao_flush_created";
    const char *cf = cpu_path ? "cpu_cswap" : "mpi_cas_flush_created";
    double ffn = cpu_path ? cpu_fao : fao_created, cfn = cpu_path ? cpu_cas : cas_created;
    bench_report("long_atomic_fetch_add", bench_measure(cfg, amo_fetch_add), ff, ffn);
    bench_report("long_atomic_add+quiet_per_batch", bench_measure(cfg, amo_add), ff, ffn);
    bench_report("long_atomic_compare_swap", bench_measure(cfg, amo_cswap), cf, cfn);
    bench_report("long_atomic_swap", bench_measure(cfg, amo_swap), ff, ffn);
    bench_report("long_atomic_fetch", bench_measure(cfg, amo_fetch), ff, ffn);

    bench_floor_close(&fl);
    shmem_free(target);
    shmem_finalize();
    return 0;
}
