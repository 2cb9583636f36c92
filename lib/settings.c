/*
 * mpishmem: environment variables.
 *
 * Each OpenSHMEM variable also answers to its deprecated SMA_ name; the
 * SHMEM_ name wins when both are set.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <shmem.h>
#include "../mpi_backend/settings/env_parse.h"
#include "../mpi_backend/settings/env_check.h"
#include "../mpi_backend/settings/env_read.h"
#include "../mpi_backend/runtime/route_plan.h"
#include "../mpi_backend/runtime/error.h"
#include "init_internal.h"
#include "../mpi_backend/runtime/runtime.h"
#include "../mpi_backend/progress/progress_thread.h"
#include "../mpi_backend/runtime/quirks.h"
#include "../mpi_backend/memory/segment.h"
#include "../spaces/heap/heap.h"
#include "../teams/team_plan.h"
#include "../mpi_backend/progress/progress.h"

static const char *const size_vars[] = {"SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE", NULL};
static const char *const debug_vars[] = {"SHMEM_DEBUG", "SMA_DEBUG", NULL};
static const char *const version_vars[] = {"SHMEM_VERSION", "SMA_VERSION", NULL};
static const char *const info_vars[] = {"SHMEM_INFO", "SMA_INFO", NULL};
static const char *const shm_vars[] = {"MPISHMEM_SHM", NULL};
static const char *const shm_globals_vars[] = {"MPISHMEM_SHM_GLOBALS", NULL};
static const char *const yield_vars[] = {"MPISHMEM_YIELD", NULL};
static const char *const lanes_vars[] = {"MPISHMEM_CTX_LANES", NULL};
static const char *const progress_vars[] = {"MPISHMEM_PROGRESS_THREAD", NULL};
static const char *const amo_am_vars[] = {"MPISHMEM_AMO_AM", NULL};
static const char *const win_allocate_vars[] = {"MPISHMEM_WIN_ALLOCATE", NULL};

/* MPISHMEM_CTX_LANES: an integer in its row's range, checked already. */
static int read_lanes(void)
{
    const char *v = mpishmem_getenv_first(lanes_vars, NULL);
    if (v == NULL || *v == '\0')
        return MPISHMEM_DEFAULT_CTX_LANES;
    return (int)strtol(v, NULL, 10);
}

int mpishmem_peek_progress_thread(void)
{
    const char *v = mpishmem_getenv_first(progress_vars, NULL);
    int b = v == NULL ? -1 : mpishmem_parse_bool(v);
    return b < 0 ? -1 : b;
}

int mpishmem_peek_shm(void)
{
    const char *v = mpishmem_getenv_first(shm_vars, NULL);
    int b = v == NULL ? -1 : mpishmem_parse_bool(v);
    return b < 0 ? 1 : b;
}

/* MPISHMEM_BARRIER, checked already: its word's index in the row's list. */
static int read_barrier(void)
{
    static const char *const words[] = {"auto", "shm", "mpi", "shm-central",
                                        "shm-dissemination"};
    const char *v = mpishmem_env("MPISHMEM_BARRIER");
    for (int i = 0; v && *v && i < (int)(sizeof words / sizeof *words); i++)
        if (strcasecmp(v, words[i]) == 0)
            return i;
    return MPISHMEM_BARRIER_AUTO;
}

void mpishmem_read_settings(mpishmem_settings_t *set)
{
    /* Every variable of ours against its row first: a bad value of any,
     * whenever the code that uses it would run, stops the start here. */
    char why[512];
    if (mpishmem_env_check_all(why, sizeof why) != 0)
        mpishmem_fatal("shmem_init", "%s", why);
    const char *which = NULL;
    const char *v = mpishmem_getenv_first(size_vars, &which);
    set->heap_size = MPISHMEM_DEFAULT_HEAP_SIZE;
    set->heap_size_var = "default";
    set->heap_size_text = "256M";
    set->heap_size_set = 0;
    if (v != NULL) {
        set->heap_size = mpishmem_size_setting(which, v);
        set->heap_size_var = which;
        set->heap_size_text = v;
        set->heap_size_set = 1;
    }
    mpishmem_read_space_settings(&set->spaces);
    set->debug = mpishmem_read_bool(debug_vars, 0);
    set->shm = mpishmem_read_bool(shm_vars, 1);
    set->shm_globals = mpishmem_read_bool(shm_globals_vars, 1);
    set->yield = mpishmem_read_bool(yield_vars, -1);
    set->progress_thread = mpishmem_read_bool(progress_vars, -1);
    set->amo_am = mpishmem_read_bool(amo_am_vars, -1);
    set->win_allocate = mpishmem_read_bool(win_allocate_vars, -1);
    set->print_version = mpishmem_read_bool(version_vars, 0);
    set->print_info = mpishmem_read_bool(info_vars, 0);
    set->ctx_lanes = read_lanes();
    set->barrier = read_barrier();
}

