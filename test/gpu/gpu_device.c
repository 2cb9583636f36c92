/*
 * Issue 18, defect 5: the library's GPU choice must not disturb the
 * application.  The program makes a device current before shmem_init (one
 * the library will not choose: two devices, PEs spread by node rank), and
 * that device must stay current through shmem_init, allocation, RMA, AMOs,
 * waits and collectives on device memory, and shmem_finalize.  When the
 * library starts MPI, the device it chose must be current at MPI_Init
 * (GPU-aware MPIs bind to it then): the MPI emulation records it.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu_common.h"

int standin_mpi_init_device(void); /* test/cuda_standin/mpi_shim.c */

static int app_device;

static void expect_app_device(const char *after)
{
    EXPECT(gpu_current() == app_device, "after %s the current device is %d, not the "
           "application's %d", after, gpu_current(), app_device);
}

int main(void)
{
    gpu_load();
    int n = 0;
    gpu.device_count(&n);
    if (n < 2)
        gpu_die("needs two devices (STANDIN_CUDA_DEVICES=2)");
    const char *local = getenv("MPI_LOCALRANKID");
    if (local == NULL)
        local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    int lib_device = local ? atoi(local) % n : 0;
    app_device = (lib_device + 1) % n;
    gpu.set_device(app_device);
    shmem_init();
    expect_app_device("shmem_init");
    int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes;
    long *v = shmem_malloc(16 * sizeof(long));
    expect_app_device("shmem_malloc");
    int mem_device = gpu_device_of(v);
    EXPECT(mem_device == lib_device, "the heap is on device %d, not %d (the node rank's)",
           mem_device, lib_device);
    EXPECT(standin_mpi_init_device() == mem_device, "device %d was current at MPI_Init, "
           "not the library's %d", standin_mpi_init_device(), mem_device);
    long h[16];
    for (int i = 0; i < 16; i++)
        h[i] = me;
    shmem_long_put(v, h, 16, right);
    expect_app_device("shmem_long_put");
    shmem_long_atomic_add(&v[0], 1, right);
    expect_app_device("shmem_long_atomic_add");
    shmem_barrier_all();
    shmem_long_wait_until(&v[0], SHMEM_CMP_GE, 1);
    expect_app_device("shmem_long_wait_until");
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, v + 8, v, 1);
    expect_app_device("shmem_long_sum_reduce");
    shmem_long_get(h, v, 16, right);
    expect_app_device("shmem_long_get");
    v = shmem_realloc(v, 4096);
    expect_app_device("shmem_realloc");
    shmem_free(v);
    expect_app_device("shmem_free");
    int rc = gpu_finish("gpu_device");
    EXPECT(gpu_current() == app_device, "after shmem_finalize the device changed");
    return rc || gpu_errors ? 1 : 0;
}
