/*
 * Symmetric memory management: shmem_malloc, calloc, align, realloc,
 * malloc_with_hints, free and the deprecated shmalloc family.  Every block
 * must sit at the same offset on every PE and be usable for RMA from every
 * PE.  Runs with SHMEM_SYMMETRIC_SIZE=4M (see meson.build) so exhaustion is
 * cheap to reach.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "shmem_check.h"
#include "../sync/soft_check.h"

#define HEAP_BYTES ((size_t)4 << 20) /* SHMEM_SYMMETRIC_SIZE of this test */
#define MiB ((size_t)1 << 20)

/* The first block of the run: offsets are measured from it. */
static char *ref;

static void make_ref(void)
{
    ref = shmem_malloc(64);
}

static void free_ref(void)
{
    shmem_free(ref);
}

/* p must have the same offset from ref on every PE. */
static void check_symmetric(const void *p)
{
    int n = shmem_n_pes();
    long long off = p ? (long long)((const char *)p - ref) : -1, all[n];
    MPI_Allgather(&off, 1, MPI_LONG_LONG, all, 1, MPI_LONG_LONG, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        CHK(all[i] == off);
}

static unsigned char pattern(int pe, size_t j, int gen)
{
    return (unsigned char)(pe * 37 + j * 7 + (size_t)gen * 101 + 1);
}

/* Every PE fills its block and gets the whole block of every PE (only of
 * its right neighbour for large blocks), then puts a new pattern over its
 * right neighbour's block: covers both ends of the block. */
static void check_rma(void *p, size_t bytes)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    unsigned char *b = p, *tmp = malloc(bytes);
    ck_assert_ptr_nonnull(tmp);
    for (size_t j = 0; j < bytes; j++)
        b[j] = pattern(me, j, 0);
    shmem_barrier_all();
    for (int k = 1; k <= n; k++) {
        int pe = (me + k) % n;
        if (bytes > MiB && pe != right)
            continue;
        shmem_getmem(tmp, p, bytes, pe);
        for (size_t j = 0; j < bytes; j++)
            CHK(tmp[j] == pattern(pe, j, 0));
    }
    shmem_barrier_all(); /* everyone has read before anyone overwrites */
    for (size_t j = 0; j < bytes; j++)
        tmp[j] = pattern(me, j, 1);
    shmem_putmem(p, tmp, bytes, right);
    shmem_barrier_all();
    for (size_t j = 0; j < bytes; j++)
        CHK(b[j] == pattern(left, j, 1));
    shmem_barrier_all();
    free(tmp);
}

static void check_block(void *p, size_t bytes)
{
    CHK(p != NULL);
    check_symmetric(p);
    if (p)
        check_rma(p, bytes);
}

static int all_zero(const void *p, size_t bytes)
{
    const unsigned char *b = p;
    for (size_t j = 0; j < bytes; j++)
        if (b[j])
            return 0;
    return 1;
}

START_TEST(test_malloc_free)
{
    static const size_t sizes[] = {1, 7, 64, 1000, 65536, 300000};
    enum { NS = sizeof sizes / sizeof sizes[0] };
    char *p[NS];
    for (int i = 0; i < NS; i++) {
        p[i] = shmem_malloc(sizes[i]);
        WHERE("shmem_malloc(%zu) returned %p", sizes[i], (void *)p[i]);
        CHK(p[i] != NULL && (uintptr_t)p[i] % alignof(max_align_t) == 0);
        check_block(p[i], sizes[i]);
    }
    /* Distinct blocks never overlap. */
    for (int i = 0; i < NS; i++)
        for (int j = 0; j < NS; j++)
            if (i != j && p[i] && p[j])
                CHK(p[i] + sizes[i] <= p[j] || p[j] + sizes[j] <= p[i]);
    /* Free out of order, then the space serves new blocks. */
    for (int i = 1; i < NS; i += 2)
        shmem_free(p[i]);
    for (int i = 0; i < NS; i += 2)
        shmem_free(p[i]);
    shmem_free(NULL); /* no effect */
    char *q = shmem_malloc(2 * MiB);
    check_block(q, 2 * MiB);
    shmem_free(q);
    CHK_DONE();
}
END_TEST

