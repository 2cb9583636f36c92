/*
 * mpishmem: the errors of the spaces data path, and the buffer check the
 * collectives run in SHMEM_DEBUG mode.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "space.h"
#include "../../mpi_backend/runtime/error.h"

void mpishmem_space_explain_target(const char *routine, const mpishmem_segment_t *s, int pe)
{
    const mpishmem_space_t *sp = mpishmem_space_of_segment(s);
    const char *name = sp ? sp->name : s->name;
    if (mpishmem_segment_rank(s, pe) < 0)
        mpishmem_fatal(routine, "target PE %d is not a member of the team of the %s, so it "
                       "has no copy of this address", pe, name);
    mpishmem_fatal(routine, "the %s does not support atomics (SHMEM_SPACE_CAP_ATOMICS is "
                   "not set)", name);
}

/* The space holding p, NULL for the default space or global data; stops if
 * p is not symmetric. */
static const mpishmem_segment_t *segment_of(const char *routine, const void *p)
{
    const mpishmem_segment_t *s = mpishmem_segment_find(p);
    if (s == NULL)
        mpishmem_fatal(routine, "buffer %p is not symmetric", p);
    return s;
}

int mpishmem_space_check_buffers(const char *routine, shmem_team_t team, const void *a,
                                 const void *b)
{
    const mpishmem_segment_t *sa = a ? segment_of(routine, a) : NULL;
    const mpishmem_segment_t *sb = b ? segment_of(routine, b) : NULL;
    /* Global data and the default heap both belong to every PE: treat them
     * as one (world) space. */
    int wa = sa && sa->ranks == NULL, wb = sb && sb->ranks == NULL;
    if (sa && sb && sa != sb && !(wa && wb)) {
        const mpishmem_space_t *pa = mpishmem_space_of_segment(sa);
        const mpishmem_space_t *pb = mpishmem_space_of_segment(sb);
        mpishmem_fatal(routine, "buffers %p and %p are in different memory spaces (%s and "
                       "%s): a collective works on one space", a, b, pa ? pa->name : sa->name,
                       pb ? pb->name : sb->name);
    }
    const mpishmem_segment_t *s = sa ? sa : sb;
    if (s == NULL || s->ranks == NULL || team == SHMEM_TEAM_INVALID)
        return 0;
    const mpishmem_space_t *owner = mpishmem_space_of_segment(s);
    if (owner && !(owner->caps & SHMEM_SPACE_CAP_COLLECTIVES))
        mpishmem_fatal(routine, "the %s does not support collectives "
                       "(SHMEM_SPACE_CAP_COLLECTIVES is not set)", owner->name);
    for (int i = 0; i < team->n_pes; i++) {
        int world = mpishmem_team_world_pe(team, i);
        if (mpishmem_segment_rank(s, world) < 0) {
            const mpishmem_space_t *sp = mpishmem_space_of_segment(s);
            mpishmem_fatal(routine, "team PE %d (world PE %d) is not a member of the %s: a "
                           "collective on a space's memory needs a team inside the space's "
                           "team", i, world, sp ? sp->name : s->name);
        }
    }
    return 0;
}
