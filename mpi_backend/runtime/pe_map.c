/*
 * mpishmem: building PE sets and the slow half of their translation
 * (pe_map.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include "pe_map.h"
#include "runtime.h"
#include "error.h"

void mpishmem_pe_map_strided(mpishmem_pe_map_t *m, int start, int stride, int n)
{
    m->n = n;
    m->start = start;
    m->stride = n > 1 ? stride : 1;
    m->world = NULL;
    m->by_world = NULL;
}

static int cmp_pair(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

static long table_bytes(int n)
{
    return 3L * n * (long)sizeof(int); /* world[n] + by_world[2n] */
}

int mpishmem_pe_map_take(mpishmem_pe_map_t *m, int *world, int n)
{
    long long step = n > 1 ? (long long)world[1] - world[0] : 1;
    int strided = step != 0 && step >= -2147483647LL && step <= 2147483647LL;
    for (int i = 2; strided && i < n; i++)
        strided = (long long)world[i] - world[i - 1] == step;
    if (strided) {
        mpishmem_pe_map_strided(m, n > 0 ? world[0] : 0, (int)step, n);
        free(world);
        return 0;
    }
    int *pairs = malloc(2 * (size_t)n * sizeof(int));
    if (pairs == NULL) {
        free(world);
        mpishmem_pe_map_strided(m, 0, 1, 0);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        pairs[2 * i] = world[i];
        pairs[2 * i + 1] = i;
    }
    qsort(pairs, (size_t)n, 2 * sizeof(int), cmp_pair);
    m->n = n;
    m->start = world[0];
    m->stride = 0;
    m->world = world;
    m->by_world = pairs;
    mpishmem_tables_add(table_bytes(n));
    return 0;
}

int mpishmem_pe_map_search(const mpishmem_pe_map_t *m, int pe)
{
    if (m->world == NULL) {
        long long d = (long long)pe - m->start;
        if (d % m->stride != 0)
            return -1;
        long long i = d / m->stride;
        return i >= 0 && i < m->n ? (int)i : -1;
    }
    int lo = 0, hi = m->n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int w = m->by_world[2 * mid];
        if (w == pe)
            return m->by_world[2 * mid + 1];
        if (w < pe)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int mpishmem_pe_map_of_comm(mpishmem_pe_map_t *m, MPI_Comm comm)
{
    int n, same = MPI_UNEQUAL;
    MPISHMEM_MPI(MPI_Comm_size(comm, &n));
    MPISHMEM_MPI(MPI_Comm_compare(comm, mpishmem_rt.world, &same));
    if (same == MPI_IDENT || same == MPI_CONGRUENT) {
        mpishmem_pe_map_strided(m, 0, 1, n); /* the world, in world order */
        return 0;
    }
    int *ranks = malloc((size_t)n * sizeof(int)), *world = malloc((size_t)n * sizeof(int));
    if (ranks == NULL || world == NULL) {
        free(ranks);
        free(world);
        mpishmem_pe_map_strided(m, 0, 1, 0);
        return -1;
    }
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    MPI_Group g, wg;
    MPISHMEM_MPI(MPI_Comm_group(comm, &g));
    MPISHMEM_MPI(MPI_Comm_group(mpishmem_rt.world, &wg));
    MPISHMEM_MPI(MPI_Group_translate_ranks(g, n, ranks, wg, world));
    MPISHMEM_MPI(MPI_Group_free(&g));
    MPISHMEM_MPI(MPI_Group_free(&wg));
    free(ranks);
    return mpishmem_pe_map_take(m, world, n);
}

void mpishmem_pe_map_free(mpishmem_pe_map_t *m)
{
    if (m->world != NULL)
        mpishmem_tables_add(-table_bytes(m->n));
    free(m->world);
    free(m->by_world);
    mpishmem_pe_map_strided(m, 0, 1, 0);
}
