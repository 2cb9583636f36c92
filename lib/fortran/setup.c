/*
 * mpishmem Fortran: START_PES, SHMEM_INIT, SHMEM_FINALIZE,
 * SHMEM_GLOBAL_EXIT, the queries, SHMEM_PTR and the symmetric heap
 * routines SHPALLOC, SHPDEALLC and SHPCLMOVE (used with Cray pointers: the
 * first argument is the pointer variable, which receives or holds the
 * block's address).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fortran.h"

/* start_pes initializes MPI too when the program did not, so programs
 * that only time with MPI_Wtime need no MPI_Init of their own. */
MPISHMEM_F(void, start_pes, (const mpishmem_fint *npes)) { start_pes(*npes); }
MPISHMEM_F(void, shmem_init, (void)) { shmem_init(); }
MPISHMEM_F(void, shmem_finalize, (void)) { shmem_finalize(); }
MPISHMEM_F(void, shmem_global_exit, (const mpishmem_fint *status))
{
    shmem_global_exit(*status);
}

MPISHMEM_F(mpishmem_fint, my_pe, (void)) { return shmem_my_pe(); }
MPISHMEM_F(mpishmem_fint, num_pes, (void)) { return shmem_n_pes(); }
MPISHMEM_F(mpishmem_fint, shmem_my_pe, (void)) { return shmem_my_pe(); }
MPISHMEM_F(mpishmem_fint, shmem_n_pes, (void)) { return shmem_n_pes(); }

/* The version of the Fortran interface (1.4, as SHMEM_MAJOR_VERSION and
 * SHMEM_MINOR_VERSION in shmem.fh), not the C library's. */
MPISHMEM_F(void, shmem_info_get_version, (mpishmem_fint *major, mpishmem_fint *minor))
{
    *major = MPISHMEM_F_MAJOR_VERSION;
    *minor = MPISHMEM_F_MINOR_VERSION;
}

/* NAME is CHARACTER*(*): gfortran passes its length after the arguments.
 * The vendor string fills it, blank-padded to the end as Fortran
 * assignment does (and cut short if NAME is shorter). */
MPISHMEM_F(void, shmem_info_get_name, (char *name, size_t len))
{
    char vendor[SHMEM_MAX_NAME_LEN];
    shmem_info_get_name(vendor);
    size_t n = strnlen(vendor, sizeof vendor);
    if (n > len)
        n = len;
    memcpy(name, vendor, n);
    memset(name + n, ' ', len - n);
}

MPISHMEM_F(mpishmem_flogical, shmem_pe_accessible, (const mpishmem_fint *pe))
{
    return shmem_pe_accessible(*pe) != 0;
}

MPISHMEM_F(mpishmem_flogical, shmem_addr_accessible, (const void *addr, const mpishmem_fint *pe))
{
    return shmem_addr_accessible(addr, *pe) != 0;
}

/* Returns an address for a Cray pointer (INTEGER*8 SHMEM_PTR in shmem.fh). */
MPISHMEM_F(int64_t, shmem_ptr, (const void *target, const mpishmem_fint *pe))
{
    return (int64_t)(intptr_t)shmem_ptr(target, *pe);
}

/* ---- SHPALLOC family: lengths in 32-bit words; errors are negative
 * codes (-1 bad length, -2 no memory, -3 not a heap address), or stop the
 * program when abort is nonzero. */
enum { SHP_LENGTH = -1, SHP_NOMEM = -2, SHP_NOT_HEAP = -3 };

static void shp_status(const char *routine, mpishmem_fint *code, int value,
                       const mpishmem_fint *abort_flag)
{
    static const char *const why[] = {"", "length is not an integer greater than 0",
                                      "no more symmetric memory",
                                      "address is not in the symmetric heap"};
    *code = value;
    if (value < 0 && *abort_flag != 0) {
        fprintf(stderr, "mpishmem: %s: %s\n", routine, why[-value]);
        shmem_global_exit(1);
    }
}

MPISHMEM_F(void, shpalloc, (void **addr, const mpishmem_fint *length, mpishmem_fint *errcode,
                            const mpishmem_fint *abort_flag))
{
    /* Every PE takes the same branch: the length is the same everywhere. */
    if (*length <= 0) {
        shp_status("SHPALLOC", errcode, SHP_LENGTH, abort_flag);
        return;
    }
    void *p = shmem_malloc((size_t)*length * 4);
    if (p != NULL)
        *addr = p;
    shp_status("SHPALLOC", errcode, p == NULL ? SHP_NOMEM : 0, abort_flag);
}

MPISHMEM_F(void, shpdeallc, (void **addr, mpishmem_fint *errcode,
                             const mpishmem_fint *abort_flag))
{
    if (!shmem_addr_accessible(*addr, shmem_my_pe())) {
        shp_status("SHPDEALLC", errcode, SHP_NOT_HEAP, abort_flag);
        return;
    }
    shmem_free(*addr); /* stops with a message on a block it did not allocate */
    shp_status("SHPDEALLC", errcode, 0, abort_flag);
}

/* status: 0 resized in place, 1 moved (addr updated), negative on error. */
MPISHMEM_F(void, shpclmove, (void **addr, const mpishmem_fint *length, mpishmem_fint *status,
                             const mpishmem_fint *abort_flag))
{
    if (*length <= 0) {
        shp_status("SHPCLMOVE", status, SHP_LENGTH, abort_flag);
        return;
    }
    if (!shmem_addr_accessible(*addr, shmem_my_pe())) {
        shp_status("SHPCLMOVE", status, SHP_NOT_HEAP, abort_flag);
        return;
    }
    void *old = *addr;
    void *p = shmem_realloc(old, (size_t)*length * 4);
    if (p == NULL) {
        shp_status("SHPCLMOVE", status, SHP_NOMEM, abort_flag);
        return;
    }
    *addr = p;
    shp_status("SHPCLMOVE", status, p != old, abort_flag);
}
