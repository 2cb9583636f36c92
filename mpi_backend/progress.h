/*
 * mpishmem: keeping MPI progressing while a PE waits.
 *
 * A PE blocked in wait_until or a barrier must still serve RMA aimed at it
 * (some MPI transports need the target to poll).  With a core of its own it
 * spins, polling MPI, and never yields; when PEs outnumber cores
 * (mpishmem_rt.yield, decided once at shmem_init) it polls MPI and gives
 * its core to the PE it is waiting for.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_PROGRESS_H
#define MPISHMEM_PROGRESS_H

#include <mpi.h>

/* One step of a polling loop; *spins counts the steps of this wait. */
void mpishmem_progress_step(unsigned *spins);

/* Blocking collectives built on their non-blocking forms, so the wait polls
 * with mpishmem_progress_step instead of spinning inside MPI. */
void mpishmem_wait_request(MPI_Request *req);
void mpishmem_barrier_comm(MPI_Comm comm);
/* The set-up collectives (shmem_init, team and space creation): MPICH spins
 * inside its blocking collectives, so when PEs outnumber cores each one
 * waits for the scheduler to run the PEs it needs (8 PEs on 2 cores:
 * MPI_Allreduce 43 ms, MPI_Comm_dup 69 ms; polled and yielding: 5 ms and
 * 17 ms).  Same arguments and return codes as the MPI calls. */
int mpishmem_allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm);
int mpishmem_allgather(const void *in, int in_count, MPI_Datatype in_type, void *out,
                       int out_count, MPI_Datatype out_type, MPI_Comm comm);
int mpishmem_comm_dup(MPI_Comm comm, MPI_Comm *dup);

/* Whether the launcher placed more processes on this node than this
 * process may use cores (MPICH's MPI_LOCALNRANKS, Open MPI's
 * OMPI_COMM_WORLD_LOCAL_SIZE against the affinity mask): a first guess for
 * the waits of shmem_init, before the node is known.  0 when unknown. */
int mpishmem_launcher_oversubscribed(void);

/* Cores the PEs of `node` (one node's communicator) may run on: the union
 * of their CPU affinity masks, capped by the cgroup CPU quota.  The same
 * on every PE of the node.  Collective over node. */
int mpishmem_node_cores(MPI_Comm node);

#endif
