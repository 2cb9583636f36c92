/*
 * mpishmem: the plan of routes.  Every choice of how the library moves
 * data and waits is made once, in shmem_init (global ones, here) or when a
 * segment is made (its RMA, AMO and GPU routes, in its segment record) or
 * a team is made (its barrier and collective routes, in its team record:
 * teams/team_plan.h), from run-time facts: the settings, the MPI that
 * runs, the node.  Nothing on a data path chooses again; SHMEM_INFO=1 and
 * mpishmem-info print the plan (mpishmem_plan_print, then
 * mpishmem_teams_plan_print).
 *
 * The hot paths read four choices through mpishmem_rt (shm_enabled, yield,
 * wait_by_request, ctx_lanes): copies set from this record by
 * mpishmem_plan_publish, so they never differ from it.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_ROUTE_PLAN_H
#define MPISHMEM_ROUTE_PLAN_H

#include <stdio.h>

/* MPISHMEM_BARRIER, as the words of its row in env_table.c. */
enum mpishmem_barrier_setting {
    MPISHMEM_BARRIER_AUTO,
    MPISHMEM_BARRIER_SHM,
    MPISHMEM_BARRIER_MPI,
    MPISHMEM_BARRIER_CENTRAL,
    MPISHMEM_BARRIER_DISSEMINATION,
};

typedef struct mpishmem_plan {
    int mpi_family;       /* 'm' MPICH ABI, 'o' Open MPI, 0 other (from MPI's version) */
    /* RMA between processes of one node completes only while the target
     * is inside MPI (MPICH's ch4 serves MPI_Win_create windows by active
     * messages; Open MPI's osc/ucx does not need it).  From mpi_family. */
    int rma_needs_target;
    int shm;              /* load/store to PEs of this node (MPISHMEM_SHM) */
    int yield;            /* waiting: 1 yield the core, 0 spin */
    int wait_by_request;  /* yield and rma_needs_target: waits poll requests */
    /* Some PEs of this node are in other scheduling groups (sessions'
     * autogroups, CPU cgroups), where sched_yield cannot hand them the
     * core: yielding waits on node flags sleep when yields are void. */
    int sched_apart;
    int ctx_lanes;        /* extra windows per segment for contexts */
    int progress_thread;  /* a thread drives MPI progress (running) */
    int amo_am;           /* AMOs through MPI are requests the owner applies */
    /* Segments only MPI reaches (not node-mapped) have window memory MPI
     * allocates, mapped at their own address too (mem_alias.h): Open MPI
     * then maps it into the node's processes and serves atomics with no
     * help from the target; on memory of ours, osc/ucx emulates them by
     * messages the target must receive.  Segments that cannot say why. */
    int win_allocate;
    /* Team barriers and small collectives: MPISHMEM_BARRIER_MPI, or the
     * flags algorithm (_CENTRAL, _DISSEMINATION) that a team whose members
     * all share one node uses (others use MPI's); each team's own choice is
     * in its plan record (teams/team_plan.h). */
    int barrier;
} mpishmem_plan_t;

extern mpishmem_plan_t mpishmem_plan;

/* The MPI family and rma_needs_target, from the running MPI's version
 * (needs no MPI handle; before or after MPI_Init). */
void mpishmem_plan_mpi(void);

/* Copy the choices the hot paths read into mpishmem_rt. */
void mpishmem_plan_publish(void);

/* "auto", "shm", "mpi", "shm-central", "shm-dissemination". */
const char *mpishmem_barrier_name(int barrier);

/* The plan, one "mpishmem: plan: field = value" line each, then a line per
 * segment with its routes. */
void mpishmem_plan_print(FILE *out);

#endif
