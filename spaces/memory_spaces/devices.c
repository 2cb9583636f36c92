/*
 * mpishmem: which devices this PE may use (MPISHMEM_VISIBLE_DEVICES) and
 * GPU discovery.
 *
 * MPISHMEM_VISIBLE_DEVICES, in the spirit of CUDA_VISIBLE_DEVICES, is a
 * comma-separated list of what this PE may put spaces on: `cpu`, `gpu` (any
 * GPU), `gpuN` or `gpu:N` (CUDA device N), `all`, or `none`.  Unset means
 * `all`.  It may differ between PEs: that is how a job gives only some PEs
 * a device, and how tests make partial space membership on one machine.
 * The default space ignores it (every PE has the default space).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "devices.h"
#include "../../mpi_backend/runtime/error.h"
#include "../../mpi_backend/runtime/runtime.h"
#include "../../mpi_backend/settings/env_read.h"
#include "../../mpi_backend/settings/env_parse.h"

#if MPISHMEM_HAVE_MPI_EXT
#include <mpi-ext.h> /* Open MPI declares MPIX_Query_cuda_support here */
#endif

mpishmem_devices_t mpishmem_devices = {.cpu_visible = 1, .gpu_filter_all = 1, .gpu = -1};

int mpishmem_devices_parse(const char *text, mpishmem_devices_t *d, const char **bad,
                           size_t *bad_len)
{
    uint64_t mask = 0;
    int rc = mpishmem_parse_devices(text, &d->cpu_visible, &d->gpu_filter_all, &mask, bad,
                                    bad_len);
    d->gpu_filter = mask;
    return rc;
}

/* Set when the GPU was chosen before MPI_Init: discovery is not redone. */
static int chosen_before_mpi;
static int device_before_mpi = -1;

void mpishmem_devices_init(void)
{
    const char *v = mpishmem_env("MPISHMEM_VISIBLE_DEVICES");
    if (!chosen_before_mpi) {
        mpishmem_devices.gpu = -1;
        mpishmem_devices.gpu_discovered = 0;
    }
    if (v == NULL) {
        mpishmem_devices.cpu_visible = mpishmem_devices.gpu_filter_all = 1;
        return;
    }
    const char *bad = NULL;
    size_t bad_len = 0;
    if (mpishmem_devices_parse(v, &mpishmem_devices, &bad, &bad_len) != 0) {
        char *b = strndup(bad, bad_len);
        mpishmem_fatal("shmem_init", "MPISHMEM_VISIBLE_DEVICES='%s': '%s' is not a device "
                       "(use a comma-separated list of cpu, gpu, gpuN, all, none)",
                       mpishmem_env_shown(v), b ? mpishmem_env_shown(b) : "?");
    }
}

static int gpu_allowed(int g)
{
    return mpishmem_devices.gpu_filter_all || (g < 64 && (mpishmem_devices.gpu_filter >> g) & 1);
}

