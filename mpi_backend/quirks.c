/*
 * mpishmem: working around known defects of the MPI libraries we run on.
 *
 * Open MPI 4.x: osc/rdma over btl/vader (its default one-node RMA) crashes
 * on a 64-bit MPI_Compare_and_swap aimed at the calling process (a null
 * endpoint in the emulated atomic path).  OpenSHMEM does compare-and-swap on
 * its own memory all the time (locks, CAS loops), so unless the user chose
 * the RMA components, we ask for osc/ucx (RMA windows) and osc/sm (shared
 * windows) before MPI starts.  This runs at program load, ahead of any
 * MPI_Init, and leaves an explicit OMPI_MCA_osc untouched.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <stdlib.h>

#include "quirks.h"

static const char *applied;

#if defined(OPEN_MPI) && defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
__attribute__((constructor)) static void mpishmem_openmpi_osc_choice(void)
{
    if (getenv("OMPI_MCA_osc") == NULL) {
        setenv("OMPI_MCA_osc", "ucx,sm", 0);
        applied = "OMPI_MCA_osc=ucx,sm (Open MPI 4 osc/rdma fails 64-bit compare-and-swap "
                  "on the calling process)";
    }
}
#endif

/* Called from shmem_init, which also keeps this object, and so the
 * constructor, in every statically linked program. */
const char *mpishmem_quirks_applied(void)
{
    return applied;
}
