/*
 * mpishmem: the devices a PE can put memory spaces on.
 *
 * CPU: host memory, reachable unless MPISHMEM_VISIBLE_DEVICES hides it.
 * GPU: a CUDA device, found through the CUDA runtime loaded at run time
 * (dlopen, so neither the library nor the program links against CUDA) and
 * chosen nearest to the PE's cores with hwloc (also loaded at run time).
 * Discovery is local to each PE; spaces agree on membership collectively.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_DEVICES_H
#define MPISHMEM_DEVICES_H

#include <stddef.h>
#include <shmem.h>
#include "../../mpi_backend/gpu/cuda_rt.h"

typedef struct mpishmem_devices {
    int cpu_visible;        /* may join CPU spaces other than the default one */
    int gpu_filter_all;     /* MPISHMEM_VISIBLE_DEVICES lets every GPU through */
    unsigned long long gpu_filter; /* else: bit i lets CUDA device i through */
    int gpu_discovered;     /* mpishmem_devices_discover_gpu has run */
    int gpu;                /* CUDA device this PE uses, or -1 */
    int gpu_count;          /* CUDA devices the runtime reports */
    int gpu_aware;          /* RMA on device memory by MPI: 0 never, 1 required (checked),
                             * -1 if the check at the first GPU space passes */
    char why_no_gpu[256];   /* when gpu < 0: the reason, for messages and SHMEM_INFO */
    char gpu_choice[192];   /* when gpu >= 0: how it was chosen */
} mpishmem_devices_t;

extern mpishmem_devices_t mpishmem_devices;

/* Reads MPISHMEM_VISIBLE_DEVICES; stops shmem_init on a malformed value. */
void mpishmem_devices_init(void);
/* Parses a MPISHMEM_VISIBLE_DEVICES value into d; 0, or -1 with *bad set
 * to the offending token.  Exposed for the unit test. */
int mpishmem_devices_parse(const char *text, mpishmem_devices_t *d, const char **bad,
                           size_t *bad_len);
/* Local GPU discovery (idempotent): CUDA runtime, hwloc, visibility. */
void mpishmem_devices_discover_gpu(void);
/* When shmem_init starts MPI and a GPU space is wanted: choose the GPU
 * before MPI_Init (by the launcher's node-local rank) and make it current,
 * as GPU-aware MPIs bind to the current device when they start; after
 * MPI_Init the application's device is put back.  The choice stands. */
void mpishmem_devices_before_mpi(int gpu_wanted);
void mpishmem_devices_after_mpi(void);
/* Can this PE put a space on device type t (non-default spaces)? */
int mpishmem_device_reachable(shmem_device_type_t t);
/* Bytes of memory the device has (host: physical memory); 0 if unknown. */
size_t mpishmem_device_capacity(shmem_device_type_t t);

/* hwloc (topology.c): the index in busids[0..n) of the device nearest to
 * this PE's cores, preferring local ones, spread over on-node PEs by
 * node_rank; -1 when hwloc cannot tell (then the caller spreads by rank).
 * *gpu_pci_count: GPU-class PCI devices hwloc sees (-1 if hwloc missing). */
int mpishmem_topology_nearest(const char (*busids)[32], int n, int node_rank,
                              int *gpu_pci_count, char *how, size_t how_len);

/* MPI's GPU awareness, from MPIX_Query_cuda_support where MPI has it. */
int mpishmem_mpi_cuda_aware(void);

#endif
