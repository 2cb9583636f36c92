/*
 * mpishmem: the running MPI against the one of the build (mpi_family.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "env_read.h"
#include "mpi_family.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#if defined(OMPI_MAJOR_VERSION)
#define BUILT_FAMILY 'o'
#define BUILT_NAME \
    "Open MPI v" STR(OMPI_MAJOR_VERSION) "." STR(OMPI_MINOR_VERSION) "." STR(OMPI_RELEASE_VERSION)
#elif defined(MPICH_VERSION)
#define BUILT_FAMILY 'm'
#define BUILT_NAME "MPICH " MPICH_VERSION
#else
#define BUILT_FAMILY 0
#define BUILT_NAME "an MPI of neither family"
#endif

int mpishmem_mpi_family_of(const char *version)
{
    if (strstr(version, "Open MPI") != NULL)
        return 'o'; /* its C ABI has held from 3.0 through 5.x (libmpi.so.40) */
    static const char *const mpich_abi[] = {"MPICH", "Intel(R) MPI", "MVAPICH"};
    for (size_t i = 0; i < sizeof mpich_abi / sizeof mpich_abi[0]; i++)
        if (strstr(version, mpich_abi[i]) != NULL)
            return 'm'; /* CRAY MPICH matches "MPICH" */
    return 0;
}

/* The first line of the version string, up to a comma, blanks collapsed,
 * MPICH's " Version:" left out: "Open MPI v4.1.4", "MPICH 4.0.2". */
static void first_line(const char *version, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = version; n + 1 < size && *p && *p != '\n' && *p != ','; p++) {
        if (strncmp(p, " Version:", 9) == 0)
            p += 8;
        else if ((*p == ' ' || *p == '\t') && (n == 0 || out[n - 1] != ' '))
            out[n++] = ' ';
        else if (*p != ' ' && *p != '\t')
            out[n++] = *p;
    }
    out[n] = '\0';
}

void mpishmem_check_mpi_family(const char *routine)
{
    /* Larger than either MPI's MPI_MAX_LIBRARY_VERSION_STRING (MPICH
     * 8192, Open MPI 256): the constant of the build may be the wrong one. */
    static char version[16384];
    int len = 0;
    if (BUILT_FAMILY == 0 || MPI_Get_library_version(version, &len) != MPI_SUCCESS)
        return;
    version[sizeof version - 1] = '\0';
    int running = mpishmem_mpi_family_of(version);
    char name[128];
    first_line(version, name, sizeof name);
    if (running == 0) {
        const char *debug = mpishmem_env("SHMEM_DEBUG");
        int on = debug != NULL && *debug &&
                 (strchr("1yYtT", *debug) != NULL || strncasecmp(debug, "on", 2) == 0);
        if (on)
            fprintf(stderr, "mpishmem: %s: unknown MPI \"%s\"; this library was built with %s\n",
                    routine, name, BUILT_NAME);
        return;
    }
    if (running == BUILT_FAMILY)
        return;
    fprintf(stderr, "mpishmem: %s: this library was built with %s but the program runs on %s, "
                    "whose ABI differs; rebuild mpishmem with that MPI's mpicc, or compile the "
                    "program with the oshcc of this installation\n",
            routine, BUILT_NAME, name);
    fflush(stdout);
    _exit(1); /* no MPI_Abort, no atexit handlers: MPI is not usable with our handles */
}