void mpishmem_agree_settings(const mpishmem_settings_t *set)
{
    enum { N = 7 };
    /* MPISHMEM_PROGRESS_THREAD and MPISHMEM_AMO_AM: 0 off, 1 on, 2 unset. */
    unsigned long long mine[N] = {set->heap_size, (unsigned)set->debug, (unsigned)set->shm,
                                  (unsigned)set->ctx_lanes, (unsigned)set->shm_globals,
                                  set->progress_thread < 0 ? 2u : (unsigned)set->progress_thread,
                                  set->amo_am < 0 ? 2u : (unsigned)set->amo_am};
    unsigned long long v[2 * N], r[2 * N], lo[N], hi[N];
    static const char *const what[N] = {"SHMEM_SYMMETRIC_SIZE", "SHMEM_DEBUG", "MPISHMEM_SHM",
                                        "MPISHMEM_CTX_LANES", "MPISHMEM_SHM_GLOBALS",
                                        "MPISHMEM_PROGRESS_THREAD (2: unset)",
                                        "MPISHMEM_AMO_AM (2: unset)"};
    /* One collective for both ends: the maximum is the complement of the
     * minimum of the complements. */
    for (int i = 0; i < N; i++) {
        v[i] = mine[i];
        v[N + i] = ~mine[i];
    }
    mpishmem_allreduce(v, r, 2 * N, MPI_UNSIGNED_LONG_LONG, MPI_MIN, mpishmem_rt.world);
    for (int i = 0; i < N; i++) {
        lo[i] = r[i];
        hi[i] = ~r[N + i];
    }
    for (int i = 0; i < N; i++)
        if (lo[i] != hi[i])
            mpishmem_fatal("shmem_init", "%s must be the same on every PE, but values "
                           "range from %llu to %llu (this PE: %llu)", what[i], lo[i],
                           hi[i], mine[i]);
    mpishmem_agree_space_settings(set);
}

void mpishmem_report_settings(const mpishmem_settings_t *set)
{
    if (mpishmem_rt.my_pe != 0 || !(set->print_version || set->print_info))
        return;
    printf("mpishmem: OpenSHMEM %d.%d, %s\n", SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION,
           SHMEM_VENDOR_STRING);
    if (set->print_info) {
        printf("mpishmem: environment variables (current value in brackets):\n"
               "  SHMEM_SYMMETRIC_SIZE  bytes of symmetric heap per PE, e.g. 512M, 1.5G "
               "[%zu, from %s]\n"
               "  SHMEM_DEBUG           check every argument, stop on misuse [%d]\n"
               "  SHMEM_VERSION         print the library version at start-up\n"
               "  SHMEM_INFO            print this help at start-up\n"
               "  MPISHMEM_SHM          load/store to PEs on the same node; 0 sends all "
               "traffic through MPI RMA [%d]\n"
               "  MPISHMEM_SHM_GLOBALS  load/store and CPU atomics on other PEs' globals on "
               "the node; 0: MPI RMA [%d]\n"
               "  MPISHMEM_YIELD        yield the CPU while waiting; unset: only when PEs "
               "outnumber cores [%d]\n"
               "  MPISHMEM_CTX_LANES    extra MPI windows per segment, so contexts complete "
               "independently [%d%s]\n"
               "  MPISHMEM_PROGRESS_THREAD  a thread drives MPI progress while the PE "
               "computes; unset: where MPI RMA needs it, or with spare cores [%s, thread %s]\n"
               "  MPISHMEM_AMO_AM       AMOs on memory reached through MPI as requests the "
               "owner applies; unset: on MPICH or between nodes, with the progress thread [%s, %s]\n"
               "  SMA_SYMMETRIC_SIZE, SMA_DEBUG, SMA_VERSION, SMA_INFO: deprecated names\n",
               set->heap_size, set->heap_size_var, set->debug, set->shm, set->shm_globals,
               mpishmem_rt.yield,
               mpishmem_rt.ctx_lanes,
               mpishmem_rt.ctx_lanes != set->ctx_lanes
                   ? ": unset; lanes only under SHMEM_THREAD_MULTIPLE with a core per PE"
                   : "",
               set->progress_thread < 0 ? "unset" : set->progress_thread ? "1" : "0",
               mpishmem_progress_thread_running() == MPISHMEM_PROGRESS_SLEEPING
                   ? "running, sleeping between polls (no spare core)"
                   : mpishmem_progress_thread_running() ? "running" : "not running",
               set->amo_am < 0 ? "unset" : set->amo_am ? "1" : "0",
               (mpishmem_serving() & MPISHMEM_SERVE_AMO) ? "requests" : "MPI atomics");
        mpishmem_plan_print(stdout);
        mpishmem_teams_plan_print(stdout);
        mpishmem_spaces_report();
        mpishmem_globals_report();
        const char *quirk = mpishmem_quirks_applied();
        if (quirk)
            printf("mpishmem: MPI workaround in effect: %s\n", quirk);
    }
    fflush(stdout);
}
