/*
 * mpishmem: is the MPI the program runs on the one this library was
 * compiled against?  A library built with MPICH's mpi.h and a program
 * linked with Open MPI (or the reverse) link silently, then crash inside
 * the first MPI call that takes a handle: the two ABIs share no handle
 * or constant.  docs/tools.md says which MPIs count as the same.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_MPI_FAMILY_H
#define MPISHMEM_MPI_FAMILY_H

/* Stops the program (stderr message naming both MPIs, exit status 1,
 * no further MPI call) when the running MPI is of the other family.
 * Uses no MPI handle, so it is safe before MPI_Init and on a wrong ABI.
 * An MPI of neither family passes (a warning under SHMEM_DEBUG). */
void mpishmem_check_mpi_family(const char *routine);

/* The family a version string (MPI_Get_library_version's) belongs to:
 * 'o' Open MPI, 'm' the MPICH ABI (MPICH, Intel MPI, MVAPICH, Cray
 * MPICH), 0 neither. */
int mpishmem_mpi_family_of(const char *version);

#endif
