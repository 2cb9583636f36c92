/*
 * mpishmem: every environment variable the library reads (see env_table.h).
 * Add a row here when a source starts reading a new variable: an unlisted
 * name stops the library at its first read.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stddef.h>
#include "env_table.h"
#include "segment.h" /* MPISHMEM_MAX_LANES */

#define ALL MPISHMEM_ENV_ALL_PES
#define PER MPISHMEM_ENV_PER_PE
#define PE0 MPISHMEM_ENV_PE0
#define OUT MPISHMEM_ENV_OUTSIDE

/* One macro per type, so each row reads as name, [range or words,] default,
 * layer, scope, meaning. */
#define BOOL(n, d, l, s, m) {n, MPISHMEM_ENV_BOOL, 0, 0, NULL, NULL, d, l, s, m}
#define SIZE(n, d, l, s, m) {n, MPISHMEM_ENV_SIZE, 0, 0, NULL, NULL, d, l, s, m}
#define INT(n, lo, hi, d, l, s, m) {n, MPISHMEM_ENV_INT, lo, hi, NULL, NULL, d, l, s, m}
#define CHOICE(n, w, d, l, s, m) {n, MPISHMEM_ENV_CHOICE, 0, 0, w, NULL, d, l, s, m}
#define DEVICES(n, d, l, s, m) {n, MPISHMEM_ENV_DEVICES, 0, 0, NULL, NULL, d, l, s, m}
#define PATH(n, d, l, s, m) {n, MPISHMEM_ENV_PATH, 0, 0, NULL, NULL, d, l, s, m}
#define TEXT(n, d, l, m) {n, MPISHMEM_ENV_TEXT, 0, 0, NULL, NULL, d, l, OUT, m}
/* A deprecated name: parsed as its type, read only when `of` is unset. */
#define ALIAS(n, t, of, l, s) {n, t, 0, 0, NULL, of, "unset", l, s, "deprecated name of " of}

