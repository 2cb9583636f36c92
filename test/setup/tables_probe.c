/*
 * The library's own tables at start-up and after puts, in bytes
 * (mpishmem_table_bytes, the runtime's count of every table that could
 * grow with the job: peer mappings, dirty sets, rank maps).  PE 0 prints
 *   tables pes=N node=L init=B0 one=B1 all=B2
 * B0 after shmem_init and a barrier, B1 after a put + quiet to one other
 * PE, B2 after a put + quiet to every PE.  test/setup/tables.sh compares
 * runs of different job sizes (issue 19: no table of the job's size).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include <stdio.h>

extern long mpishmem_table_bytes; /* test hook (mpi_backend/runtime/runtime.h) */

static long word;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int node = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    long *heap = shmem_calloc(1, sizeof(long));
    shmem_barrier_all();
    long b0 = mpishmem_table_bytes;
    shmem_barrier_all();
    /* PE 0 alone puts, so the others' counts stay as at start-up. */
    if (me == 0) {
        shmem_long_p(heap, 1, n - 1);
        shmem_long_p(&word, 1, n - 1);
        shmem_quiet();
    }
    long b1 = mpishmem_table_bytes;
    shmem_barrier_all();
    if (me == 0) {
        for (int pe = 0; pe < n; pe++) {
            shmem_long_p(heap, 2, pe);
            shmem_long_p(&word, 2, pe);
        }
        shmem_quiet();
    }
    long b2 = mpishmem_table_bytes;
    shmem_barrier_all();
    if (me == 0)
        printf("tables pes=%d node=%d init=%ld one=%ld all=%ld\n", n, node, b0, b1, b2);
    shmem_free(heap);
    shmem_finalize();
    return 0;
}
