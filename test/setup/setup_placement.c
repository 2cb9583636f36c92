/*
 * setup_placement: where a PE maps its node peers' heaps and global data.
 *
 * AMD Zen's L1 data cache predicts the way of a load from linear-address
 * bits 12-27, so a copy between a symmetric object and a peer's copy of it
 * (same offset) runs about 1.2x slower when the two mappings agree in those
 * bits (mpi_backend/memory/node_shm.h).  The kernel puts equal-sized mappings back
 * to back, which with a 512 MiB heap (this test's) made every peer's heap
 * exactly 512 MiB away from our own: agreeing in bits 12-27.  So for every
 * peer that shmem_ptr reaches, the distance from our copy of a heap object
 * and of a global array to the peer's must differ from 0 in bits 12-27, and
 * the peers' copies must differ from each other there too.  Then each PE
 * writes through the pointers and reads back with shmem_g / the owner's
 * loads, so a mapping placed at the wrong object or offset fails.
 * (A bench: bench/mapping_color.c times the copies themselves.)
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <shmem.h>

#define WORDS 4096
static long global_words[WORDS];
static int failures;

static unsigned tag_bits(const void *a, const void *b)
{
    return (unsigned)((((uintptr_t)a - (uintptr_t)b) >> 12) & 0xffffu);
}

static void check_object(const char *what, long *obj, int me, int npes)
{
    const void **seen = calloc((size_t)npes, sizeof *seen);
    int reached = 0;
    for (int pe = 0; pe < npes; pe++) {
        if (pe == me)
            continue;
        long *p = shmem_ptr(obj, pe);
        if (p == NULL)
            continue;
        reached++;
        if (tag_bits(p, obj) == 0) {
            fprintf(stderr,
                    "setup_placement: PE %d: %s of PE %d mapped at %p, ours at %p: "
                    "equal in address bits 12-27\n",
                    me, what, pe, (void *)p, (void *)obj);
            failures++;
        }
        for (int q = 0; q < pe; q++)
            if (seen[q] != NULL && tag_bits(p, seen[q]) == 0) {
                fprintf(stderr,
                        "setup_placement: PE %d: %s of PEs %d and %d mapped at %p and %p: "
                        "equal in address bits 12-27\n",
                        me, what, q, pe, (void *)seen[q], (void *)p);
                failures++;
            }
        seen[pe] = p;
        /* Our words in the peer's copy: slot me of every 64. */
        for (int i = me; i < WORDS; i += 64)
            p[i] = 1000L * me + i;
    }
    free(seen);
    shmem_barrier_all();
    /* Every PE that reached us wrote its slots of our copy. */
    for (int pe = 0; pe < npes && pe < 64; pe++) {
        if (pe == me || shmem_ptr(obj, pe) == NULL)
            continue;
        for (int i = pe; i < WORDS; i += 64)
            if (obj[i] != 1000L * pe + i) {
                fprintf(stderr, "setup_placement: PE %d: %s[%d] = %ld, PE %d wrote %ld\n", me,
                        what, i, obj[i], pe, 1000L * pe + i);
                failures++;
                break;
            }
    }
    /* And the same words read back through MPI's or the library's route. */
    for (int pe = 0; pe < npes && pe < 64; pe++) {
        if (pe == me || shmem_ptr(obj, pe) == NULL)
            continue;
        long v = shmem_long_g(&obj[me], pe);
        if (v != 1000L * me + me) {
            fprintf(stderr, "setup_placement: PE %d: shmem_long_g of %s on PE %d: %ld, wrote %ld\n",
                    me, what, pe, v, 1000L * me + me);
            failures++;
        }
    }
    shmem_barrier_all();
    if (me == 0)
        printf("setup_placement: %s: PE 0 reached %d peers by load/store\n", what, reached);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long *heap_words = shmem_calloc(WORDS, sizeof(long));
    if (heap_words == NULL) {
        fprintf(stderr, "setup_placement: shmem_calloc failed\n");
        shmem_global_exit(1);
    }
    check_object("a heap object", heap_words, me, npes);
    check_object("a global array", global_words, me, npes);
    static int mine, all;
    mine = failures;
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &all, &mine, 1);
    int total = all;
    shmem_free(heap_words);
    shmem_finalize();
    return total != 0;
}
