/*
 * Put and get between GPU-space buffers (docs/spaces.md, "GPU memory"),
 * next to the CUDA copies beneath them, measured in the same run:
 *   put             shmem_putmem from PE 0's GPU-space buffer into PE 1's
 *   get             shmem_getmem from PE 1's GPU-space buffer into PE 0's
 *   put_quiet       shmem_putmem + shmem_quiet
 *   put_from_host   shmem_putmem from PE 0's private host memory into PE 1's
 *                   GPU-space buffer (a host program feeding a GPU)
 *   get_to_host     shmem_getmem from PE 1's GPU-space buffer into PE 0's
 *                   private host memory
 *   floor_d2d       cudaMemcpy device to device on PE 0's GPU, + synchronize
 *   floor_h2d       cudaMemcpy from pageable host memory to that GPU, + synchronize
 *   floor_d2d_peer  cudaMemcpy from PE 0's GPU to PE 1's, + synchronize
 *                   (only when the two PEs use different GPUs)
 *   floor_d2h_pinned, floor_h2d_pinned
 *                   cudaMemcpy between that GPU and page-locked host memory
 *                   (cudaMallocHost), + synchronize: one stage of a staged
 *                   transfer
 *   floor_mpi_put   MPI_Put of host memory into PE 1's MPI_Win_allocate
 *                   window + MPI_Win_flush: the message stage
 * A staged route (GPU memory reached over MPI that is not GPU-aware) costs at
 * least the largest of its three stages, and at most their sum.
 * The library's copies return complete, so every floor synchronizes too.
 * 8 bytes is the latency, 4 KiB, 64 KiB and 1 MiB the bandwidth.
 *
 * Which route the library takes (IPC copies, GPU-aware MPI, or PE 1's agent)
 * depends on MPISHMEM_SHM, MPISHMEM_GPU_AWARE and the MPI: SHMEM_INFO=1
 * prints it (bench/gpu_bench.sh runs the combinations).
 *
 * Run: SHMEM_ENABLE_GPU_SPACE=1 SHMEM_ENABLE_CPU_SPACE=1 mpiexec -n 2 ./gpu_bench
 * The floors load the CUDA runtime with dlopen, as test/gpu/gpu_common.h
 * does (nothing links CUDA at build time): MPISHMEM_CUDART if set, else
 * libcudart.so; set MPISHMEM_CUDART so that it is the runtime the library
 * loaded (gpu_bench.sh does).  Without a GPU space on every PE it prints
 * one line saying so and exits 0.
 * Output: CSV on stdout, `bench,row,size,ns_median,MB_per_s` (bench is
 * BENCH_LABEL, default gpu_bench; MB = 10^6 bytes), medians of BENCH_REPS
 * samples of up to BENCH_ITERS operations each (default 1000; fewer for
 * large sizes: at most 64 MiB moved per sample); one `# gpu_bench:` line
 * on stderr says the devices and settings.
 * PE 0 is the origin; PE 1 waits in a barrier meanwhile, inside the library.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include <shmem.h>
#include "bench_util.h"

/* The test helpers load the runtime; the bench uses a few of them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../test/gpu/gpu_common.h"
#pragma GCC diagnostic pop

#define MAX_BYTES ((size_t)1 << 20)
#define SAMPLE_BYTES ((size_t)64 << 20) /* bytes moved per sample, at most */

static const size_t sizes[] = {8, 4096, 65536, MAX_BYTES};

static size_t cur;                       /* bytes per operation being measured */
static unsigned char *gsrc, *gdst;       /* GPU-space buffers, MAX_BYTES each */
static unsigned char *dsrc, *ddst, *hsrc; /* the floors' buffers, on PE 0 */
static unsigned char *dpeer;             /* on PE 1's GPU, or NULL */
static unsigned char *pinned;            /* page-locked host memory, on PE 0 */
static unsigned char *hdst;              /* private host memory, every PE */
static unsigned char *wbase;             /* PE's part of the MPI floor window */
static MPI_Win floor_win = MPI_WIN_NULL;
static int (*malloc_host)(void **, size_t), (*free_host)(void *);
static const char *label;

static void check(int rc, const char *what)
{
    if (rc != 0)
        gpu_die("%s failed (CUDA error %d)", what, rc);
}

