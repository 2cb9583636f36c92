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

/* Cores the PEs of `node` (one node's communicator) may run on: the union
 * of their CPU affinity masks, capped by the cgroup CPU quota.  The same
 * on every PE of the node.  Collective over node. */
int mpishmem_node_cores(MPI_Comm node);

#endif
