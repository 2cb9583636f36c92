/*
 * mpishmem: working around known defects of the MPI libraries we run on.
 *
 * Open MPI 4.x: osc/rdma over btl/vader (its default one-node RMA) crashes
 * on a 64-bit MPI_Compare_and_swap aimed at the calling process (a null
 * endpoint in the emulated atomic path; bench/mpi_routes with
 * ROUTES_SELF_CAS=1 shows it).  OpenSHMEM does compare-and-swap on its own
 * memory all the time (locks, CAS loops), so when the library itself starts
 * MPI and the user chose no RMA components, it asks for osc/ucx (RMA
 * windows) and osc/sm (shared windows) just before MPI_Init_thread.
 *
 * The choice is not made at program load any more: a program that calls
 * MPI_Init itself keeps its own MPI configuration, whatever it links
 * (issue 14).  Open MPI selects the component per window only by priority,
 * and its priorities cannot be changed once MPI runs (MPI_T refuses the
 * write), so the choice cannot be narrowed to the library's windows alone;
 * docs/performance.md ("Interop") says what remains.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <stdlib.h>

#include "quirks.h"

static const char *applied;

void mpishmem_quirks_before_mpi_init(void)
{
#if defined(OPEN_MPI) && defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
    if (getenv("OMPI_MCA_osc") == NULL) {
        setenv("OMPI_MCA_osc", "ucx,sm", 0);
        applied = "OMPI_MCA_osc=ucx,sm set by shmem_init before it started MPI (Open MPI 4 "
                  "osc/rdma fails 64-bit compare-and-swap on the calling process)";
    }
#endif
}

const char *mpishmem_quirks_applied(void)
{
    return applied;
}