const mpishmem_env_var_t mpishmem_env_vars[] = {
    SIZE("SHMEM_SYMMETRIC_SIZE", "256M", "spaces", ALL,
     "symmetric heap per PE (k/m/g/t suffixes, decimals allowed)"),
    BOOL("SHMEM_DEBUG", "0", "lib", ALL, "check every argument and stop on misuse"),
    BOOL("SHMEM_VERSION", "unset", "lib", PE0, "print the library version from PE 0 at start-up"),
    BOOL("SHMEM_INFO", "unset", "lib", PE0,
     "print the version and the settings from PE 0 at start-up"),
    ALIAS("SMA_SYMMETRIC_SIZE", MPISHMEM_ENV_SIZE, "SHMEM_SYMMETRIC_SIZE", "spaces", ALL),
    ALIAS("SMA_DEBUG", MPISHMEM_ENV_BOOL, "SHMEM_DEBUG", "lib", ALL),
    ALIAS("SMA_VERSION", MPISHMEM_ENV_BOOL, "SHMEM_VERSION", "lib", PE0),
    ALIAS("SMA_INFO", MPISHMEM_ENV_BOOL, "SHMEM_INFO", "lib", PE0),
    BOOL("MPISHMEM_SHM", "1", "mpi_backend", ALL,
     "load/store into PEs of the same node; 0 sends every transfer through MPI RMA"),
    BOOL("MPISHMEM_SHM_GLOBALS", "1", "spaces", ALL,
     "0: other PEs' globals go through MPI even on the same node (docs/globals.md); read "
     "at program load, before main"),
    BOOL("MPISHMEM_YIELD", "unset", "mpi_backend", PER,
     "1 yield the core while waiting, 0 spin; unset: yield when PEs outnumber cores"),
    BOOL("MPISHMEM_PROGRESS_THREAD", "unset", "mpi_backend", ALL,
     "1: a thread per PE drives MPI progress while it computes, 0: none; unset: where "
     "other PEs reach this one through MPI and every PE has a second core, or that RMA "
     "needs this PE inside MPI (MPICH, other nodes), then sleeping between polls (it needs "
     "MPI_THREAD_MULTIPLE, which costs MPICH 1-12% per call: docs/progress.md)"),
    BOOL("MPISHMEM_AMO_AM", "unset", "mpi_backend", ALL,
     "1: AMOs on memory that MPI reaches are requests its owner applies (active messages), "
     "0: MPI atomics; unset: on MPICH, and between nodes on any MPI, while the progress thread runs on a spare core or as asked (docs/progress.md)"),
    BOOL("MPISHMEM_WIN_ALLOCATE", "unset", "mpi_backend", ALL,
     "1: memory that only MPI reaches (the heap and global data with MPISHMEM_SHM=0) is "
     "memory MPI allocates (MPI_Win_allocate), mapped at its own address too; 0: never; "
     "unset: on Open MPI when OMPI_MCA_osc lists sm (shmem_init sets ucx,sm), whose "
     "atomics then need nothing from the target (docs/performance-waiting.md)"),
    CHOICE("MPISHMEM_BARRIER", "auto|shm|mpi|shm-central|shm-dissemination", "auto", "lib", PER,
     "barrier route: shm (flags in node-shared memory when a team is on one node), mpi, "
     "shm-central, shm-dissemination; auto: shm (docs/collectives.md); each team agrees on "
     "one route when it is made"),
    INT("MPISHMEM_CTX_LANES", 0, MPISHMEM_MAX_LANES - 1, "4 at `SHMEM_THREAD_MULTIPLE` with a core per PE, else 0",
     "mpi_backend", ALL,
     "extra MPI windows per segment so contexts complete independently (0 to 15)"),
    BOOL("SHMEM_ENABLE_CPU_SPACE", "unset", "spaces", ALL,
     "enable the predefined CPU memory space (rules: docs/spaces.md)"),
    BOOL("SHMEM_ENABLE_GPU_SPACE", "unset", "spaces", ALL,
     "enable the predefined GPU memory space (rules: docs/spaces.md)"),
    CHOICE("SHMEM_DEFAULT_SPACE", "CPU|GPU", "CPU", "spaces", ALL, "the space shmem_malloc uses: CPU or GPU"),
    SIZE("SHMEM_CPU_SYMMETRIC_SIZE", "unset", "spaces", ALL,
     "size of the CPU space (default: the heap size)"),
    SIZE("SHMEM_GPU_SYMMETRIC_SIZE", "unset", "spaces", ALL, "size of the GPU space"),
    DEVICES("MPISHMEM_VISIBLE_DEVICES", "all", "spaces", PER,
     "devices this PE may put memory spaces on: cpu, gpu, gpuN, all, none"),
    PATH("MPISHMEM_CUDART", "unset", "mpi_backend", PER, "path of the CUDA runtime library to load"),
    BOOL("MPISHMEM_GPU_AWARE", "unset", "spaces", ALL,
     "RMA on GPU memory by MPI: 1 required (checked), 0 never (IPC copies and staging); "
     "unset: when MPI says it is GPU-aware and the check passes (docs/spaces.md)"),
    PATH("MPISHMEM_TRACE", "unset", "lib", PE0,
     "file for the communication map: PE 0 writes per-PE ops and bytes as CSV at "
     "shmem_finalize (docs/tools.md)"),
    TEXT("OMPI_MCA_osc", "unset", "mpi_backend",
     "Open MPI's RMA component; if unset and shmem_init starts MPI, the library sets ucx,sm"),
    TEXT("UCX_RCACHE_ENABLE", "unset", "mpi_backend",
     "UCX's registration cache; if unset and shmem_init starts MPICH < 4.1 on UCX, the library "
     "sets n (MPICH gives a window inside registered memory a wrong base)"),
    TEXT("MPI_LOCALNRANKS", "unset", "mpi_backend", "processes on this node (MPICH's Hydra)"),
    TEXT("OMPI_COMM_WORLD_LOCAL_SIZE", "unset", "mpi_backend",
     "processes on this node (Open MPI)"),
    TEXT("PMI_LOCAL_SIZE", "unset", "mpi_backend", "processes on this node (PMI launchers)"),
    TEXT("PMI_SIZE", "unset", "mpi_backend",
     "processes in the job (Hydra, PMI launchers): more than on this node asks MPI for "
     "MPI_THREAD_MULTIPLE, for the progress thread"),
    TEXT("OMPI_COMM_WORLD_SIZE", "unset", "mpi_backend", "processes in the job (Open MPI)"),
    TEXT("SLURM_STEP_ID", "unset", "mpi_backend",
     "set by srun in a job step: only then are the next three trusted, and only when none of "
     "the three above is set"),
    TEXT("SLURM_STEP_TASKS_PER_NODE", "unset", "mpi_backend",
     "processes of the step per node, in step node order, e.g. 2(x3),1 (Slurm)"),
    TEXT("SLURM_TASKS_PER_NODE", "unset", "mpi_backend",
     "the same list, read when SLURM_STEP_TASKS_PER_NODE is unset (Slurm)"),
    TEXT("SLURM_NODEID", "unset", "mpi_backend",
     "this node's index in that list (Slurm)"),
    TEXT("MPI_LOCALRANKID", "unset", "spaces",
     "this process's rank on its node (Hydra): picks the GPU before MPI starts"),
    TEXT("OMPI_COMM_WORLD_LOCAL_RANK", "unset", "spaces", "the same, from Open MPI"),
    TEXT("PMIX_LOCAL_RANK", "unset", "spaces", "the same, from PMIx launchers"),
    TEXT("PMI_LOCAL_RANK", "unset", "spaces", "the same, from PMI launchers"),
    TEXT("SLURM_LOCALID", "unset", "spaces", "the same, from Slurm"),
    TEXT("PALS_LOCAL_RANKID", "unset", "spaces", "the same, from HPE's PALS"),
    TEXT("MV2_COMM_WORLD_LOCAL_RANK", "unset", "spaces", "the same, from MVAPICH2"),
    TEXT("MPIR_CVAR_*", "MPICH's", "mpi_backend",
     "MPICH's control variables (also as MPICH_* and MPIR_PARAM_*): one the user set is "
     "never overridden by the library"),
    TEXT("MPICH_*", "MPICH's", "mpi_backend", "MPICH's alias of MPIR_CVAR_*"),
    TEXT("MPIR_PARAM_*", "MPICH's", "mpi_backend", "MPICH's older alias of MPIR_CVAR_*"),
    {NULL, MPISHMEM_ENV_TEXT, 0, 0, NULL, NULL, NULL, NULL, ALL, NULL},
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
