/*
 * mpishmem: the predefined spaces SHMEM_SPACE_DEFAULT / _CPU / _GPU and the
 * teams SHMEM_TEAM_CPU / _GPU, from the environment.
 *
 * Which spaces are enabled (docs/spaces.md has the full table):
 *   - SHMEM_ENABLE_<X>_SPACE true enables X, false disables it;
 *   - SHMEM_DEFAULT_SPACE=X enables X unless its variable disables it;
 *   - with no enabling variable and no default requested, the CPU space is
 *     enabled, so programs that know nothing of spaces keep working.
 * The default is the requested space, else CPU if enabled, else GPU; it
 * must be world-accessible (host memory always is; the GPU space only if
 * every PE has a GPU) or shmem_init stops, naming the variable.
 * Sizes: the default space takes SHMEM_<X>_SYMMETRIC_SIZE, else
 * SHMEM_SYMMETRIC_SIZE, else 256 MiB; another space SHMEM_<X>_SYMMETRIC_SIZE,
 * else 256 MiB.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include "devices.h"
#include "space.h"
#include "space_settings.h"
#include "../../mpi_backend/runtime/error.h"
#include "../../mpi_backend/gpu/gpu_path.h"
#include "../../mpi_backend/progress/progress.h"
#include "../../mpi_backend/settings/env_read.h"

shmem_space_t mpishmem_space_default_handle;
shmem_space_t mpishmem_space_cpu_handle;
shmem_space_t mpishmem_space_gpu_handle;
shmem_team_t mpishmem_team_cpu_handle;
shmem_team_t mpishmem_team_gpu_handle;

static struct {
    int cpu_enabled, gpu_enabled;
    int default_dev;
    int cpu_all, cpu_any, gpu_any, gpu_all, gpu_here;
    size_t cpu_size, gpu_size;
    const char *cpu_var, *gpu_var;
} plan;

static int enabled(int enable_var, int default_var, shmem_device_type_t d)
{
    return enable_var == 1 || (enable_var == -1 && default_var == (int)d);
}

void mpishmem_spaces_plan(const mpishmem_space_settings_t *sp, int heap_size_set,
                          size_t *heap_size, const char **heap_size_var,
                          const char **heap_size_text)
{
    mpishmem_devices_init();
    /* RMA on device memory by MPI: MPISHMEM_GPU_AWARE decides; unset, an
     * MPI that says it handles device memory is checked at the first GPU
     * space (mpi_backend/gpu/gpu_seg.c). */
    mpishmem_devices.gpu_aware = sp->gpu_aware >= 0 ? sp->gpu_aware
                                 : mpishmem_mpi_cuda_aware() ? -1 : 0;
    if (sp->default_space == SHMEM_DEVICE_CPU && sp->enable_cpu == 0)
        mpishmem_fatal("shmem_init", "SHMEM_DEFAULT_SPACE=CPU, but SHMEM_ENABLE_CPU_SPACE "
                       "disables the CPU space");
    if (sp->default_space == SHMEM_DEVICE_GPU && sp->enable_gpu == 0)
        mpishmem_fatal("shmem_init", "SHMEM_DEFAULT_SPACE=GPU, but SHMEM_ENABLE_GPU_SPACE "
                       "disables the GPU space");
    plan.cpu_enabled = enabled(sp->enable_cpu, sp->default_space, SHMEM_DEVICE_CPU) ||
                       (sp->enable_cpu == -1 && sp->enable_gpu != 1 && sp->default_space == -1);
    plan.gpu_enabled = enabled(sp->enable_gpu, sp->default_space, SHMEM_DEVICE_GPU);
    if (!plan.cpu_enabled && !plan.gpu_enabled)
        mpishmem_fatal("shmem_init", "both memory spaces are disabled (SHMEM_ENABLE_CPU_SPACE "
                       "and SHMEM_ENABLE_GPU_SPACE): enable at least one");

    plan.gpu_here = plan.gpu_enabled && mpishmem_device_reachable(SHMEM_DEVICE_GPU);
    /* Both ends in one collective: max(x) = -min(-x) (flags are 0 or 1). */
    int v[4] = {plan.gpu_here, mpishmem_devices.cpu_visible, -plan.gpu_here,
                -mpishmem_devices.cpu_visible}, r[4];
    mpishmem_allreduce(v, r, 4, MPI_INT, MPI_MIN, mpishmem_rt.world);
    int lo[2] = {r[0], r[1]}, hi[2] = {-r[2], -r[3]};
    plan.gpu_all = lo[0];
    plan.cpu_all = lo[1];
    plan.gpu_any = hi[0];
    plan.cpu_any = hi[1];
    const char *mine = plan.gpu_here ? mpishmem_devices.gpu_choice : mpishmem_devices.why_no_gpu;

    if (sp->default_space == SHMEM_DEVICE_GPU) {
        if (!plan.gpu_all)
            mpishmem_fatal("shmem_init", "SHMEM_DEFAULT_SPACE=GPU, but the GPU space is not "
                           "available on every PE, and the default space must be (this PE: "
                           "%s)", plan.gpu_here ? "has a GPU" : mine);
        plan.default_dev = SHMEM_DEVICE_GPU;
    } else if (plan.cpu_enabled) {
        plan.default_dev = SHMEM_DEVICE_CPU;
    } else if (plan.gpu_all) {
        plan.default_dev = SHMEM_DEVICE_GPU;
    } else {
        mpishmem_fatal("shmem_init", "no memory space can be the default: the CPU space is "
                       "not enabled (SHMEM_ENABLE_CPU_SPACE) and the GPU space is not "
                       "available on every PE (this PE: %s)", plan.gpu_here ? "has a GPU" : mine);
    }

    int cpu_default = plan.default_dev == SHMEM_DEVICE_CPU;
    plan.cpu_size = MPISHMEM_DEFAULT_HEAP_SIZE;
    plan.gpu_size = MPISHMEM_DEFAULT_HEAP_SIZE;
    plan.cpu_var = plan.gpu_var = "default";
    if (heap_size_set) {
        *(cpu_default ? &plan.cpu_size : &plan.gpu_size) = *heap_size;
        *(cpu_default ? &plan.cpu_var : &plan.gpu_var) = *heap_size_var;
    }
    if (sp->cpu_size_set) {
        plan.cpu_size = sp->cpu_size;
        plan.cpu_var = "SHMEM_CPU_SYMMETRIC_SIZE";
        if (cpu_default)
            *heap_size_text = sp->cpu_size_text;
    }
    if (sp->gpu_size_set) {
        plan.gpu_size = sp->gpu_size;
        plan.gpu_var = "SHMEM_GPU_SYMMETRIC_SIZE";
    }
    /* The host heap shmem_init makes: the CPU space if it is the default
     * or enabled on every PE, else one page nobody allocates from. */
    if (cpu_default || (plan.cpu_enabled && plan.cpu_all)) {
        *heap_size = plan.cpu_size;
        *heap_size_var = plan.cpu_var;
    } else {
        *heap_size = 0;
        *heap_size_var = "no CPU space";
    }
}

