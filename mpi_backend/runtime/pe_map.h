/*
 * mpishmem: numbered sets of world PEs (a team, the PEs of this node, a
 * window's communicator) and the translations both ways.
 *
 * Member i of a set is a world PE.  Most sets met in practice are strided
 * (the world, a node under block placement, shmem_team_split_strided and
 * split_2d teams, a node under round-robin placement): member i is
 * start + i * stride, and both translations are computed, with no table.
 * Any other set keeps two tables of its own size: member -> world PE, and
 * the (world PE, member) pairs sorted for a binary search.  So no set costs
 * memory in proportion to the job unless it has that many members.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_PE_MAP_H
#define MPISHMEM_PE_MAP_H

#include <mpi.h>

typedef struct mpishmem_pe_map {
    int n;            /* members */
    int start, stride; /* member i = start + i * stride, when world == NULL */
    int *world;       /* [n] member -> world PE, or NULL (strided) */
    int *by_world;    /* [2n] (world PE, member) pairs ascending, or NULL (strided) */
} mpishmem_pe_map_t;

/* World PE of member i (0 <= i < n): one load, or a multiply-add. */
static inline int mpishmem_pe_map_world(const mpishmem_pe_map_t *m, int i)
{
    return m->world ? m->world[i] : m->start + i * m->stride;
}

int mpishmem_pe_map_search(const mpishmem_pe_map_t *m, int pe);

/* Member number of world PE pe, or -1 when pe is not a member. */
static inline int mpishmem_pe_map_index(const mpishmem_pe_map_t *m, int pe)
{
    if (__builtin_expect(m->world == NULL && m->stride == 1, 1)) {
        unsigned d = (unsigned)pe - (unsigned)m->start;
        return d < (unsigned)m->n ? (int)d : -1;
    }
    return mpishmem_pe_map_search(m, pe);
}

/* The strided set start + i * stride, i < n (no allocation). */
void mpishmem_pe_map_strided(mpishmem_pe_map_t *m, int start, int stride, int n);

/* The set whose member i is world[i] (n distinct PEs).  Strided sets keep
 * no table; otherwise the map takes `world` (malloc'd) over.  Returns 0, or
 * -1 when out of memory (world freed, m empty). */
int mpishmem_pe_map_take(mpishmem_pe_map_t *m, int *world, int n);

/* The members of comm, numbered by their ranks in comm (local: MPI group
 * calls only).  Returns 0, or -1 when out of memory. */
int mpishmem_pe_map_of_comm(mpishmem_pe_map_t *m, MPI_Comm comm);

void mpishmem_pe_map_free(mpishmem_pe_map_t *m);

#endif