/* The timed loops: one helper per routine, called once per batch (as
 * copy_sync is for the floors), so no row pays a call per operation. */
static void put_loop(void *dst, const void *src, int n)
{
    for (int i = 0; i < n; i++)
        shmem_putmem(dst, src, cur, 1);
}

static void get_loop(void *dst, const void *src, int n)
{
    for (int i = 0; i < n; i++)
        shmem_getmem(dst, src, cur, 1);
}

static void op_put(int n) { put_loop(gdst, gsrc, n); }
static void op_get(int n) { get_loop(gsrc, gdst, n); }
static void op_put_from_host(int n) { put_loop(gdst, hsrc, n); }
static void op_get_to_host(int n) { get_loop(hdst, gdst, n); }

static void op_put_quiet(int n)
{
    for (int i = 0; i < n; i++) {
        shmem_putmem(gdst, gsrc, cur, 1);
        shmem_quiet();
    }
}

static void copy_sync(void *dst, const void *src, int kind, int n)
{
    for (int i = 0; i < n; i++) {
        check(gpu.memcpy_(dst, src, cur, kind), "cudaMemcpy");
        check(gpu.synchronize(), "cudaDeviceSynchronize");
    }
}

static void floor_d2d(int n) { copy_sync(ddst, dsrc, D2D, n); }
static void floor_h2d(int n) { copy_sync(ddst, hsrc, H2D, n); }
static void floor_d2d_peer(int n) { copy_sync(dpeer, dsrc, D2D, n); }
static void floor_d2h_pinned(int n) { copy_sync(pinned, dsrc, D2H, n); }
static void floor_h2d_pinned(int n) { copy_sync(ddst, pinned, H2D, n); }

static void floor_mpi_put(int n)
{
    for (int i = 0; i < n; i++) {
        MPI_Put(hsrc, (int)cur, MPI_BYTE, 1, 0, (int)cur, MPI_BYTE, floor_win);
        MPI_Win_flush(1, floor_win);
    }
}

/* One CSV row per size of op (every PE calls it: bench_measure synchronizes). */
static void row(const char *name, void (*op)(int), bench_config_t base)
{
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        cur = sizes[k];
        bench_config_t c = base;
        size_t cap = SAMPLE_BYTES / cur;
        if ((size_t)c.iters > cap)
            c.iters = cap < 4 ? 4 : (int)cap;
        double ns = bench_measure(c, op);
        if (shmem_my_pe() == 0)
            printf("%s,%s,%zu,%.1f,%.1f\n", label, name, cur, ns,
                   ns > 0 ? (double)cur * 1e3 / ns : 0.0);
    }
    fflush(stdout);
}

static int mine, everyone, peer_dev = -1; /* symmetric (global data) */

