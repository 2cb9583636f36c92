/*
 * mpishmem: every environment variable the library reads (see env_table.h).
 * Add a row here when a source starts reading a new variable.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stddef.h>
#include "env_table.h"

const mpishmem_env_var_t mpishmem_env_vars[] = {
    {"SHMEM_SYMMETRIC_SIZE", "256M",
     "symmetric heap per PE (k/m/g/t suffixes, decimals allowed); equal on all PEs"},
    {"SHMEM_DEBUG", "0", "check every argument and stop on misuse"},
    {"SHMEM_VERSION", "unset", "print the library version from PE 0 at start-up"},
    {"SHMEM_INFO", "unset", "print the version and the settings from PE 0 at start-up"},
    {"SMA_SYMMETRIC_SIZE", "unset", "deprecated name of SHMEM_SYMMETRIC_SIZE"},
    {"SMA_DEBUG", "unset", "deprecated name of SHMEM_DEBUG"},
    {"SMA_VERSION", "unset", "deprecated name of SHMEM_VERSION"},
    {"SMA_INFO", "unset", "deprecated name of SHMEM_INFO"},
    {"MPISHMEM_SHM", "1",
     "load/store into PEs of the same node; 0 sends every transfer through MPI RMA"},
    {"MPISHMEM_SHM_GLOBALS", "1",
     "0: other PEs' globals go through MPI even on the same node (docs/globals.md)"},
    {"MPISHMEM_YIELD", "unset",
     "1 yield the core while waiting, 0 spin; unset: yield when PEs outnumber cores"},
    {"MPISHMEM_PROGRESS_THREAD", "unset",
     "1: a thread per PE drives MPI progress while it computes, 0: none; unset: only "
     "where it costs nothing (docs/progress.md)"},
    {"MPISHMEM_BARRIER", "auto",
     "barrier route: shm (flags in node-shared memory when a team is on one node), mpi, "
     "shm-central, shm-dissemination; auto: shm (docs/collectives.md)"},
    {"MPISHMEM_CTX_LANES", "4 (0 when oversubscribed)",
     "extra MPI windows per segment so contexts complete independently (0 to 15)"},
    {"SHMEM_ENABLE_CPU_SPACE", "unset", "enable the predefined CPU memory space (rules: docs/spaces.md)"},
    {"SHMEM_ENABLE_GPU_SPACE", "unset", "enable the predefined GPU memory space (rules: docs/spaces.md)"},
    {"SHMEM_DEFAULT_SPACE", "CPU", "the space shmem_malloc uses: CPU or GPU"},
    {"SHMEM_CPU_SYMMETRIC_SIZE", "unset", "size of the CPU space (default: the heap size)"},
    {"SHMEM_GPU_SYMMETRIC_SIZE", "unset", "size of the GPU space"},
    {"MPISHMEM_VISIBLE_DEVICES", "all",
     "devices this PE may put memory spaces on: cpu, gpu, gpuN, all, none"},
    {"MPISHMEM_CUDART", "unset", "path of the CUDA runtime library to load"},
    {"MPISHMEM_GPU_AWARE", "unset",
     "RMA on GPU memory by MPI: 1 required (checked), 0 never (IPC copies and staging); "
     "unset: when MPI says it is GPU-aware and the check passes (docs/spaces.md)"},
    {"MPISHMEM_TRACE", "unset",
     "file for the communication map: PE 0 writes per-PE ops and bytes as CSV at shmem_finalize "
     "(docs/tools.md)"},
    {"OMPI_MCA_osc", "unset",
     "Open MPI's RMA component; if unset and shmem_init starts MPI, the library sets ucx,sm"},
    {NULL, NULL, NULL},
};
