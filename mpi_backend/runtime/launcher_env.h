/*
 * mpishmem: what the launcher tells a process about its node, read before
 * MPI starts (the thread level, the first guess at waiting, whether the
 * job is on one node).  docs/environment.md lists the variables.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_LAUNCHER_ENV_H
#define MPISHMEM_LAUNCHER_ENV_H

/* How many processes of the job the launcher placed on this node; 0 when
 * unknown.  An MPI launcher's own variables first (MPICH's
 * MPI_LOCALNRANKS, Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE, PMI_LOCAL_SIZE);
 * then Slurm's, only inside a step (SLURM_STEP_ID set): an mpiexec in an
 * sbatch script inherits the allocation's SLURM_*, which do not describe
 * the job mpiexec starts. */
int mpishmem_launcher_local_size(void);

/* How many processes the job has, as the launcher tells (Hydra's and PMI
 * launchers' PMI_SIZE, Open MPI's OMPI_COMM_WORLD_SIZE); 0 when unknown. */
int mpishmem_launcher_world_size(void);

/* Whether the launcher placed the job on more than one node (its counts
 * say so); 0 when they do not, or are unknown. */
int mpishmem_launcher_spans_nodes(void);

/* Entry `node` (0-based) of a Slurm tasks-per-node list such as
 * "2(x3),1" (nodes 0-2 run 2 tasks, node 3 runs 1); 0 when the list is
 * malformed or has no such entry. */
int mpishmem_slurm_tasks_on_node(const char *list, long node);

#endif
