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
 * docs/mpi-quirks.md lists each workaround, its evidence, its gate and the
 * MPIs it applies to (test/quirks checks them against probes).
 *
 * MPICH before 4.1 on UCX (Debian's 4.0.2 with UCX 1.13): MPI_Win_create
 * registers the memory with ucp_mem_map and takes the window's base from
 * the registration UCX returns.  With UCX's registration cache, memory
 * inside an already registered range gets that range's registration, so
 * the window's base is the start of the older range and every put and get
 * lands there instead (fixed upstream by pmodels/mpich#6140).  Our globals
 * window spans the program's whole data segment and our heap window the
 * whole heap, so after shmem_init a program's own MPI window over a global
 * or over symmetric memory writes to the wrong place (a GOT entry, once).
 * When the library starts such an MPI it turns UCX's cache off
 * (UCX_RCACHE_ENABLE=n, unless the user set it); when the program started
 * MPI, shmem_init tests for the defect and warns.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quirks.h"
#include "env_read.h"
#include "error.h"

static const char *applied;

static unsigned applied_mask;

int mpishmem_quirk_bitwise_by_cas;
int mpishmem_quirk_settle_window_free;

/* The MPI library's family and version at run time, from its version
 * string (a query allowed before MPI_Init; the MPI may be newer than the
 * headers we were built with).  0 when not of that family. */
static int mpi_version_of(const char *marker, int *major, int *minor, int *has_ucx)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(v, &len); /* unchecked: a query, allowed before MPI_Init */
    const char *ver = strstr(v, marker);
    *has_ucx = strstr(v, "ch4:ucx") != NULL;
    return ver != NULL && sscanf(ver + strlen(marker), " %d.%d", major, minor) == 2;
}

/* MPICH 4.0.x and older on the ch4:ucx device (fixed in 4.1). */
static int mpich_ucx_window_base_defect_possible(void)
{
    int major, minor, ucx;
    return mpi_version_of("MPICH Version:", &major, &minor, &ucx) && ucx &&
           (major < 4 || (major == 4 && minor < 1));
}

/* Open MPI 4.x and older: osc/rdma, its default one-sided component for
 * windows over existing memory, fails compare-and-swap on the calling
 * process and windows over one process. */
static int open_mpi_4_osc_rdma(void)
{
    int major, minor, ucx;
    return mpi_version_of("Open MPI v", &major, &minor, &ucx) && major <= 4;
}

void mpishmem_quirks_before_mpi_init(void)
{
    if (mpich_ucx_window_base_defect_possible() && mpishmem_env("UCX_RCACHE_ENABLE") == NULL) {
        setenv("UCX_RCACHE_ENABLE", "n", 0);
        applied_mask |= MPISHMEM_QUIRK_UCX_RCACHE_OFF;
        applied = "UCX_RCACHE_ENABLE=n set by shmem_init before it started MPI (MPICH < 4.1 on "
                  "UCX gives a window inside registered memory a wrong base: pmodels/mpich#6140)";
    }
    if (open_mpi_4_osc_rdma() && mpishmem_env("OMPI_MCA_osc") == NULL) {
        setenv("OMPI_MCA_osc", "ucx,sm", 0);
        applied_mask |= MPISHMEM_QUIRK_OMPI_OSC_UCX;
        applied = "OMPI_MCA_osc=ucx,sm set by shmem_init before it started MPI (Open MPI 4 "
                  "osc/rdma fails 64-bit compare-and-swap on the calling process)";
    }
}

/* Debian's Open MPI 4 leaves only osc/rdma for windows over existing
 * memory, and osc/rdma refuses them in a 1-process job (no transport
 * reaches the process itself): MPI_Win_create fails with MPI_ERR_WIN, the
 * program's own windows as much as ours.  We leave a program's MPI set-up
 * alone, so we say how to change it. */
const char *mpishmem_quirks_window_advice(int we_started_mpi)
{
    if (!we_started_mpi && open_mpi_4_osc_rdma() &&
        mpishmem_env("OMPI_MCA_osc") == NULL)
        return "; the program started MPI itself with Open MPI 4's default one-sided "
               "component (osc/rdma), which cannot make windows here: run it with "
               "OMPI_MCA_osc=ucx,sm in the environment (or mpiexec --mca osc ucx,sm), "
               "or let shmem_init start MPI (docs/performance.md, Interop)";
    return "";
}

/* Two windows on MPI_COMM_SELF, the second inside the first: does the
 * second report the base it was given? */
static int window_base_defect_present(void)
{
    static char probe[2 * 4096] __attribute__((aligned(4096)));
    MPI_Win outer, inner;
    void *base = NULL;
    int flag = 0;
    MPISHMEM_MPI(MPI_Win_create(probe, sizeof probe, 1, MPI_INFO_NULL, MPI_COMM_SELF, &outer));
    MPISHMEM_MPI(MPI_Win_create(probe + 4096 + 64, 64, 1, MPI_INFO_NULL, MPI_COMM_SELF, &inner));
    MPISHMEM_MPI(MPI_Win_get_attr(inner, MPI_WIN_BASE, &base, &flag));
    MPISHMEM_MPI(MPI_Win_free(&inner));
    MPISHMEM_MPI(MPI_Win_free(&outer));
    return flag && base != (void *)(probe + 4096 + 64);
}

/* Open MPI 5.0's osc/rdma (its component for windows over existing memory
 * when UCX finds no network device) keeps only one process's bits when
 * processes apply MPI_BOR to one word at once (MPI_Fetch_and_op and
 * MPI_Accumulate; MPI_SUM and compare-and-swap are right; probe acc_bor in
 * test/quirks).  Windows over existing memory are all we make, whoever
 * started MPI, so the gate is the version alone. */
static int open_mpi_5_bitwise_lost(void)
{
    int major, minor, ucx;
    return mpi_version_of("Open MPI v", &major, &minor, &ucx) && major == 5;
}

/* Open MPI 5's osc/rdma frees its active-message state with the window
 * while fragments of answered operations are still to come back to their
 * origins (lane_close.c); versions before 5 have no such emulation. */
static int open_mpi_late_fragments(void)
{
    int major, minor, ucx;
    return mpi_version_of("Open MPI v", &major, &minor, &ucx) && major >= 5;
}

void mpishmem_quirks_after_mpi_init(int we_started_mpi, int my_pe)
{
    mpishmem_quirk_settle_window_free = open_mpi_late_fragments();
    if (open_mpi_5_bitwise_lost()) {
        mpishmem_quirk_bitwise_by_cas = 1;
        applied_mask |= MPISHMEM_QUIRK_BITWISE_BY_CAS;
    }
    if (we_started_mpi || !mpich_ucx_window_base_defect_possible() ||
        !window_base_defect_present() || my_pe != 0)
        return;
    fprintf(stderr, "mpishmem: warning: this MPICH (before 4.1, on UCX) gives an MPI window "
                    "created inside already registered memory the wrong base "
                    "(pmodels/mpich#6140): the program's own MPI_Win_create over global data "
                    "or symmetric memory would read and write the wrong addresses.  The "
                    "program started MPI itself, so shmem_init could not turn UCX's "
                    "registration cache off: run it with UCX_RCACHE_ENABLE=n in the "
                    "environment (docs/performance.md, Interop).\n");
}

const char *mpishmem_quirks_applied(void)
{
    return applied;
}

unsigned mpishmem_quirks_mask(void)
{
    return applied_mask;
}
