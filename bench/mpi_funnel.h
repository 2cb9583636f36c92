/* mpi_funnel.c: every MPI call of mpi_routes through one lock, beside a
 * thread that probes under it every 1 ms.  SPDX-License-Identifier: BSD-3-Clause */
#ifndef MPI_FUNNEL_H
#define MPI_FUNNEL_H
void mpi_funnel_start(void);
void mpi_funnel_stop(void);
#endif
