/*
 * Fortran COMMON blocks and SAVE arrays as symmetric data: puts into a
 * neighbour's COMMON block, AMOs on a COMMON counter from every PE, gets
 * of initialised COMMON data, and a direct pointer to node peers' blocks
 * whenever their heap is directly reachable.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>

void common_addrs(long **blk, long **cnt, long **inited, long **saved);
long common_sum(void);

#define FAIL(...)                                                                          \
    do {                                                                                   \
        fprintf(stderr, "PE %d: ", shmem_my_pe());                                         \
        fprintf(stderr, __VA_ARGS__);                                                      \
        fprintf(stderr, "\n");                                                             \
        shmem_global_exit(1);                                                              \
    } while (0)

int main(void)
{
    long *blk, *cnt, *inited, *saved;
    common_addrs(&blk, &cnt, &inited, &saved);
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
    const char *sg = getenv("MPISHMEM_SHM_GLOBALS");
    long *heap = shmem_malloc(8);
    for (int pe = 0; pe < n; pe++) {
        if (pe == me)
            continue;
        int want = shmem_ptr(heap, pe) != NULL && !(sg && !strcmp(sg, "0"));
        if ((shmem_ptr(blk, pe) != NULL) != want || (shmem_ptr(saved, pe) != NULL) != want)
            FAIL("COMMON block of PE %d: direct pointer %s", pe, want ? "missing" : "unexpected");
    }
    for (int i = 0; i < 64; i++)
        shmem_long_p(&blk[i], me + 1, right);
    shmem_long_put(saved, (long[8]){1, 2, 3, 4, 5, 6, 7, 8}, 8, right);
    for (int r = 0; r < 100; r++)
        for (int pe = 0; pe < n; pe++)
            shmem_long_atomic_add(cnt, 1, pe);
    shmem_barrier_all();
    int left = (me + n - 1) % n;
    long want = 64L * (left + 1) + 100L * n;
    if (common_sum() != want)
        FAIL("Fortran sees sum %ld, expected %ld", common_sum(), want);
    if (saved[7] != 8)
        FAIL("SAVE array: %ld", saved[7]);
    long g = shmem_long_g(&inited[2], right);
    if (g != 103)
        FAIL("initialised COMMON data of PE %d: %ld", right, g);
    if (me == 0)
        printf("globals_fortran: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}
