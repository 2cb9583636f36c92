/*
 * mpishmem: every environment variable the library reads (see env_table.h).
 * Add a row here when a source starts reading a new variable: an unlisted
 * name stops the library at its first read.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stddef.h>
#include "env_table.h"

#define ALL MPISHMEM_ENV_ALL_PES
#define PER MPISHMEM_ENV_PER_PE
#define PE0 MPISHMEM_ENV_PE0
#define OUT MPISHMEM_ENV_OUTSIDE

const mpishmem_env_var_t mpishmem_env_vars[] = {
    {"SHMEM_SYMMETRIC_SIZE", "256M", "spaces", ALL,
     "symmetric heap per PE (k/m/g/t suffixes, decimals allowed)"},
    {"SHMEM_DEBUG", "0", "lib", ALL, "check every argument and stop on misuse"},
    {"SHMEM_VERSION", "unset", "lib", PE0, "print the library version from PE 0 at start-up"},
    {"SHMEM_INFO", "unset", "lib", PE0,
     "print the version and the settings from PE 0 at start-up"},
    {"SMA_SYMMETRIC_SIZE", "unset", "spaces", ALL, "deprecated name of SHMEM_SYMMETRIC_SIZE"},
    {"SMA_DEBUG", "unset", "lib", ALL, "deprecated name of SHMEM_DEBUG"},
    {"SMA_VERSION", "unset", "lib", PE0, "deprecated name of SHMEM_VERSION"},
    {"SMA_INFO", "unset", "lib", PE0, "deprecated name of SHMEM_INFO"},
    {"MPISHMEM_SHM", "1", "mpi_backend", ALL,
     "load/store into PEs of the same node; 0 sends every transfer through MPI RMA"},
    {"MPISHMEM_SHM_GLOBALS", "1", "spaces", ALL,
     "0: other PEs' globals go through MPI even on the same node (docs/globals.md); read "
     "at program load, before main"},
    {"MPISHMEM_YIELD", "unset", "mpi_backend", PER,
     "1 yield the core while waiting, 0 spin; unset: yield when PEs outnumber cores"},
    {"MPISHMEM_PROGRESS_THREAD", "unset", "mpi_backend", ALL,
     "1: a thread per PE drives MPI progress while it computes, 0: none; unset: where "
     "other PEs reach this one through MPI and every PE has a second core (it needs "
     "MPI_THREAD_MULTIPLE, which costs MPICH 1-12% per call: docs/progress.md)"},
    {"MPISHMEM_AMO_AM", "unset", "mpi_backend", ALL,
     "1: AMOs on memory that MPI reaches are requests its owner applies (active messages), "
     "0: MPI atomics; unset: on MPICH while the progress thread runs (docs/progress.md)"},
    {"MPISHMEM_BARRIER", "auto", "lib", PER,
     "barrier route: shm (flags in node-shared memory when a team is on one node), mpi, "
     "shm-central, shm-dissemination; auto: shm (docs/collectives.md); each team agrees on "
     "one route at its first barrier"},
    {"MPISHMEM_CTX_LANES", "4 at `SHMEM_THREAD_MULTIPLE` with a core per PE, else 0",
     "mpi_backend", ALL,
     "extra MPI windows per segment so contexts complete independently (0 to 15)"},
    {"SHMEM_ENABLE_CPU_SPACE", "unset", "spaces", ALL,
     "enable the predefined CPU memory space (rules: docs/spaces.md)"},
    {"SHMEM_ENABLE_GPU_SPACE", "unset", "spaces", ALL,
     "enable the predefined GPU memory space (rules: docs/spaces.md)"},
    {"SHMEM_DEFAULT_SPACE", "CPU", "spaces", ALL, "the space shmem_malloc uses: CPU or GPU"},
    {"SHMEM_CPU_SYMMETRIC_SIZE", "unset", "spaces", ALL,
     "size of the CPU space (default: the heap size)"},
    {"SHMEM_GPU_SYMMETRIC_SIZE", "unset", "spaces", ALL, "size of the GPU space"},
    {"MPISHMEM_VISIBLE_DEVICES", "all", "spaces", PER,
     "devices this PE may put memory spaces on: cpu, gpu, gpuN, all, none"},
    {"MPISHMEM_CUDART", "unset", "mpi_backend", PER, "path of the CUDA runtime library to load"},
    {"MPISHMEM_GPU_AWARE", "unset", "spaces", ALL,
     "RMA on GPU memory by MPI: 1 required (checked), 0 never (IPC copies and staging); "
     "unset: when MPI says it is GPU-aware and the check passes (docs/spaces.md)"},
    {"MPISHMEM_TRACE", "unset", "lib", PE0,
     "file for the communication map: PE 0 writes per-PE ops and bytes as CSV at "
     "shmem_finalize (docs/tools.md)"},
    {"OMPI_MCA_osc", "unset", "mpi_backend", OUT,
     "Open MPI's RMA component; if unset and shmem_init starts MPI, the library sets ucx,sm"},
    {"UCX_RCACHE_ENABLE", "unset", "mpi_backend", OUT,
     "UCX's registration cache; if unset and shmem_init starts MPICH < 4.1 on UCX, the library "
     "sets n (MPICH gives a window inside registered memory a wrong base)"},
    {"MPI_LOCALNRANKS", "unset", "mpi_backend", OUT, "processes on this node (MPICH's Hydra)"},
    {"OMPI_COMM_WORLD_LOCAL_SIZE", "unset", "mpi_backend", OUT,
     "processes on this node (Open MPI)"},
    {"PMI_LOCAL_SIZE", "unset", "mpi_backend", OUT, "processes on this node (PMI launchers)"},
    {"SLURM_STEP_ID", "unset", "mpi_backend", OUT,
     "set by srun in a job step: only then are the next three trusted, and only when none of "
     "the three above is set"},
    {"SLURM_STEP_TASKS_PER_NODE", "unset", "mpi_backend", OUT,
     "processes of the step per node, in step node order, e.g. 2(x3),1 (Slurm)"},
    {"SLURM_TASKS_PER_NODE", "unset", "mpi_backend", OUT,
     "the same list, read when SLURM_STEP_TASKS_PER_NODE is unset (Slurm)"},
    {"SLURM_NODEID", "unset", "mpi_backend", OUT,
     "this node's index in that list (Slurm)"},
    {"MPI_LOCALRANKID", "unset", "spaces", OUT,
     "this process's rank on its node (Hydra): picks the GPU before MPI starts"},
    {"OMPI_COMM_WORLD_LOCAL_RANK", "unset", "spaces", OUT, "the same, from Open MPI"},
    {"PMIX_LOCAL_RANK", "unset", "spaces", OUT, "the same, from PMIx launchers"},
    {"PMI_LOCAL_RANK", "unset", "spaces", OUT, "the same, from PMI launchers"},
    {"SLURM_LOCALID", "unset", "spaces", OUT, "the same, from Slurm"},
    {"PALS_LOCAL_RANKID", "unset", "spaces", OUT, "the same, from HPE's PALS"},
    {"MV2_COMM_WORLD_LOCAL_RANK", "unset", "spaces", OUT, "the same, from MVAPICH2"},
    {"MPIR_CVAR_*", "MPICH's", "mpi_backend", OUT,
     "MPICH's control variables (also as MPICH_* and MPIR_PARAM_*): one the user set is "
     "never overridden by the library"},
    {"MPICH_*", "MPICH's", "mpi_backend", OUT, "MPICH's alias of MPIR_CVAR_*"},
    {"MPIR_PARAM_*", "MPICH's", "mpi_backend", OUT, "MPICH's older alias of MPIR_CVAR_*"},
    {NULL, NULL, NULL, ALL, NULL},
};

const char *mpishmem_env_scope_name(mpishmem_env_scope_t s)
{
    switch (s) {
    case MPISHMEM_ENV_ALL_PES: return "all PEs";
    case MPISHMEM_ENV_PER_PE: return "per PE";
    case MPISHMEM_ENV_PE0: return "PE 0";
    default: return "launcher/MPI";
    }
}
