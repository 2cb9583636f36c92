/*
 * mpishmem: workarounds for defects of the MPI libraries (quirks.c).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_QUIRKS_H
#define MPISHMEM_QUIRKS_H

/* shmem_init calls this right before it starts MPI itself (never when the
 * program started MPI). */
void mpishmem_quirks_before_mpi_init(void);

/* shmem_init calls this once MPI runs (and the world is known): where the
 * program started MPI with a defect we could not avoid, PE 0 warns. */
void mpishmem_quirks_after_mpi_init(int we_started_mpi, int my_pe);

/* Advice to append to a failed window creation when the likely cause is
 * an MPI configuration the program chose (it started MPI itself), or "". */
const char *mpishmem_quirks_window_advice(int we_started_mpi);

/* A description of the workaround applied, or NULL. */
const char *mpishmem_quirks_applied(void);

/* Which of these shmem_init applied (docs/mpi-quirks.md; test/quirks). */
enum {
    MPISHMEM_QUIRK_UCX_RCACHE_OFF = 1, /* UCX_RCACHE_ENABLE=n: MPICH < 4.1 on UCX */
    MPISHMEM_QUIRK_OMPI_OSC_UCX = 2,   /* OMPI_MCA_osc=ucx,sm: Open MPI 4 */
    MPISHMEM_QUIRK_BITWISE_BY_CAS = 4  /* bitwise AMOs via MPI CAS: Open MPI 5 */
};
unsigned mpishmem_quirks_mask(void);

/* Bitwise AMOs (and, or, xor) through MPI take a compare-and-swap loop
 * instead of MPI_BAND/BOR/BXOR accumulates (amo_mpi.c). */
extern int mpishmem_quirk_bitwise_by_cas;

/* Closing a segment's windows waits for every member, then polls MPI until
 * every fragment other PEs owe this one is back (lane_close.c): Open MPI 5
 * and later. */
extern int mpishmem_quirk_settle_window_free;

#endif
