/*
 * mpishmem: making and ending spaces (shmem_space_create/destroy, and the
 * predefined spaces through mpishmem_space_build).
 *
 * Creation is collective over the world.  One allreduce settles everything
 * every PE must agree on before memory is made: the same configuration, a
 * non-empty team, a size the device can hold, room in the segment table.
 * The members then split off a communicator, make the heap over it (shared
 * host memory on each node + an RMA window over the members, or device
 * memory), and a second allreduce over the world confirms it worked
 * everywhere, so the outcome (zero or nonzero) is the same on every PE.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "devices.h"
#include "space.h"
#include "../../mpi_backend/runtime/error.h"
#include "../../mpi_backend/gpu/gpu_path.h"
#include "../../mpi_backend/memory/segment.h"
#include "../../mpi_backend/progress/progress.h"
#include "../../mpi_backend/progress/request_service.h"

static const char *device_name(shmem_device_type_t d)
{
    switch (d) {
    case SHMEM_DEVICE_CPU: return "CPU";
    case SHMEM_DEVICE_GPU: return "GPU";
    case SHMEM_DEVICE_FPGA: return "FPGA";
    default: return "unknown-device";
    }
}

shmem_space_cap_t mpishmem_space_caps(const mpishmem_space_t *sp)
{
    int members = mpishmem_rt.n_pes;
    if (sp->comm != MPI_COMM_NULL)
        MPISHMEM_MPI(MPI_Comm_size(sp->comm, &members));
    shmem_space_cap_t c = members == mpishmem_rt.n_pes ? SHMEM_SPACE_CAP_WORLD_ACCESS : 0;
    if (sp->device == SHMEM_DEVICE_CPU)
        /* Host memory: RMA and AMOs through the segment registry, any
         * collective over MPI or RMA, and loads/stores on one's own part.
         * Addresses differ between PEs (each maps the shared memory where
         * the OS puts it), so never IDENT_ADDR. */
        return c | SHMEM_SPACE_CAP_RMA | SHMEM_SPACE_CAP_ATOMICS |
               SHMEM_SPACE_CAP_COLLECTIVES | SHMEM_SPACE_CAP_DIRECT_ACCESS;
    /* Device memory: RMA, AMOs and collectives through the runtime's copies,
     * IPC mappings, a GPU-aware MPI or the owner's agent
     * (mpi_backend/gpu/gpu_path.h); never loads and stores by the CPU. */
    return c | SHMEM_SPACE_CAP_RMA | SHMEM_SPACE_CAP_ATOMICS | SHMEM_SPACE_CAP_COLLECTIVES;
}

/* The team of a destroyed space team is gone: forget it. */
static void forget_team(shmem_team_t team)
{
    mpishmem_space_t *sp = team->owner;
    if (sp && sp->team == team)
        sp->team = SHMEM_TEAM_INVALID;
}

static void free_comms(mpishmem_space_t *sp)
{
    if (sp->shm_comm != MPI_COMM_NULL) {
        MPISHMEM_MPI(MPI_Comm_free(&sp->shm_comm));
        mpishmem_space_counts.comms--;
    }
    if (sp->comm != MPI_COMM_NULL) {
        MPISHMEM_MPI(MPI_Comm_free(&sp->comm));
        mpishmem_space_counts.comms--;
    }
}

static int windows_of(const mpishmem_space_t *sp)
{
    return sp->device == SHMEM_DEVICE_CPU ? 2 : 1; /* shared + RMA, or RMA only */
}

/* Collective over the world: whether every member can have the space
 * (a PE that cannot: its slot of the allreduce); *everyone: no PE stays
 * out.  Frees sp and says why when not. */
static int check_can_build(shmem_device_type_t device, size_t size, int member,
                           mpishmem_space_t *sp, int *everyone, char *why, size_t why_len)
{
    size_t capacity = member ? mpishmem_device_capacity(device) : 0;
    /* Any member that cannot: 1 in the slot.  The last: any non-member. */
    int v[5] = {member, member && sp == NULL,
                member && capacity != 0 && size > capacity,
                member && mpishmem_segments.count >= MPISHMEM_MAX_SEGMENTS, !member};
    int r[5];
    mpishmem_allreduce(v, r, 5, MPI_INT, MPI_MAX, mpishmem_rt.world);
    *everyone = !r[4];
    if (r[0] && !r[1] && !r[2] && !r[3])
        return 0;
    free(sp);
    if (!r[0])
        snprintf(why, why_len, "no PE can reach a %s device", device_name(device));
    else if (r[1])
        snprintf(why, why_len, "out of memory for a space object");
    else if (r[2])
        snprintf(why, why_len, "%zu bytes per PE is more than the %s memory of a PE", size,
                 device_name(device));
    else
        snprintf(why, why_len, "all %d symmetric segments are in use", MPISHMEM_MAX_SEGMENTS);
    return -1;
}

