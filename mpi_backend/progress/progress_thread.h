/*
 * mpishmem: a thread that keeps MPI progressing while the program computes.
 *
 * Both MPIs here complete RMA aimed at a PE only while that PE is inside
 * MPI, so a PE that computes stalls its peers' blocking gets and fetching
 * AMOs on its memory.  The thread polls MPI (MPI_Test of a receive nothing matches, on a private
 * communicator, then a short sleep) so they complete.  It touches MPI
 * only, never library state, and needs MPI_THREAD_MULTIPLE.
 * docs/progress.md has when it runs and what it costs.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_PROGRESS_THREAD_H
#define MPISHMEM_PROGRESS_THREAD_H

#include <mpi.h>

/* Before MPI starts: a guess, from this process's CPUs and the launcher's
 * count of processes on this node, of whether the node has a spare core
 * for each PE's thread (so shmem_init asks MPI for MPI_THREAD_MULTIPLE
 * when the setting is unset).  0 when the launcher does not say. */
int mpishmem_progress_thread_may_fit(void);

/* How the thread runs: with a core to spare for it, it naps 20 us while
 * its PE stays out of MPI (and 1 ms while the PE drives MPI itself);
 * sharing its PE's core, it naps SLEEPING_NAP_NS (progress_thread.c)
 * whatever the PE does, so it costs a computing PE little. */
enum mpishmem_progress_mode {
    MPISHMEM_PROGRESS_OFF = 0,
    MPISHMEM_PROGRESS_SPARE_CORE = 1,
    MPISHMEM_PROGRESS_SLEEPING = 2,
};

/* Collective over `world`: start the thread on the PEs that pass want=1
 * (MPI must provide MPI_THREAD_MULTIPLE there), in the mode spare_core
 * says.  Returns 0, or an errno value when no thread could be made. */
int mpishmem_progress_thread_start(MPI_Comm world, int want, int spare_core);

/* Stop and join the thread if it runs; harmless otherwise. */
void mpishmem_progress_thread_stop(void);

/* The thread's mode: MPISHMEM_PROGRESS_OFF when it does not run. */
int mpishmem_progress_thread_running(void);

#endif
