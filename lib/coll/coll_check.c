/*
 * mpishmem: the SHMEM_DEBUG checks of the collectives.  They cost extra
 * communication (an allreduce per call), so they run only in debug mode.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coll.h"
#include "../../spaces/memory_spaces/space.h"
#include "../../mpi_backend/memory/segment.h"
#include "../../mpi_backend/runtime/error.h"

#define MAX_SAME 4

void mpishmem_coll_check_same(const char *routine, mpishmem_coll_comm_t *c,
                              const char *const *names, const long long *v, int n)
{
    /* One MIN over (v, -v) gives both the minimum and the maximum; the
     * values are counts, strides, roots and offsets, far from LLONG_MIN. */
    long long mine[2 * MAX_SAME] = {0}, all[2 * MAX_SAME] = {0};
    if (n > MAX_SAME)
        n = MAX_SAME; /* callers pass at most four; never overrun */
    for (int i = 0; i < n; i++) {
        mine[i] = v[i];
        mine[n + i] = -v[i];
    }
    MPI_Request req;
    mpishmem_coll_started(routine, "MPI_Iallreduce (SHMEM_DEBUG argument check)",
                          MPI_Iallreduce(mine, all, 2 * n, MPI_LONG_LONG, MPI_MIN, c->comm,
                                         &req));
    mpishmem_coll_wait(&req);
    for (int i = 0; i < n; i++)
        if (all[i] != -all[n + i])
            mpishmem_fatal(routine, "the PEs passed different values of %s (from %lld to "
                           "%lld); every PE must pass the same", names[i], all[i],
                           -all[n + i]);
}

void mpishmem_coll_check_symmetric(const char *routine, const char *what, const void *p,
                                   size_t len)
{
    if (len == 0)
        return;
    const mpishmem_segment_t *s = mpishmem_segment_find(p);
    if (s == NULL || !mpishmem_segment_holds_range(s, p, len))
        mpishmem_fatal(routine, "%s %p (%zu bytes) is not symmetric: it is not inside the "
                       "symmetric heap or the program's global data, or it runs past the "
                       "end of its segment", what, p, len);
}

void mpishmem_coll_check_space(const char *routine, mpishmem_coll_comm_t *c, const void *dest,
                               const void *source)
{
    /* One space for both buffers (spaces/memory_spaces/space_checks.c). */
    mpishmem_space_check_buffers(routine, SHMEM_TEAM_INVALID, dest, source);
    const mpishmem_segment_t *s = mpishmem_segment_find(dest ? dest : source);
    if (s == NULL || s->ranks == NULL)
        return; /* the default heap or global data: every PE's */
    const mpishmem_space_t *sp = mpishmem_space_of_segment(s);
    if (sp && !(mpishmem_space_caps(sp) & SHMEM_SPACE_CAP_COLLECTIVES))
        mpishmem_fatal(routine, "the %s does not support collectives "
                       "(SHMEM_SPACE_CAP_COLLECTIVES is not set)", sp->name);
    /* Every PE of the team or active set must belong to the space. */
    MPI_Group g, wg;
    MPISHMEM_MPI(MPI_Comm_group(c->comm, &g));
    MPISHMEM_MPI(MPI_Comm_group(mpishmem_rt.world, &wg));
    for (int i = 0; i < c->n; i++) {
        int world;
        MPISHMEM_MPI(MPI_Group_translate_ranks(g, 1, &i, wg, &world));
        if (mpishmem_segment_rank(s, world) < 0)
            mpishmem_fatal(routine, "team PE %d (world PE %d) is not a member of the %s: a "
                           "collective on a space's memory needs a team inside the space's "
                           "team", i, world, sp ? sp->name : s->name);
    }
    MPISHMEM_MPI(MPI_Group_free(&g));
    MPISHMEM_MPI(MPI_Group_free(&wg));
}

void mpishmem_coll_check_buffers(const char *routine, mpishmem_coll_comm_t *c, void *dest,
                                 size_t dlen, const void *source, size_t slen, int plain_alias)
{
    mpishmem_coll_check_symmetric(routine, "dest", dest, dlen);
    mpishmem_coll_check_symmetric(routine, "source", source, slen);
    mpishmem_coll_check_space(routine, c, dest, source);
    if (plain_alias)
        mpishmem_coll_check_alias(routine, dest, dlen, source, slen);
}

void mpishmem_coll_check_alias(const char *routine, const void *dest, size_t dlen,
                               const void *source, size_t slen)
{
    if (dest != source && mpishmem_coll_overlap(dest, dlen, source, slen))
        mpishmem_fatal(routine, "source %p (%zu bytes) and dest %p (%zu bytes) overlap; "
                       "they must be the same array or not overlap at all", source, slen,
                       dest, dlen);
}

long long mpishmem_coll_symmetric_offset(const void *p)
{
    const mpishmem_segment_t *s = mpishmem_segment_find(p);
    return s ? (long long)((const char *)p - s->base) : -1;
}