/* A member's space object over comm and its memory (a heap with windows). */
static int make_memory(mpishmem_space_t *sp, shmem_device_type_t device, size_t size,
                       MPI_Comm comm, int everyone, int predefined, int serial)
{
    sp->comm = comm;
    sp->shm_comm = MPI_COMM_NULL;
    sp->device = device;
    sp->predefined = predefined;
    sp->team = SHMEM_TEAM_INVALID;
    sp->anchor.comm = MPI_COMM_NULL;
    mpishmem_space_counts.comms++;
    snprintf(sp->name, sizeof sp->name, "%s space %d", device_name(device), serial);
    if (device != SHMEM_DEVICE_CPU)
        return mpishmem_heap_create_gpu(&sp->own_heap, sp->name, size, comm,
                                        mpishmem_devices.gpu, mpishmem_devices.gpu_aware);
    if (everyone) {
        mpishmem_comm_dup(mpishmem_rt.node, &sp->shm_comm);
    } else {
        mpishmem_meet_before_blocking(comm);
        MPISHMEM_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                                         &sp->shm_comm));
    }
    mpishmem_space_counts.comms++;
    return mpishmem_heap_create_on(&sp->own_heap, sp->name, size, comm, sp->shm_comm);
}

/* A member's space, made: its team and its place in the registry. */
static void finish(mpishmem_space_t *sp, MPI_Comm comm, int predefined, const char *size_var)
{
    mpishmem_space_counts.windows += windows_of(sp);
    sp->heap = &sp->own_heap;
    sp->heap->size_var = size_var;
    MPI_Comm team_comm;
    mpishmem_comm_dup(comm, &team_comm);
    sp->team = mpishmem_team_from_comm(team_comm, &sp->anchor, NULL, 0);
    if (sp->team == NULL)
        mpishmem_fatal("shmem_space_create", "out of memory for the team of the %s", sp->name);
    sp->team->predefined = predefined;
    sp->team->owner = sp;
    sp->team->on_release = forget_team;
    sp->caps = mpishmem_space_caps(sp);
    mpishmem_space_link(sp);
}

int mpishmem_space_build(shmem_device_type_t device, size_t size, int member,
                         int predefined, const char *size_var, mpishmem_space_t **out,
                         char *why, size_t why_len)
{
    static int serial; /* the same on every PE: every PE takes part in every build */
    serial++;
    *out = NULL;
    mpishmem_space_t *sp = member ? calloc(1, sizeof *sp) : NULL;
    int everyone = 0;
    if (check_can_build(device, size, member, sp, &everyone, why, why_len) != 0)
        return -1;

    /* Device memory may be reached through its owner's agent, a kind of
     * request (mpi_backend/progress/request_service.h); the service starts here,
     * collective over the world, once. */
    if (device == SHMEM_DEVICE_GPU)
        mpishmem_requests_start(mpishmem_rt.world);

    /* With every PE a member the communicators are copies of the world's
     * and the node's: duplicated with polling, where MPI_Comm_split and
     * MPI_Comm_split_type spin (MPICH: 120 ms for the latter at 4 PEs on
     * 2 cores). */
    MPI_Comm comm = MPI_COMM_NULL;
    if (everyone) {
        mpishmem_comm_dup(mpishmem_rt.world, &comm);
    } else {
        mpishmem_meet_before_blocking(mpishmem_rt.world);
        MPISHMEM_MPI(MPI_Comm_split(mpishmem_rt.world, member ? 0 : MPI_UNDEFINED,
                                    mpishmem_rt.my_pe, &comm));
    }
    int rc = member ? make_memory(sp, device, size, comm, everyone, predefined, serial)
                    : MPI_SUCCESS;
    int good = rc == MPI_SUCCESS, all_good = 0;
    mpishmem_allreduce(&good, &all_good, 1, MPI_INT, MPI_LAND, mpishmem_rt.world);
    if (!all_good) {
        if (member) {
            if (rc == MPI_SUCCESS)
                mpishmem_heap_destroy(&sp->own_heap);
            free_comms(sp);
            free(sp);
        }
        snprintf(why, why_len, "the %s memory (%zu bytes per PE) or its MPI windows could not "
                 "be made on every member", device_name(device), size);
        return -1;
    }
    /* From now on a PE may wait for another's agent: every PE (member or
     * not, for good) keeps its collectives out of blocking MPI calls, so
     * PEs always choose alike (mpi_backend/gpu/gpu_path.h). */
    if (device == SHMEM_DEVICE_GPU)
        mpishmem_serve_turn_on(MPISHMEM_SERVE_GPU);
    if (!member)
        return 0;
    finish(sp, comm, predefined, size_var);
    *out = sp;
    return 0;
}