START_TEST(test_size_zero)
{
    WHERE("size 0");
    CHK(shmem_malloc(0) == NULL);
    CHK(shmem_calloc(0, 8) == NULL);
    CHK(shmem_calloc(8, 0) == NULL);
    CHK(shmem_align(64, 0) == NULL);
    CHK(shmem_malloc_with_hints(0, SHMEM_MALLOC_ATOMICS_REMOTE) == NULL);
    CHK(shmem_realloc(NULL, 0) == NULL);
    CHK(shmalloc(0) == NULL);
    CHK(shmemalign(64, 0) == NULL);
    CHK(shmalign(64, 0) == NULL);
    CHK(shrealloc(NULL, 0) == NULL);
    shfree(NULL);
    CHK_DONE();
}
END_TEST

START_TEST(test_calloc)
{
    WHERE("shmem_calloc");
    long *a = shmem_calloc(100, sizeof(long));
    CHK(a != NULL && all_zero(a, 100 * sizeof(long)));
    check_block(a, 100 * sizeof(long));
    char *b = shmem_calloc(3, 12345);
    CHK(b != NULL && all_zero(b, 3 * 12345));
    check_symmetric(b);
    /* Dirty a block, free it, and calloc the same size: it comes from
     * used memory and must still be zero. */
    char *d = shmem_malloc(64 * 1024);
    if (d)
        memset(d, 0xa5, 64 * 1024);
    shmem_free(d);
    char *z = shmem_calloc(1, 64 * 1024);
    CHK(z != NULL && all_zero(z, 64 * 1024));
    check_block(z, 64 * 1024);
    /* count * size overflows size_t: no memory, on every PE. */
    CHK(shmem_calloc(SIZE_MAX / 2, 4) == NULL);
    shmem_free(z);
    shmem_free(b);
    shmem_free(a);
    CHK_DONE();
}
END_TEST

START_TEST(test_align)
{
    static const size_t aligns[] = {1, 8, 64, 256, 4096, 65536, MiB};
    enum { NA = sizeof aligns / sizeof aligns[0] };
    char *pad[NA], *p[NA];
    for (int i = 0; i < NA; i++) {
        /* An odd-sized block first, so the next free offset is unaligned. */
        pad[i] = shmem_malloc(24 + 8 * (size_t)i);
        p[i] = shmem_align(aligns[i], 100 + aligns[i] / 2);
        WHERE("shmem_align(%zu) returned %p", aligns[i], (void *)p[i]);
        CHK(p[i] != NULL && (uintptr_t)p[i] % aligns[i] == 0);
        check_block(p[i], 100 + aligns[i] / 2);
    }
    for (int i = 0; i < NA; i++) {
        shmem_free(p[i]);
        shmem_free(pad[i]);
    }
    CHK_DONE();
}
END_TEST

START_TEST(test_realloc)
{
    int me = shmem_my_pe();
    WHERE("shmem_realloc(NULL, n) allocates");
    unsigned char *p = shmem_realloc(NULL, 100);
    check_block(p, 100);
    for (int j = 0; j < 100; j++)
        p[j] = (unsigned char)(me + j);

    /* Grow in place or not: a neighbour block makes a move likely. */
    WHERE("shmem_realloc grow");
    void *block = shmem_malloc(256);
    p = shmem_realloc(p, 300000);
    CHK(p != NULL);
    check_symmetric(p);
    for (int j = 0; j < 100; j++)
        CHK(p[j] == (unsigned char)(me + j));
    for (int j = 0; j < 100; j++)
        p[j] = (unsigned char)(2 * me + j);
    WHERE("shmem_realloc shrink");
    p = shmem_realloc(p, 50);
    CHK(p != NULL);
    check_symmetric(p);
    for (int j = 0; j < 50; j++)
        CHK(p[j] == (unsigned char)(2 * me + j));
    check_rma(p, 50);

    /* A realloc that cannot be satisfied returns NULL and leaves the block
     * as it was. */
    WHERE("shmem_realloc too large");
    for (int j = 0; j < 50; j++)
        p[j] = (unsigned char)(3 * me + j);
    CHK(shmem_realloc(p, 64 * MiB) == NULL);
    for (int j = 0; j < 50; j++)
        CHK(p[j] == (unsigned char)(3 * me + j));
    check_rma(p, 50);
    shmem_free(p);
    shmem_free(block);

    /* Size 0 frees: two 3 MiB blocks fit the 4 MiB heap only one at a time. */
    WHERE("shmem_realloc(p, 0) frees");
    void *big = shmem_malloc(3 * MiB);
    CHK(big != NULL);
    CHK(shmem_realloc(big, 0) == NULL);
    big = shmem_malloc(3 * MiB);
    check_block(big, 3 * MiB);
    shmem_free(big);
    CHK_DONE();
}
END_TEST

