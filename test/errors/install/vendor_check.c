/*
 * Proves the installed <shmem.h> is ours even when the MPI wrapper adds an
 * include directory with another OpenSHMEM's shmem.h (Open MPI's).
 */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <string.h>

#ifndef MPISHMEM_SHMEM_H
#error "<shmem.h> is not mpishmem's"
#endif
#if SHMEM_MAJOR_VERSION != 1 || SHMEM_MINOR_VERSION != 6
#error "<shmem.h> does not declare OpenSHMEM 1.6"
#endif

int main(void)
{
    char name[SHMEM_MAX_NAME_LEN];
    int major = 0, minor = 0;
    shmem_init();
    shmem_info_get_name(name);
    shmem_info_get_version(&major, &minor);
    int ok = strncmp(SHMEM_VENDOR_STRING, "mpishmem", 8) == 0 &&
             strcmp(name, SHMEM_VENDOR_STRING) == 0 && major == 1 && minor == 6;
    if (shmem_my_pe() == 0)
        printf("%s: library \"%s\", OpenSHMEM %d.%d\n", ok ? "OK" : "FAILED", name, major,
               minor);
    shmem_finalize();
    return ok ? 0 : 1;
}