/* A predefined space over the heap shmem_init made, with the world team. */
static mpishmem_space_t *wrap_default_heap(void)
{
    mpishmem_space_t *sp = calloc(1, sizeof *sp);
    if (sp == NULL)
        return NULL;
    sp->heap = &mpishmem_default_heap;
    sp->heap->size_var = plan.cpu_var;
    sp->device = SHMEM_DEVICE_CPU;
    sp->team = SHMEM_TEAM_WORLD;
    sp->anchor.comm = sp->comm = sp->shm_comm = MPI_COMM_NULL;
    sp->predefined = 1;
    snprintf(sp->name, sizeof sp->name, "CPU space (predefined)");
    sp->caps = mpishmem_space_caps(sp);
    mpishmem_space_link(sp);
    return sp;
}

static void build_or_die(shmem_device_type_t d, size_t size, int member, const char *var,
                         mpishmem_space_t **out)
{
    char why[256];
    if (mpishmem_space_build(d, size, member, 1, var, out, why, sizeof why) != 0)
        mpishmem_fatal("shmem_init", "cannot create the predefined %s space of %zu bytes per "
                       "PE (size from %s): %s", d == SHMEM_DEVICE_CPU ? "CPU" : "GPU", size,
                       var, why);
}

int mpishmem_spaces_init(void)
{
    mpishmem_space_t *cpu = NULL, *gpu = NULL;
    if (plan.default_dev == SHMEM_DEVICE_CPU) {
        if ((cpu = wrap_default_heap()) == NULL)
            return MPI_ERR_NO_MEM;
        if (plan.gpu_enabled && plan.gpu_any)
            build_or_die(SHMEM_DEVICE_GPU, plan.gpu_size, plan.gpu_here, plan.gpu_var, &gpu);
    } else {
        build_or_die(SHMEM_DEVICE_GPU, plan.gpu_size, 1, plan.gpu_var, &gpu);
        /* The default space's team is SHMEM_TEAM_WORLD itself. */
        mpishmem_team_release(gpu->team);
        gpu->team = SHMEM_TEAM_WORLD;
        mpishmem_user_heap = gpu->heap;
        if (plan.cpu_enabled && plan.cpu_all) {
            if ((cpu = wrap_default_heap()) == NULL)
                return MPI_ERR_NO_MEM;
        } else if (plan.cpu_enabled && plan.cpu_any) {
            build_or_die(SHMEM_DEVICE_CPU, plan.cpu_size, mpishmem_devices.cpu_visible,
                         plan.cpu_var, &cpu);
        }
    }
    mpishmem_space_cpu_handle = cpu;
    mpishmem_space_gpu_handle = gpu;
    mpishmem_team_cpu_handle = cpu ? cpu->team : SHMEM_TEAM_INVALID;
    mpishmem_team_gpu_handle = gpu ? gpu->team : SHMEM_TEAM_INVALID;
    mpishmem_space_default_handle = plan.default_dev == SHMEM_DEVICE_CPU ? cpu : gpu;
    return MPI_SUCCESS;
}