START_TEST(test_malloc_with_hints)
{
    static const long hints[] = {0, SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE,
                                 SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE};
    void *p[4];
    for (int i = 0; i < 4; i++) {
        WHERE("shmem_malloc_with_hints(4096, %ld)", hints[i]);
        p[i] = shmem_malloc_with_hints(4096, hints[i]);
        check_block(p[i], 4096);
    }
    for (int i = 0; i < 4; i++)
        shmem_free(p[i]);
    CHK_DONE();
}
END_TEST

START_TEST(test_deprecated_names)
{
    int me = shmem_my_pe();
    WHERE("shmalloc");
    unsigned char *a = shmalloc(1000);
    check_block(a, 1000);
    WHERE("shrealloc");
    for (int j = 0; j < 1000 && a; j++)
        a[j] = (unsigned char)(me * 3 + j);
    a = shrealloc(a, 100000);
    CHK(a != NULL);
    check_symmetric(a);
    for (int j = 0; j < 1000 && a; j++)
        CHK(a[j] == (unsigned char)(me * 3 + j));
    void *b = shmemalign(4096, 100);
    WHERE("shmemalign(4096) returned %p", b);
    CHK((uintptr_t)b % 4096 == 0);
    check_block(b, 100);
    void *c = shmalign(256, 100);
    WHERE("shmalign(256) returned %p", c);
    CHK((uintptr_t)c % 256 == 0);
    check_block(c, 100);
    shfree(c);
    shfree(b);
    shfree(a);
    CHK_DONE();
}
END_TEST

/* Exhaustion is reported as NULL on every PE, and leaves the heap usable;
 * freeing many small blocks gives back one large one. */
#define SMALL ((size_t)32768)
START_TEST(test_exhaustion)
{
    int n = shmem_n_pes();
    WHERE("oversized requests");
    CHK(shmem_malloc(64 * MiB) == NULL);
    CHK(shmem_calloc(64, MiB) == NULL);
    CHK(shmem_align(4096, 64 * MiB) == NULL);
    CHK(shmem_malloc_with_hints(64 * MiB, SHMEM_MALLOC_SIGNAL_REMOTE) == NULL);
    CHK(shmem_malloc(SIZE_MAX) == NULL);
    CHK(shmem_malloc(HEAP_BYTES + 1) == NULL);
    WHERE("small block after exhaustion");
    void *s = shmem_malloc(1000);
    check_block(s, 1000);
    shmem_free(s);

    /* Fill the heap with small blocks, dirtying each. */
    WHERE("fill with %zu-byte blocks", SMALL);
    size_t max = HEAP_BYTES / SMALL + 1, count = 0;
    char **blk = malloc(max * sizeof *blk);
    ck_assert_ptr_nonnull(blk);
    while (count < max && (blk[count] = shmem_malloc(SMALL)) != NULL) {
        memset(blk[count], 0x5a, SMALL);
        count++;
    }
    CHK(count < max); /* the heap is bounded by SHMEM_SYMMETRIC_SIZE */
    long long mine = (long long)count, all[n];
    MPI_Allgather(&mine, 1, MPI_LONG_LONG, all, 1, MPI_LONG_LONG, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        CHK(all[i] == mine);
    if (count > 0)
        check_rma(blk[count - 1], SMALL); /* the last block is as good as any */
    /* Free in an order that leaves holes until the very end. */
    for (size_t i = 0; i < count; i += 2)
        shmem_free(blk[i]);
    for (size_t i = 1; i < count; i += 2)
        shmem_free(blk[i]);
    free(blk);

    /* The freed blocks coalesce: one block of their total size fits, and
     * calloc clears the dirty memory it reuses. */
    size_t total = count * SMALL;
    WHERE("one block of %zu bytes after freeing %zu blocks", total, count);
    CHK(total >= HEAP_BYTES - 64 * 1024);
    char *whole = shmem_calloc(total, 1);
    CHK(whole != NULL && all_zero(whole, total));
    check_block(whole, total);
    shmem_free(whole);
    CHK_DONE();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("setup_memory");
    TCase *tc = tcase_create("memory");
    tcase_set_timeout(tc, 0);
    tcase_add_unchecked_fixture(tc, make_ref, free_ref);
    tcase_add_test(tc, test_malloc_free);
    tcase_add_test(tc, test_size_zero);
    tcase_add_test(tc, test_calloc);
    tcase_add_test(tc, test_align);
    tcase_add_test(tc, test_realloc);
    tcase_add_test(tc, test_malloc_with_hints);
    tcase_add_test(tc, test_deprecated_names);
    tcase_add_test(tc, test_exhaustion);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
