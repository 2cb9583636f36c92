/*
 * mpishmem test: which MPI workarounds the library applied on this MPI
 * (docs/mpi-quirks.md).  quirks_applied.sh compares the list with what
 * quirk_probe finds in the same MPI.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>

#include "../../mpi_backend/runtime/quirks.h"

/* The collectives' choice for unsigned max and min (lib/coll/coll.h). */
MPI_Op mpishmem_coll_minmax_op(const char *routine, MPI_Op op, MPI_Datatype dt);

int main(void)
{
    shmem_init();
    MPI_Datatype dts[4] = {MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T};
    int own_minmax = 0;
    for (int t = 0; t < 4; t++) {
        own_minmax |= mpishmem_coll_minmax_op("quirks_applied", MPI_MAX, dts[t]) != MPI_MAX;
        own_minmax |= mpishmem_coll_minmax_op("quirks_applied", MPI_MIN, dts[t]) != MPI_MIN;
    }
    unsigned mask = mpishmem_quirks_mask();
    if (shmem_my_pe() == 0) {
        char v[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(v, &len);
        for (int i = 0; v[i]; i++)
            if (v[i] == '\n' || v[i] == ',') {
                v[i] = '\0';
                break;
            }
        printf("mpi: %s\n", v);
        printf("applied rcache: %s\n", mask & MPISHMEM_QUIRK_UCX_RCACHE_OFF ? "yes" : "no");
        printf("applied cas_self: %s\n", mask & MPISHMEM_QUIRK_OMPI_OSC_UCX ? "yes" : "no");
        printf("applied minmax: %s\n", own_minmax ? "yes" : "no");
        printf("applied bitwise: %s\n", mask & MPISHMEM_QUIRK_BITWISE_BY_CAS ? "yes" : "no");
    }
    shmem_finalize();
    return 0;
}
