/*
 * mpishmem-info: what this installation of mpishmem is and what it can do
 * here.  Runs as a singleton (no mpiexec needed) or under a launcher.
 *   mpishmem-info          everything
 *   mpishmem-info --vars   the names of the environment variables only
 *   mpishmem-info --rows   the settings table, one tab-separated row per
 *                          variable: name, type, scope, a value it refuses
 *                          ("-" where none), what it allows
 *   mpishmem-info --markdown   the table of docs/environment.md
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include <shmem.h>
#include "../../mpi_backend/settings/env_parse.h"
#include "../../mpi_backend/gpu/gpu_path.h"
#include "../../spaces/memory_spaces/devices.h"
#include "../../mpi_backend/settings/env_read.h"
#include "../../mpi_backend/settings/env_check.h"
#include "../../mpi_backend/runtime/route_plan.h"
#include "../../teams/team_plan.h"
#include "../../mpi_backend/runtime/error.h"

static const char *thread_level(int l)
{
    switch (l) {
    case SHMEM_THREAD_SINGLE: return "SHMEM_THREAD_SINGLE";
    case SHMEM_THREAD_FUNNELED: return "SHMEM_THREAD_FUNNELED";
    case SHMEM_THREAD_SERIALIZED: return "SHMEM_THREAD_SERIALIZED";
    case SHMEM_THREAD_MULTIPLE: return "SHMEM_THREAD_MULTIPLE";
    default: return "unknown";
    }
}

static void space_line(const char *name, shmem_space_t s)
{
    shmem_space_cap_t caps = 0;
    int avail = shmem_space_is_available(s) == 0; /* 0: this PE can allocate in it */
    printf("  %-20s %s", name, avail ? "available" : "not available");
    if (avail && shmem_space_get_caps(s, &caps) == 0)
        printf(" (caps 0x%llx)", (unsigned long long)caps);
    printf("\n");
}

/* The settings table for scripts (test/errors/settings_rows.sh). */
static void rows(void)
{
    char buf[200];
    for (const mpishmem_env_var_t *v = mpishmem_env_vars; v->name; v++) {
        const char *bad = mpishmem_env_bad_example(v);
        printf("%s\t%s\t%s\t%s\t%s\n", v->name, mpishmem_env_type_name(v->type),
               mpishmem_env_scope_name(v->scope), bad ? bad : "-",
               mpishmem_env_allowed(v, buf, sizeof buf));
    }
}

static void variables(void)
{
    printf("Environment variables the library reads (value here):\n");
    for (const mpishmem_env_var_t *v = mpishmem_env_vars; v->name; v++) {
        /* Prefix rows (MPIR_CVAR_*) have no single value. */
        const char *val = strchr(v->name, '*') ? NULL : mpishmem_env(v->name);
        printf("  %-26s %s%s%s\n      %s (default: %s; %s; used by %s)\n", v->name,
               val ? "'" : "", val ? mpishmem_env_shown(val) : "unset", val ? "'" : "",
               v->meaning, v->dflt, mpishmem_env_scope_name(v->scope), v->layer);
    }
}

/* The library, the specification, MPI and the thread level (PE 0). */
static void header(int provided, int npes)
{
    int major, minor;
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_version(&major, &minor);
    shmem_info_get_name(name);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len, mv, msv;
    MPISHMEM_MPI(MPI_Get_library_version(lib, &len));
    MPISHMEM_MPI(MPI_Get_version(&mv, &msv));
    char *nl = strchr(lib, '\n');
    if (nl)
        *nl = '\0';
    printf("mpishmem %d.%d.%d: %s\n", MPISHMEM_VERSION_MAJOR, MPISHMEM_VERSION_MINOR,
           MPISHMEM_VERSION_PATCH, name);
    printf("OpenSHMEM specification: %d.%d\n", major, minor);
    printf("MPI: %s (MPI standard %d.%d)\n", lib, mv, msv);
    printf("Thread level available: %s\n", thread_level(provided));
    printf("PEs in this run: %d\n", npes);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--vars") == 0) {
        for (const mpishmem_env_var_t *v = mpishmem_env_vars; v->name; v++)
            printf("%s\n", v->name);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--rows") == 0) {
        rows();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--markdown") == 0) {
        /* docs/environment.md holds this table (lib/tools/update_environment_doc.sh
         * writes it; test/tools/info_vars.sh checks it is this output). */
        char buf[200];
        printf("| variable | type | allowed | default | PEs | used by | meaning |\n"
               "| --- | --- | --- | --- | --- | --- | --- |\n");
        for (const mpishmem_env_var_t *v = mpishmem_env_vars; v->name; v++)
            printf("| `%s` | %s | %s | %s | %s | %s | %s |\n", v->name,
                   mpishmem_env_type_name(v->type), mpishmem_env_allowed(v, buf, sizeof buf),
                   v->dflt, mpishmem_env_scope_name(v->scope), v->layer, v->meaning);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "mpishmem: mpishmem-info: unknown argument '%s' (usage: "
                        "mpishmem-info [--vars | --rows | --markdown])\n", argv[1]);
        return 2;
    }
    int provided = -1;
    if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0) {
        fprintf(stderr, "mpishmem: mpishmem-info: shmem_init_thread failed\n");
        return 1;
    }
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (me == 0)
        header(provided, npes);
    /* The on-node path: can this PE load/store into a heap object of
     * itself (and of its neighbour)? */
    long *probe = shmem_malloc(sizeof(long));
    int self = probe && shmem_ptr(probe, me) != NULL;
    int peer = npes > 1 && probe && shmem_ptr(probe, (me + 1) % npes) != NULL;
    if (me == 0) {
        printf("On-node load/store path: %s", self ? "available" : "off");
        if (npes > 1)
            printf(" (to PE 1: %s)", peer ? "yes" : "no");
        printf("%s\n", self ? "" : " (MPISHMEM_SHM=0 or not supported)");
        printf("Predefined memory spaces:\n");
        space_line("SHMEM_SPACE_DEFAULT", SHMEM_SPACE_DEFAULT);
        space_line("SHMEM_SPACE_CPU", SHMEM_SPACE_CPU);
        space_line("SHMEM_SPACE_GPU", SHMEM_SPACE_GPU);
        mpishmem_devices_discover_gpu();
        size_t host = mpishmem_device_capacity(SHMEM_DEVICE_CPU);
        printf("Devices:\n  cpu: host memory %.1f GiB\n", host / 1073741824.0);
        if (mpishmem_devices.gpu >= 0)
            printf("  gpu: CUDA device %d of %d (%s), RMA on GPU memory by MPI: %s\n",
                   mpishmem_devices.gpu, mpishmem_devices.gpu_count, mpishmem_devices.gpu_choice,
                   mpishmem_gpu_mpi_aware ? "yes (GPU-aware, checked)" : "no (IPC and staging)");
        else
            printf("  gpu: none (%s)\n", mpishmem_devices.why_no_gpu);
        printf("Plan of routes (mpi_backend/runtime/route_plan.h):\n");
        mpishmem_plan_print(stdout);
        mpishmem_teams_plan_print(stdout);
        variables();
    }
    shmem_free(probe);
    shmem_finalize();
    return 0;
}