/* The GPU of a PE that is node_rank-th on its node. */
static void discover(int node_rank)
{
    mpishmem_devices_t *d = &mpishmem_devices;
    d->gpu_discovered = 1;
    d->gpu = -1;
    char why[200] = "";
    int n = mpishmem_cuda_device_count(why, sizeof why);
    d->gpu_count = n;
    int pci = -1;
    char how[160] = "";
    if (n == 0) {
        /* Still ask hwloc, so the message says whether a GPU is installed
         * and only its runtime is missing. */
        mpishmem_topology_nearest(NULL, 0, 0, &pci, how, sizeof how);
        if (pci >= 0)
            snprintf(d->why_no_gpu, sizeof d->why_no_gpu, "no GPU: %s; hwloc sees %d "
                     "GPU-class PCI device(s)", why, pci);
        else
            snprintf(d->why_no_gpu, sizeof d->why_no_gpu, "no GPU: %s (%s)", why, how);
        return;
    }
    /* The visible devices, by CUDA ordinal, with their PCI addresses. */
    char busids[64][32];
    int ordinal[64], m = 0;
    for (int g = 0; g < n && m < 64; g++) {
        if (!gpu_allowed(g))
            continue;
        if (mpishmem_cuda_pci_bus_id(g, busids[m], sizeof busids[m]) != 0)
            busids[m][0] = '\0';
        ordinal[m++] = g;
    }
    if (m == 0) {
        snprintf(d->why_no_gpu, sizeof d->why_no_gpu, "no GPU: MPISHMEM_VISIBLE_DEVICES "
                 "hides all %d CUDA device(s) from this PE", n);
        return;
    }
    int pick = mpishmem_topology_nearest((const char(*)[32])busids, m, node_rank, &pci, how,
                                         sizeof how);
    if (pick < 0) {
        pick = node_rank % m; /* spread the node's PEs over the devices */
        snprintf(d->gpu_choice, sizeof d->gpu_choice, "CUDA device %d by node rank (%s)",
                 ordinal[pick], how);
    } else {
        snprintf(d->gpu_choice, sizeof d->gpu_choice, "CUDA device %d, %s", ordinal[pick],
                 how);
    }
    d->gpu = ordinal[pick];
    mpishmem_cuda_use(d->gpu);
}

void mpishmem_devices_discover_gpu(void)
{
    if (!mpishmem_devices.gpu_discovered)
        discover(mpishmem_rt.node_rank);
}

/* The launcher's rank of this process on its node, or -1. */
static int launcher_local_rank(void)
{
    static const char *const vars[] = {"MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK",
                                       "PMIX_LOCAL_RANK", "PMI_LOCAL_RANK", "SLURM_LOCALID",
                                       "PALS_LOCAL_RANKID", "MV2_COMM_WORLD_LOCAL_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = mpishmem_env(vars[i]);
        char *end;
        long r = v ? strtol(v, &end, 10) : -1;
        if (v && *v && *end == '\0' && r >= 0 && r < 1 << 20)
            return (int)r;
    }
    return -1;
}

void mpishmem_devices_before_mpi(int gpu_wanted)
{
    int local = gpu_wanted ? launcher_local_rank() : -1;
    if (local < 0)
        return; /* chosen after MPI_Init, from the node communicator */
    const char *v = mpishmem_env("MPISHMEM_VISIBLE_DEVICES"), *bad;
    size_t bad_len;
    if (v && mpishmem_devices_parse(v, &mpishmem_devices, &bad, &bad_len) != 0)
        return; /* shmem_init reports it once MPI runs */
    discover(local);
    if (mpishmem_devices.gpu < 0)
        return;
    chosen_before_mpi = 1;
    device_before_mpi = mpishmem_cuda_select(mpishmem_devices.gpu);
}

void mpishmem_devices_after_mpi(void)
{
    if (chosen_before_mpi && device_before_mpi >= 0)
        mpishmem_cuda_select(device_before_mpi);
}

int mpishmem_device_reachable(shmem_device_type_t t)
{
    switch (t) {
    case SHMEM_DEVICE_CPU:
        return mpishmem_devices.cpu_visible;
    case SHMEM_DEVICE_GPU:
        mpishmem_devices_discover_gpu();
        return mpishmem_devices.gpu >= 0;
    default:
        return 0; /* no FPGA (or other device) discovery exists */
    }
}

size_t mpishmem_device_capacity(shmem_device_type_t t)
{
    if (t == SHMEM_DEVICE_GPU)
        return mpishmem_devices.gpu >= 0 ? mpishmem_cuda_total_memory(mpishmem_devices.gpu)
                                         : 0;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
}

int mpishmem_mpi_cuda_aware(void)
{
#if MPISHMEM_HAVE_MPIX_CUDA
    return MPIX_Query_cuda_support() == 1;
#else
    return 0; /* no way to ask: assume device pointers may not be passed to MPI */
#endif
}