void mpishmem_space_release(mpishmem_space_t *sp)
{
    mpishmem_space_unlink(sp);
    if (sp->heap == &sp->own_heap) {
        /* Nothing may still be in flight to or from this memory. */
        mpishmem_heap_coll_barrier(sp->heap);
        mpishmem_heap_destroy(&sp->own_heap);
        mpishmem_space_counts.windows -= windows_of(sp);
    }
    free_comms(sp);
    free(sp);
}

/* ---- shmem_space_create / shmem_space_destroy ----------------------------- */

/* Every PE must pass the same configuration: stop with a message rather
 * than let PEs disagree about which collective comes next. */
static void agree_config(const char *routine, const shmem_space_config_t *c)
{
    uint64_t mine[4] = {c != NULL, c ? (uint64_t)c->device_type : 0, c ? c->size : 0,
                        c ? (uint64_t)(unsigned)c->flags : 0};
    uint64_t v[8], r[8];
    for (int i = 0; i < 4; i++) {
        v[i] = mine[i];
        v[4 + i] = ~mine[i];
    }
    mpishmem_allreduce(v, r, 8, MPI_UINT64_T, MPI_MIN, mpishmem_rt.world);
    static const char *const what[4] = {"config (NULL on some PEs)", "config->device_type",
                                        "config->size", "config->flags"};
    for (int i = 0; i < 4; i++)
        if (r[i] != ~r[4 + i])
            mpishmem_fatal(routine, "every PE must pass the same configuration, but %s "
                           "differs between PEs", what[i]);
}

int shmem_space_create(const shmem_space_config_t *config, shmem_space_t *space,
                       shmem_team_t *team)
{
    static const char routine[] = "shmem_space_create";
    mpishmem_check_running(routine);
    if (space)
        *space = SHMEM_SPACE_INVALID;
    if (team)
        *team = SHMEM_TEAM_INVALID;
    agree_config(routine, config);
    const char *bad = config == NULL ? "config is NULL"
                      : space == NULL || team == NULL ? "space or team is NULL"
                      : (unsigned)config->device_type > SHMEM_DEVICE_FPGA
                          ? "the device type is not SHMEM_DEVICE_CPU, _GPU or _FPGA"
                      : config->size == 0 ? "the size is 0 (a space needs memory)"
                      : config->flags != SHMEM_SPACE_FLAG_DEFAULT
                          ? "flags has bits other than SHMEM_SPACE_FLAG_DEFAULT"
                          : NULL;
    /* space/team NULL on only some PEs would split the outcome: agree. */
    int ok = bad == NULL, all_ok = 0;
    mpishmem_allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, mpishmem_rt.world);
    char why[256];
    int rc = -1;
    mpishmem_space_t *sp = NULL;
    if (!all_ok) {
        snprintf(why, sizeof why, "%s", bad ? bad : "an argument is NULL on another PE");
    } else {
        int member = mpishmem_device_reachable(config->device_type);
        rc = mpishmem_space_build(config->device_type, config->size, member, 0,
                                  "shmem_space_config_t.size", &sp, why, sizeof why);
    }
    if (rc != 0) {
        if (MPISHMEM_DEBUG_ON && mpishmem_rt.my_pe == 0)
            fprintf(stderr, "mpishmem: %s: warning: no space created: %s\n", mpishmem_api_name(routine), why);
        return rc;
    }
    if (sp) {
        *space = sp;
        *team = sp->team;
    }
    return 0;
}

int shmem_space_destroy(shmem_space_t space)
{
    static const char routine[] = "shmem_space_destroy";
    mpishmem_check_running(routine);
    if (space == SHMEM_SPACE_INVALID)
        return 0; /* no operation, as on PEs outside the space */
    if (MPISHMEM_DEBUG_ON)
        mpishmem_check_space(routine, space);
    mpishmem_space_t *sp = space;
    if (sp->predefined) {
        if (MPISHMEM_DEBUG_ON)
            fprintf(stderr, "mpishmem: %s: warning: the %s is predefined and lives until "
                    "shmem_finalize (PE %d)\n", mpishmem_api_name(routine), sp->name, mpishmem_rt.my_pe);
        return -1;
    }
    /* A team made from the space team may live on only some members. */
    int busy = sp->anchor.n_children, any_busy = 0;
    mpishmem_allreduce(&busy, &any_busy, 1, MPI_INT, MPI_MAX, sp->comm);
    if (any_busy)
        return 1;
    if (MPISHMEM_DEBUG_ON) {
        mpishmem_allocator_stats_t st;
        mpishmem_allocator_stats(sp->heap->alloc, &st);
        if (st.live_blocks > 0)
            mpishmem_fatal(routine, "%zu block(s) are still allocated from the %s: free them "
                           "with shmem_space_free first", st.live_blocks, sp->name);
    }
    mpishmem_space_release(sp);
    return 0;
}
