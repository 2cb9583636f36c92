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

typedef struct mpishmem_devices {
    int cpu_visible;        /* may join CPU spaces other than the default one */
    int gpu_filter_all;     /* MPISHMEM_VISIBLE_DEVICES lets every GPU through */
    unsigned long long gpu_filter; /* else: bit i lets CUDA device i through */
    int gpu_discovered;     /* mpishmem_devices_discover_gpu has run */
    int gpu;                /* CUDA device this PE uses, or -1 */
    int gpu_count;          /* CUDA devices the runtime reports */
    int gpu_aware_mpi;      /* MPI accepts device pointers (MPIX_Query_cuda_support) */
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
/* Can this PE put a space on device type t (non-default spaces)? */
int mpishmem_device_reachable(shmem_device_type_t t);
/* Bytes of memory the device has (host: physical memory); 0 if unknown. */
size_t mpishmem_device_capacity(shmem_device_type_t t);

/* CUDA runtime operations on device `gpu` (cuda_rt.c).  alloc returns NULL
 * on failure; the others stop the job with the CUDA error on failure. */
void *mpishmem_gpu_alloc(int gpu, size_t bytes);
void mpishmem_gpu_free(int gpu, void *p);
void mpishmem_gpu_memset(int gpu, void *p, int value, size_t bytes);
void mpishmem_gpu_memcpy(int gpu, void *dst, const void *src, size_t bytes);

/* The CUDA runtime as loaded by cuda_rt.c. */
int mpishmem_cuda_load(char *why, size_t why_len);   /* 0, or -1 and a reason */
int mpishmem_cuda_device_count(char *why, size_t why_len);
int mpishmem_cuda_pci_bus_id(int gpu, char *busid, int len);
size_t mpishmem_cuda_total_memory(int gpu);

/* hwloc (topology.c): the index in busids[0..n) of the device nearest to
 * this PE's cores, preferring local ones, spread over on-node PEs by
 * node_rank; -1 when hwloc cannot tell (then the caller spreads by rank).
 * *gpu_pci_count: GPU-class PCI devices hwloc sees (-1 if hwloc missing). */
int mpishmem_topology_nearest(const char (*busids)[32], int n, int node_rank,
                              int *gpu_pci_count, char *how, size_t how_len);

/* MPI's GPU awareness, from MPIX_Query_cuda_support where MPI has it. */
int mpishmem_mpi_cuda_aware(void);

#endif
