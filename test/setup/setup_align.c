/*
 * shmem_align honours every power-of-two alignment up to 8 MiB on the
 * default heap (issue 14: 4 and 8 MiB returned NULL), with a small
 * allocation in front so the allocator must pad, and the block is usable
 * for RMA on every PE.  Larger alignments return NULL on every PE with a
 * message (run with stderr visible); an alignment the heap cannot satisfy
 * returns NULL on every PE and leaves the heap usable.  Runs with the
 * default heap size, as the probe did.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <shmem.h>

static int failures;

static void expect(int ok, const char *what, size_t align)
{
    if (!ok) {
        fprintf(stderr, "setup_align: PE %d: %s (alignment %zu)\n", shmem_my_pe(), what,
                align);
        failures++;
    }
}

/* Every PE gets NULL, or every PE gets a block. */
static void expect_all_null(void *p, const char *what, size_t align)
{
    int mine = p == NULL, all = 0;
    static int flag, flags_sum;
    flag = mine;
    shmem_barrier_all();
    flags_sum = 0;
    shmem_barrier_all();
    shmem_int_atomic_add(&flags_sum, flag, 0);
    shmem_barrier_all();
    all = shmem_int_g(&flags_sum, 0);
    expect(mine && all == shmem_n_pes(), what, align);
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
    char *front = shmem_malloc(100); /* moves the next free offset off every boundary */
    for (size_t align = 1; align <= ((size_t)8 << 20); align <<= 1) {
        long *p = shmem_align(align, 1000);
        expect(p != NULL, "shmem_align returned NULL", align);
        if (p == NULL)
            continue;
        expect((uintptr_t)p % align == 0, "the block is not aligned", align);
        /* Usable on every PE: each writes its right neighbour's copy. */
        long v[125];
        for (int i = 0; i < 125; i++)
            v[i] = (long)align + me * 1000 + i;
        shmem_long_put(p, v, 125, right);
        shmem_barrier_all();
        int left = (me + n - 1) % n;
        for (int i = 0; i < 125; i++)
            if (p[i] != (long)align + left * 1000 + i) {
                expect(0, "wrong data in the aligned block", align);
                break;
            }
        shmem_barrier_all();
        shmem_free(p);
    }
    /* Beyond the heap's base alignment: NULL everywhere, with a message. */
    expect_all_null(shmem_align((size_t)16 << 20, 1000), "16 MiB alignment did not return "
                    "NULL on every PE", (size_t)16 << 20);
    expect_all_null(shmem_align((size_t)1 << 40, 1000), "1 TiB alignment did not return "
                    "NULL on every PE", (size_t)1 << 40);
    /* An alignment the heap (256 MiB, the default) cannot satisfy with
     * the front block in place: NULL everywhere, and the heap still works. */
    expect_all_null(shmem_align((size_t)8 << 20, (size_t)250 << 20), "250 MiB at 8 MiB "
                    "alignment did not return NULL on every PE", (size_t)8 << 20);
    void *q = shmem_align((size_t)1 << 20, 4096);
    expect(q != NULL && (uintptr_t)q % ((size_t)1 << 20) == 0, "1 MiB alignment after a "
           "refused one", (size_t)1 << 20);
    shmem_free(q);
    shmem_free(front);
    if (me == 0 && failures == 0)
        printf("setup_align: ok on %d PEs\n", n);
    int bad = failures;
    shmem_finalize();
    return bad ? 1 : 0;
}
