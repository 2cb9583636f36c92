/*
 * mpishmem: reporting a fatal error and stopping the whole job.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "error.h"

void mpishmem_stop_job(void)
{
    int mpi_up = 0, mpi_down = 0;
    fflush(stdout);
    fflush(stderr);
    MPI_Initialized(&mpi_up);
    MPI_Finalized(&mpi_down);
    if (mpi_up && !mpi_down) {
        /* MPICH's launcher drops output still in flight when an abort
         * arrives; give the message a moment to reach it. */
        struct timespec pause = {0, 100000000};
        nanosleep(&pause, NULL);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    exit(1);
}

void mpishmem_fatal(const char *routine, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    routine = mpishmem_api_name(routine);
    if (mpishmem_rt.state == MPISHMEM_RUNNING)
        fprintf(stderr, "mpishmem: %s: %s (PE %d)\n", routine, msg, mpishmem_rt.my_pe);
    else
        fprintf(stderr, "mpishmem: %s: %s\n", routine, msg);
    mpishmem_stop_job();
}

void mpishmem_mpi_failed(const char *routine, const char *call, int rc)
{
    /* The call's name: its text up to the first parenthesis. */
    char name[64];
    size_t n = strcspn(call, "( ");
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), call);
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error code %d", rc);
    mpishmem_fatal(routine, "%s failed: %s", name, text);
}

void mpishmem_fatal_state(const char *routine)
{
    if (mpishmem_rt.state == MPISHMEM_FINALIZED)
        mpishmem_fatal(routine, "called after shmem_finalize");
    mpishmem_fatal(routine, "called before shmem_init");
}

void mpishmem_fatal_pe(const char *routine, int pe)
{
    if (mpishmem_rt.state != MPISHMEM_RUNNING)
        mpishmem_fatal_state(routine);
    mpishmem_fatal(routine, "PE %d is out of range [0, %d)", pe, mpishmem_rt.n_pes);
}

void mpishmem_fatal_address(const char *routine, const void *addr, size_t len, int pe)
{
    if (mpishmem_rt.state != MPISHMEM_RUNNING)
        mpishmem_fatal_state(routine);
    if (addr == NULL)
        mpishmem_fatal(routine, "symmetric address is NULL (target PE %d)", pe);
    mpishmem_fatal(routine,
                   "address %p (%zu bytes, target PE %d) is not symmetric: it is not "
                   "inside the symmetric heap or the program's global data, or the "
                   "range runs past the end of its segment",
                   addr, len, pe);
}

void mpishmem_fatal_count(const char *routine, const char *name, size_t n, size_t elem)
{
    mpishmem_fatal(routine, "%s %zu is too large: %zu elements of %zu bytes are more than "
                   "PTRDIFF_MAX bytes (a negative count passed as size_t?)", name, n, n, elem);
}

/* Names the arguments as the user passed them: iput/ibput stride dst over
 * the target (dest) and sst over the local source, iget/ibget the reverse;
 * the count is nelems, or bsize and nblocks for the block forms. */
void mpishmem_fatal_strided(const char *routine, int is_put, ptrdiff_t tst, ptrdiff_t lst,
                            size_t elem, size_t bsize, size_t nblocks)
{
    int target_bad = 0, local_bad = 0;
    (void)mpishmem_strided_extent(nblocks, tst, bsize, elem, &target_bad);
    (void)mpishmem_strided_extent(nblocks, lst, bsize, elem, &local_bad);
    int on_dest = is_put ? target_bad : local_bad; /* the dest array overflows */
    ptrdiff_t stride = on_dest ? (is_put ? tst : lst) : (is_put ? lst : tst);
    const char *sname = on_dest ? "dst" : "sst", *array = on_dest ? "dest" : "source";
    const char *r = mpishmem_api_name(routine);
    char count[96];
    if (strstr(r, "_ibput") || strstr(r, "_ibget"))
        snprintf(count, sizeof count, "bsize %zu and nblocks %zu", bsize, nblocks);
    else
        snprintf(count, sizeof count, "nelems %zu", nblocks);
    mpishmem_fatal(routine, "%s %td with %s makes the %s array span more than PTRDIFF_MAX "
                   "bytes (%zu-byte elements; a negative value passed as size_t, or a stride "
                   "too large?)", sname, stride, count, array, elem);
}

/* mpishmem_env_shown: env_parse.c. */
