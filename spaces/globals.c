/*
 * mpishmem: the program's global and static variables as a symmetric segment.
 *
 * Every PE runs the same executable, so a global lies at the same offset
 * from the start of the data segment on every PE even when address-space
 * randomization moves the segment.  exe_data.c finds it in the program
 * headers (the linker's _end would be the shared library's own).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include "heap.h"
#include "../mpi_backend/window.h"

int mpishmem_exe_data_range(uintptr_t *lo, uintptr_t *hi); /* exe_data.c */

mpishmem_segment_t mpishmem_globals_segment = {.win = MPI_WIN_NULL, .shm_win = MPI_WIN_NULL};

int mpishmem_globals_create(void)
{
    uintptr_t lo, hi;
    if (mpishmem_exe_data_range(&lo, &hi) != 0)
        return MPI_ERR_OTHER;
    int rc = mpishmem_window_create_static(&mpishmem_globals_segment, "global data",
                                           (void *)lo, (size_t)(hi - lo));
    if (rc != MPI_SUCCESS)
        return rc;
    if (mpishmem_segment_register(&mpishmem_globals_segment) != 0) {
        mpishmem_window_destroy(&mpishmem_globals_segment);
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

void mpishmem_globals_destroy(void)
{
    if (mpishmem_globals_segment.win == MPI_WIN_NULL)
        return;
    mpishmem_segment_unregister(&mpishmem_globals_segment);
    mpishmem_window_destroy(&mpishmem_globals_segment);
}
