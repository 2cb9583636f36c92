/*
 * mpishmem: declarations of the memory spaces: predefined and dynamic spaces.
 * Included by <shmem.h>.  See docs/spaces.md for the decisions behind them.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_SPACES_H
#define MPISHMEM_SPACES_H

/* ---- Types ---------------------------------------------------------------- */
typedef void *shmem_space_t;

/* The device types this library knows.  CPU spaces are host memory; GPU
 * spaces are CUDA device memory (only where a GPU and its runtime exist);
 * no FPGA is ever discovered, so an FPGA space cannot be created. */
typedef enum {
    SHMEM_DEVICE_CPU = 0,
    SHMEM_DEVICE_GPU = 1,
    SHMEM_DEVICE_FPGA = 2
} shmem_device_type_t;

typedef struct {
    shmem_device_type_t device_type; /* device to place the space on */
    size_t size;                     /* bytes of symmetric heap per PE */
    int flags;                       /* SHMEM_SPACE_FLAG_* */
} shmem_space_config_t;

#define SHMEM_SPACE_FLAG_DEFAULT 0x0000

typedef uint64_t shmem_space_cap_t;
#define SHMEM_SPACE_CAP_RMA UINT64_C(0x0001)           /* RMA to this space works */
#define SHMEM_SPACE_CAP_COLLECTIVES UINT64_C(0x0002)   /* collectives on it work */
#define SHMEM_SPACE_CAP_ATOMICS UINT64_C(0x0004)       /* AMOs aimed at it work */
#define SHMEM_SPACE_CAP_DIRECT_ACCESS UINT64_C(0x0008) /* members load/store their part */
#define SHMEM_SPACE_CAP_WORLD_ACCESS UINT64_C(0x0010)  /* its team is SHMEM_TEAM_WORLD */
#define SHMEM_SPACE_CAP_IDENT_ADDR UINT64_C(0x0020)    /* same address on every member */

/* ---- Handles ----------------------------------------------------------------
 * The predefined handles are set by shmem_init (and reset by
 * shmem_finalize), so they are expressions reading library variables, not
 * link-time constants.  An unavailable space or team reads as the INVALID
 * value; SHMEM_SPACE_DEFAULT equals SHMEM_SPACE_CPU or SHMEM_SPACE_GPU. */
extern shmem_space_t mpishmem_space_default_handle;
extern shmem_space_t mpishmem_space_cpu_handle;
extern shmem_space_t mpishmem_space_gpu_handle;
extern shmem_team_t mpishmem_team_cpu_handle;
extern shmem_team_t mpishmem_team_gpu_handle;

#define SHMEM_SPACE_INVALID ((shmem_space_t)0)
#define SHMEM_SPACE_DEFAULT (mpishmem_space_default_handle)
#define SHMEM_SPACE_CPU (mpishmem_space_cpu_handle)
#define SHMEM_SPACE_GPU (mpishmem_space_gpu_handle)
#define SHMEM_TEAM_CPU (mpishmem_team_cpu_handle)
#define SHMEM_TEAM_GPU (mpishmem_team_gpu_handle)

/* ---- Routines --------------------------------------------------------------- */
int shmem_space_create(const shmem_space_config_t *config, shmem_space_t *space,
                       shmem_team_t *team);
int shmem_space_destroy(shmem_space_t space);
void *shmem_space_malloc(shmem_space_t space, size_t size);
void *shmem_space_calloc(shmem_space_t space, size_t count, size_t size);
void shmem_space_free(shmem_space_t space, void *ptr);
int shmem_space_get_team(shmem_space_t space, shmem_team_t *team);
int shmem_space_get_device_type(shmem_space_t space, shmem_device_type_t *type);
int shmem_space_get_caps(shmem_space_t space, shmem_space_cap_t *caps);
int shmem_space_is_available(shmem_space_t space);

#endif