int main(void)
{
    /* A GPU copy costs microseconds: fewer operations per sample than the
     * CPU benchmarks' default, unless BENCH_ITERS says otherwise. */
    const char *it = getenv("BENCH_ITERS");
    bench_config_t cfg = bench_start("gpu_bench");
    if (it == NULL || *it == '\0')
        cfg.iters = 1000;
    label = getenv("BENCH_LABEL") && *getenv("BENCH_LABEL") ? getenv("BENCH_LABEL")
                                                            : "gpu_bench";
    int me = shmem_my_pe();

    /* The GPU space must exist on PE 0 and PE 1 (every PE, to keep it simple). */
    mine = SHMEM_SPACE_GPU != SHMEM_SPACE_INVALID;
    shmem_int_min_reduce(SHMEM_TEAM_WORLD, &everyone, &mine, 1);
    if (!everyone) {
        if (me == 0)
            printf("gpu_bench: no GPU space on every PE (set SHMEM_ENABLE_GPU_SPACE=1; "
                   "SHMEM_INFO=1 says why a PE has none): nothing measured\n");
        shmem_finalize();
        return 0;
    }

    gpu_load();
    gsrc = shmem_space_malloc(SHMEM_SPACE_GPU, MAX_BYTES);
    gdst = shmem_space_malloc(SHMEM_SPACE_GPU, MAX_BYTES);
    if (gsrc == NULL || gdst == NULL)
        gpu_die("the GPU space has no room for 2 x %zu bytes (SHMEM_GPU_SYMMETRIC_SIZE)",
                MAX_BYTES);
    hsrc = malloc(MAX_BYTES);
    if (hsrc == NULL)
        gpu_die("out of memory");
    memset(hsrc, 0x5a, MAX_BYTES);
    hdst = malloc(MAX_BYTES);
    if (hdst == NULL)
        gpu_die("out of memory");
    /* The message stage's floor: host memory, a window MPI allocates. */
    MPI_Win_allocate(MAX_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wbase, &floor_win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, floor_win);
    to_dev(gsrc, hsrc, MAX_BYTES);
    to_dev(gdst, hsrc, MAX_BYTES);

    /* Each PE's GPU, as the library chose it; PE 0's floors run there. */
    int my_dev = gpu_device_of(gsrc), app_dev = gpu_current();
    shmem_barrier_all();
    if (me == 1)
        shmem_int_p(&peer_dev, my_dev, 0);
    shmem_barrier_all();
    if (me == 0) {
        check(gpu.set_device(my_dev), "cudaSetDevice");
        dsrc = gpu_alloc(MAX_BYTES);
        ddst = gpu_alloc(MAX_BYTES);
        to_dev(dsrc, hsrc, MAX_BYTES);
        to_dev(ddst, hsrc, MAX_BYTES);
        *(void **)&malloc_host = dlsym(gpu.handle, "cudaMallocHost");
        *(void **)&free_host = dlsym(gpu.handle, "cudaFreeHost");
        if (malloc_host == NULL || free_host == NULL)
            gpu_die("the CUDA runtime lacks cudaMallocHost or cudaFreeHost");
        check(malloc_host((void **)&pinned, MAX_BYTES), "cudaMallocHost");
        memcpy(pinned, hsrc, MAX_BYTES);
        if (peer_dev >= 0 && peer_dev != my_dev) {
            check(gpu.set_device(peer_dev), "cudaSetDevice");
            dpeer = gpu_alloc(MAX_BYTES);
            to_dev(dpeer, hsrc, MAX_BYTES);
            check(gpu.set_device(my_dev), "cudaSetDevice");
        }
        const char *shm = getenv("MPISHMEM_SHM"), *aware = getenv("MPISHMEM_GPU_AWARE");
        /* stdout is only the CSV; what was measured goes to stderr. */
        fprintf(stderr, "# gpu_bench: %d PEs; PE 0 on CUDA device %d, PE 1 on %d; "
                "MPISHMEM_SHM=%s MPISHMEM_GPU_AWARE=%s; iters<=%d reps=%d\n", shmem_n_pes(),
                my_dev, peer_dev, shm ? shm : "unset", aware ? aware : "unset", cfg.iters,
                cfg.reps);
        printf("bench,row,size,ns_median,MB_per_s\n");
    }

    row("put", op_put, cfg);
    row("get", op_get, cfg);
    row("put_quiet", op_put_quiet, cfg);
    row("put_from_host", op_put_from_host, cfg);
    row("get_to_host", op_get_to_host, cfg);
    row("floor_d2d", floor_d2d, cfg);
    row("floor_h2d", floor_h2d, cfg);
    row("floor_d2h_pinned", floor_d2h_pinned, cfg);
    row("floor_h2d_pinned", floor_h2d_pinned, cfg);
    row("floor_mpi_put", floor_mpi_put, cfg);
    /* Every PE learns whether PE 0 has a buffer on PE 1's GPU. */
    mine = dpeer != NULL;
    shmem_int_max_reduce(SHMEM_TEAM_WORLD, &everyone, &mine, 1);
    if (everyone)
        row("floor_d2d_peer", floor_d2d_peer, cfg);

    shmem_barrier_all();
    if (me == 0) {
        gpu.free_(dsrc);
        gpu.free_(ddst);
        if (dpeer)
            gpu.free_(dpeer);
        free_host(pinned);
        if (app_dev >= 0)
            gpu.set_device(app_dev);
    }
    MPI_Win_unlock_all(floor_win);
    MPI_Win_free(&floor_win);
    free(hdst);
    free(hsrc);
    shmem_space_free(SHMEM_SPACE_GPU, gdst);
    shmem_space_free(SHMEM_SPACE_GPU, gsrc);
    shmem_finalize();
    return 0;
}