void mpishmem_spaces_finalize(void)
{
    /* The teams are gone already (mpishmem_teams_finalize); spaces go in
     * creation order, the same on every PE. */
    while (mpishmem_spaces_head)
        mpishmem_space_release(mpishmem_spaces_head);
    mpishmem_space_default_handle = mpishmem_space_cpu_handle = SHMEM_SPACE_INVALID;
    mpishmem_space_gpu_handle = SHMEM_SPACE_INVALID;
    mpishmem_team_cpu_handle = mpishmem_team_gpu_handle = SHMEM_TEAM_INVALID;
    mpishmem_user_heap = &mpishmem_default_heap;
}

void mpishmem_spaces_report(void)
{
    const char *vis = mpishmem_env("MPISHMEM_VISIBLE_DEVICES");
    printf("  SHMEM_ENABLE_CPU_SPACE, SHMEM_ENABLE_GPU_SPACE  enable a memory space "
           "[CPU %s, GPU %s]\n"
           "  SHMEM_DEFAULT_SPACE   CPU or GPU: what shmem_malloc allocates from [%s]\n"
           "  SHMEM_CPU_SYMMETRIC_SIZE, SHMEM_GPU_SYMMETRIC_SIZE  bytes per PE of those "
           "spaces [CPU %zu from %s, GPU %zu from %s]\n"
           "  MPISHMEM_VISIBLE_DEVICES  devices this PE may put spaces on: cpu, gpu, gpuN, "
           "all, none [%s]\n",
           plan.cpu_enabled ? "on" : "off", plan.gpu_enabled ? "on" : "off",
           plan.default_dev == SHMEM_DEVICE_CPU ? "CPU" : "GPU", plan.cpu_size, plan.cpu_var,
           plan.gpu_size, plan.gpu_var, vis ? mpishmem_env_shown(vis) : "all");
    if (mpishmem_devices.gpu_discovered)
        printf("mpishmem: PE 0 GPU: %s; RMA on GPU memory: %s\n",
               mpishmem_devices.gpu >= 0 ? mpishmem_devices.gpu_choice
                                         : mpishmem_devices.why_no_gpu,
               mpishmem_gpu_mpi_aware ? "by MPI (GPU-aware, checked)"
               : mpishmem_devices.gpu_aware == 0
                   ? "IPC copies and staging (MPI is not GPU-aware, or MPISHMEM_GPU_AWARE=0)"
                   : "IPC copies and staging (MPI's RMA on device memory failed the check)");
}
