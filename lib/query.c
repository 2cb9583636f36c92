/*
 * mpishmem: query routines (who am I, what can I reach).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdarg.h>
#include <string.h>
#include <shmem.h>
#include "../mpi_backend/runtime/error.h"
#include "../mpi_backend/runtime/runtime.h"
#include "../mpi_backend/memory/segment.h"
#include "../teams/team.h"

int shmem_my_pe(void)
{
    if (MPISHMEM_DEBUG_ON)
        mpishmem_check_running("shmem_my_pe");
    return mpishmem_rt.state == MPISHMEM_RUNNING ? mpishmem_rt.my_pe : -1;
}

int shmem_n_pes(void)
{
    if (MPISHMEM_DEBUG_ON)
        mpishmem_check_running("shmem_n_pes");
    return mpishmem_rt.state == MPISHMEM_RUNNING ? mpishmem_rt.n_pes : -1;
}

int _my_pe(void)
{
    return shmem_my_pe();
}

int _num_pes(void)
{
    return shmem_n_pes();
}

/* Every PE of the job is reachable through MPI RMA. */
int shmem_pe_accessible(int pe)
{
    if (MPISHMEM_DEBUG_ON)
        mpishmem_check_running("shmem_pe_accessible");
    return mpishmem_rt.state == MPISHMEM_RUNNING && pe >= 0 && pe < mpishmem_rt.n_pes;
}

int shmem_addr_accessible(const void *addr, int pe)
{
    if (MPISHMEM_DEBUG_ON)
        mpishmem_check_running("shmem_addr_accessible");
    if (!shmem_pe_accessible(pe))
        return 0;
    mpishmem_segment_t *s = mpishmem_segment_find(addr);
    /* A space's memory exists only on the members of its team. */
    return s != NULL && mpishmem_segment_rank(s, pe) >= 0;
}

void *shmem_ptr(const void *dest, int pe)
{
    if (MPISHMEM_DEBUG_ON)
        mpishmem_check_running("shmem_ptr");
    if (mpishmem_rt.state != MPISHMEM_RUNNING || pe < 0 || pe >= mpishmem_rt.n_pes)
        return NULL;
    mpishmem_segment_t *s = mpishmem_segment_find(dest);
    if (s == NULL)
        return NULL;
    if (pe == mpishmem_rt.my_pe)
        return (void *)dest;
    char *peer = mpishmem_segment_peer(s, pe);
    if (peer == NULL)
        return NULL;
    /* The program may store through it: every quiet fences from now on. */
    __atomic_store_n(&mpishmem_stores_unseen, 1, __ATOMIC_RELAXED);
    return peer + ((const char *)dest - s->base);
}

void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
    if (MPISHMEM_DEBUG_ON) {
        mpishmem_check_running("shmem_team_ptr");
        if (team == SHMEM_TEAM_INVALID)
            mpishmem_fatal("shmem_team_ptr", "team is SHMEM_TEAM_INVALID");
    }
    if (team == SHMEM_TEAM_INVALID)
        return NULL;
    mpishmem_check_team("shmem_team_ptr", team);
    if (team->comm == MPI_COMM_NULL)
        return NULL;
    int world = mpishmem_team_world_pe(team, pe);
    return world < 0 ? NULL : shmem_ptr(dest, world);
}

void shmem_info_get_version(int *major, int *minor)
{
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char *name)
{
    /* The buffer holds SHMEM_MAX_NAME_LEN characters, terminator included. */
    strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
    name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}

/* The profiling levels of the spec: <= 0 profiling off, 1 on at the default
 * detail (the initial state), 2 on and profile buffers flushed, > 2 defined
 * by the tool, which may read further arguments.  The library itself is
 * not a profiler: a tool defines shmem_pcontrol to see the calls (the
 * library's definition is weak).  The level is kept for
 * mpishmem_pcontrol_level(). */
static int profiling_level = 1;

int mpishmem_pcontrol_level(void) { return profiling_level; }

void shmem_pcontrol(int level, ...)
{
    profiling_level = level;
}
