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
#include "env_read.h"

static const char *applied;

void mpishmem_quirks_before_mpi_init(void)
{
#if defined(OPEN_MPI) && defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
    if (mpishmem_env("OMPI_MCA_osc") == NULL) {
        setenv("OMPI_MCA_osc", "ucx,sm", 0);
        applied = "OMPI_MCA_osc=ucx,sm set by shmem_init before it started MPI (Open MPI 4 "
                  "osc/rdma fails 64-bit compare-and-swap on the calling process)";
    }
#endif
}

/* Debian's Open MPI 4 leaves only osc/rdma for windows over existing
 * memory, and osc/rdma refuses them in a 1-process job (no transport
 * reaches the process itself): MPI_Win_create fails with MPI_ERR_WIN, the
 * program's own windows as much as ours.  We leave a program's MPI set-up
 * alone, so we say how to change it. */
const char *mpishmem_quirks_window_advice(int we_started_mpi)
{
#if defined(OPEN_MPI) && defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
    if (!we_started_mpi && mpishmem_env("OMPI_MCA_osc") == NULL)
        return "; the program started MPI itself with Open MPI 4's default one-sided "
               "component (osc/rdma), which cannot make windows here: run it with "
               "OMPI_MCA_osc=ucx,sm in the environment (or mpiexec --mca osc ucx,sm), "
               "or let shmem_init start MPI (docs/performance.md, Interop)";
#else
    (void)we_started_mpi;
#endif
    return "";
}

const char *mpishmem_quirks_applied(void)
{
    return applied;
}
