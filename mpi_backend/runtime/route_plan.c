/*
 * mpishmem: the plan of routes (route_plan.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <stdio.h>
#include "route_plan.h"
#include "gpu_path.h"
#include "mpi_family.h"
#include "runtime.h"
#include "segment.h"

mpishmem_plan_t mpishmem_plan;

void mpishmem_plan_mpi(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    if (MPI_Get_library_version(version, &len) != MPI_SUCCESS)
        version[0] = '\0';
    mpishmem_plan.mpi_family = mpishmem_mpi_family_of(version);
    /* Only the MPICH family is known to serve on-node RMA by messages the
     * target must receive; an MPI of neither family is taken as one that
     * does not (its waits then stay inside MPI, which is correct either
     * way, only slower where the guess is wrong). */
    mpishmem_plan.rma_needs_target = mpishmem_plan.mpi_family == 'm';
}

void mpishmem_plan_publish(void)
{
    mpishmem_plan_t *p = &mpishmem_plan;
    /* auto and shm: dissemination on flags (4 PEs on 2 cores, Open MPI:
     * 1.5-1.6 us against 5.1-5.8 us for its own barrier,
     * docs/collectives.md); no flags without load/store.  Where waits
     * sleep on the flags (yield, sched_apart), the central one: a waiter
     * sleeps once per barrier, not once per round (4 PEs on 2 cores,
     * MPICH, docs/performance-waiting.md). */
    int central = p->barrier == MPISHMEM_BARRIER_CENTRAL ||
                  (p->barrier != MPISHMEM_BARRIER_DISSEMINATION && p->yield && p->sched_apart);
    if (!p->shm || p->barrier == MPISHMEM_BARRIER_MPI)
        p->barrier = MPISHMEM_BARRIER_MPI;
    else
        p->barrier = central ? MPISHMEM_BARRIER_CENTRAL : MPISHMEM_BARRIER_DISSEMINATION;
    p->wait_by_request = p->yield && p->rma_needs_target;
    mpishmem_rt.shm_enabled = p->shm;
    mpishmem_rt.yield = p->yield;
    mpishmem_rt.wait_by_request = p->wait_by_request;
    mpishmem_rt.ctx_lanes = p->ctx_lanes;
}

const char *mpishmem_barrier_name(int barrier)
{
    static const char *const names[] = {"auto", "shm", "mpi", "shm-central",
                                        "shm-dissemination"};
    return barrier >= 0 && barrier < 5 ? names[barrier] : "?";
}

/* Why a segment that asked for MPI's memory has its own: " (why)". */
static const char *memory_why(const mpishmem_segment_t *s)
{
    static char text[160];
    snprintf(text, sizeof text, " (%s)", s->mpi_memory_why);
    return text;
}

static void segment_line(FILE *out, const mpishmem_segment_t *s)
{
    int direct = s->peer_span > 0 || s->peer_sparse;
    fprintf(out,
            "mpishmem: plan: segment '%s': rma = %s, amo = %s, gpu = %s, lanes = %d, "
            "memory = %s%s\n",
            s->name ? s->name : "?", direct ? "load/store on node, MPI RMA beyond" : "MPI RMA",
            s->no_amo       ? "none"
            : s->amo_cpu    ? "CPU atomics"
            : s->amo_am > 0 ? "requests to the owner"
                            : "MPI atomics",
            s->gpu == NULL ? "host memory" : s->gpu->aware ? "MPI (GPU-aware)" : "agents",
            s->n_lanes, s->mpi_memory ? "MPI's (MPI_Win_allocate)" : "ours",
            !s->mpi_memory && s->mpi_memory_why ? memory_why(s) : "");
}

void mpishmem_plan_print(FILE *out)
{
    const mpishmem_plan_t *p = &mpishmem_plan;
    fprintf(out,
            "mpishmem: plan: mpi_family = %s\n"
            "mpishmem: plan: rma_needs_target = %d\n"
            "mpishmem: plan: shm = %d\n"
            "mpishmem: plan: waiting = %s\n"
            "mpishmem: plan: wait_by_request = %d\n"
            "mpishmem: plan: sched_apart = %d\n"
            "mpishmem: plan: ctx_lanes = %d\n"
            "mpishmem: plan: progress_thread = %d\n"
            "mpishmem: plan: amo_am = %d\n"
            "mpishmem: plan: win_allocate = %d\n"
            "mpishmem: plan: barrier = %s\n",
            p->mpi_family == 'm' ? "mpich" : p->mpi_family == 'o' ? "openmpi" : "other",
            p->rma_needs_target, p->shm, p->yield ? "yield" : "spin", p->wait_by_request,
            p->sched_apart, p->ctx_lanes, p->progress_thread, p->amo_am, p->win_allocate, mpishmem_barrier_name(p->barrier));
    for (int i = 0; i < mpishmem_segments.count; i++)
        segment_line(out, mpishmem_segments.sorted[i]);
}
