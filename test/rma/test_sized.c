/*
 * Sized and byte RMA: put8 ... put128, get*, their _nbi, iput/iget and
 * ibput/ibget forms (plain and ctx), putmem/getmem(+_nbi); zero-length
 * transfers; strided transfers that start inside an array; 16 MiB
 * transfers checked byte by byte; many nbi gets completed by one quiet.
 *
 * Expected contents come from a reference copy loop applied to an image
 * of the destination, so every byte of every region is checked, including
 * the ones a transfer must leave alone.
 */
#include <stdlib.h>
#include <shmem.h>
#include "rma_common.h"

typedef void (*contig_fn)(void *, const void *, size_t, int);
typedef void (*ctx_contig_fn)(shmem_ctx_t, void *, const void *, size_t, int);
typedef void (*strided_fn)(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
typedef void (*ctx_strided_fn)(shmem_ctx_t, void *, const void *, ptrdiff_t, ptrdiff_t,
                               size_t, int);
typedef void (*block_fn)(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, size_t, int);
typedef void (*ctx_block_fn)(shmem_ctx_t, void *, const void *, ptrdiff_t, ptrdiff_t, size_t,
                             size_t, int);

/* One family of routines with one element size. */
struct family {
    const char *name;
    size_t elem;
    contig_fn put, get, put_nbi, get_nbi;
    ctx_contig_fn ctx_put, ctx_get, ctx_put_nbi, ctx_get_nbi;
    strided_fn iput, iget;
    ctx_strided_fn ctx_iput, ctx_iget;
    block_fn ibput, ibget;
    ctx_block_fn ctx_ibput, ctx_ibget;
};

#define FAMILY(BITS, BYTES, A)                                                             \
    {"size " #BITS, BYTES,                                                                 \
     shmem_put##BITS, shmem_get##BITS, shmem_put##BITS##_nbi, shmem_get##BITS##_nbi,       \
     shmem_ctx_put##BITS, shmem_ctx_get##BITS, shmem_ctx_put##BITS##_nbi,                  \
     shmem_ctx_get##BITS##_nbi, shmem_iput##BITS, shmem_iget##BITS, shmem_ctx_iput##BITS,  \
     shmem_ctx_iget##BITS, shmem_ibput##BITS, shmem_ibget##BITS, shmem_ctx_ibput##BITS,    \
     shmem_ctx_ibget##BITS},
static const struct family families[] = {
    MPISHMEM_RMA_SIZES(FAMILY, _)
    /* putmem/getmem: contiguous only (the strided slots stay NULL). */
    {"mem", 1, shmem_putmem, shmem_getmem, shmem_putmem_nbi, shmem_getmem_nbi,
     shmem_ctx_putmem, shmem_ctx_getmem, shmem_ctx_putmem_nbi, shmem_ctx_getmem_nbi,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
#define N_FAMILIES (sizeof families / sizeof families[0])

/* A transfer shape, in elements: nblocks blocks of bsize elements; block b
 * goes from source element soff + b * sst to destination element
 * doff + b * dst.  Contiguous transfers are one block. */
enum kind { CONTIG, CONTIG_NBI, STRIDED, BLOCKED };
struct xfer {
    enum kind kind;
    int ctx;
    size_t doff, soff;
    ptrdiff_t dst, sst;
    size_t bsize, nblocks;
};

static const struct xfer xfers[] = {
    {CONTIG, 0, 1, 2, 1, 1, 17, 1},
    {CONTIG_NBI, 0, 0, 0, 1, 1, 24, 1},
    {CONTIG, 1, 3, 0, 1, 1, 20, 1},
    {CONTIG_NBI, 1, 5, 7, 1, 1, 9, 1},
    {STRIDED, 0, 1, 2, 3, 2, 1, 5},   /* both strided, both start inside */
    {STRIDED, 1, 3, 0, 1, 4, 1, 4},   /* contiguous destination */
    {STRIDED, 0, 2, 1, 5, 1, 1, 4},   /* contiguous source */
    {STRIDED, 1, 0, 0, 2, 2, 1, 12},
    {BLOCKED, 0, 1, 1, 5, 3, 2, 4},
    {BLOCKED, 1, 0, 3, 7, 7, 7, 3},   /* blocks back to back */
    {BLOCKED, 0, 2, 0, 4, 6, 3, 3},
    {BLOCKED, 1, 4, 5, 9, 2, 1, 2},
};
#define N_XFERS (sizeof xfers / sizeof xfers[0])
#define REG_ELEMS 24 /* every shape fits in 24 elements on both sides */
#define SRC_ELEMS 24

/* The reference: what the transfer does to dest_image. */
static void reference(const struct xfer *x, size_t elem, uint8_t *dest_image,
                      const uint8_t *src)
{
    for (size_t b = 0; b < x->nblocks; b++)
        memcpy(dest_image + (x->doff + b * (size_t)x->dst) * elem,
               src + (x->soff + b * (size_t)x->sst) * elem, x->bsize * elem);
}

static int applies(const struct family *f, const struct xfer *x)
{
    return x->kind == CONTIG || x->kind == CONTIG_NBI || f->iput != NULL;
}

static void do_put(const struct family *f, const struct xfer *x, uint8_t *region,
                   const uint8_t *src, int pe)
{
    void *d = region + x->doff * f->elem;
    const void *s = src + x->soff * f->elem;
    shmem_ctx_t c = shmem_check_ctx;
    switch (x->kind) {
    case CONTIG:
        x->ctx ? f->ctx_put(c, d, s, x->bsize, pe) : f->put(d, s, x->bsize, pe);
        break;
    case CONTIG_NBI:
        x->ctx ? f->ctx_put_nbi(c, d, s, x->bsize, pe) : f->put_nbi(d, s, x->bsize, pe);
        break;
    case STRIDED:
        x->ctx ? f->ctx_iput(c, d, s, x->dst, x->sst, x->nblocks, pe)
               : f->iput(d, s, x->dst, x->sst, x->nblocks, pe);
        break;
    case BLOCKED:
        x->ctx ? f->ctx_ibput(c, d, s, x->dst, x->sst, x->bsize, x->nblocks, pe)
               : f->ibput(d, s, x->dst, x->sst, x->bsize, x->nblocks, pe);
        break;
    }
}

/* The get mirror: the destination is local, the source symmetric. */
static void do_get(const struct family *f, const struct xfer *x, uint8_t *local,
                   const uint8_t *src, int pe)
{
    void *d = local + x->doff * f->elem;
    const void *s = src + x->soff * f->elem;
    shmem_ctx_t c = shmem_check_ctx;
    switch (x->kind) {
    case CONTIG:
        x->ctx ? f->ctx_get(c, d, s, x->bsize, pe) : f->get(d, s, x->bsize, pe);
        break;
    case CONTIG_NBI:
        x->ctx ? f->ctx_get_nbi(c, d, s, x->bsize, pe) : f->get_nbi(d, s, x->bsize, pe);
        break;
    case STRIDED:
        x->ctx ? f->ctx_iget(c, d, s, x->dst, x->sst, x->nblocks, pe)
               : f->iget(d, s, x->dst, x->sst, x->nblocks, pe);
        break;
    case BLOCKED:
        x->ctx ? f->ctx_ibget(c, d, s, x->dst, x->sst, x->bsize, x->nblocks, pe)
               : f->ibget(d, s, x->dst, x->sst, x->bsize, x->nblocks, pe);
        break;
    }
}

static const char *const kind_names[] = {"contig", "contig nbi", "strided", "blocked"};

/* Checks region (of REG_ELEMS elements) against the reference applied to a
 * zero image with the source pattern of PE `from`. */
static void check_region(const char *what, const struct family *f, size_t xi,
                         const uint8_t *region, int from)
{
    uint8_t src[SRC_ELEMS * 16], image[REG_ELEMS * 16];
    size_t rbytes = REG_ELEMS * f->elem;
    rma_fill(src, SRC_ELEMS * f->elem, from, (unsigned)f->elem);
    memset(image, 0, rbytes);
    reference(&xfers[xi], f->elem, image, src);
    char label[160];
    snprintf(label, sizeof label, "%s %s shape %zu (%s%s) from PE %d", f->name, what, xi,
             xfers[xi].ctx ? "ctx " : "", kind_names[xfers[xi].kind], from);
    rma_check_bytes(label, region, image, rbytes);
}

/* Every family and shape: puts to the right neighbour and to self into
 * distinct regions, one quiet, then gets from both into private memory. */
START_TEST(test_sized_shapes)
{
    RMA_BEGIN();
    int me = shmem_my_pe(), right = rma_right(), left = rma_left();
    size_t max_reg = REG_ELEMS * 16, max_src = SRC_ELEMS * 16;
    /* [family][target 0: from left, 1: from self][shape][region] */
    size_t per_family = 2 * N_XFERS * max_reg;
    uint8_t *dst = shmem_calloc(N_FAMILIES, per_family);
    uint8_t *src = shmem_malloc(N_FAMILIES * max_src);
    uint8_t *local_src = malloc(max_src);
    uint8_t *local = malloc(max_reg);
    ck_assert_ptr_nonnull(dst);
    ck_assert_ptr_nonnull(src);
    for (size_t fi = 0; fi < N_FAMILIES; fi++)
        rma_fill(src + fi * max_src, SRC_ELEMS * families[fi].elem, me,
                 (unsigned)families[fi].elem);
    shmem_barrier_all();

    for (size_t fi = 0; fi < N_FAMILIES; fi++) {
        const struct family *f = &families[fi];
        rma_fill(local_src, SRC_ELEMS * f->elem, me, (unsigned)f->elem);
        for (int k = 0; k < 2; k++)
            for (size_t xi = 0; xi < N_XFERS; xi++)
                if (applies(f, &xfers[xi]))
                    do_put(f, &xfers[xi], dst + fi * per_family + (k * N_XFERS + xi) * max_reg,
                           local_src, k ? me : right);
    }
    check_quiet();
    shmem_barrier_all();
    for (size_t fi = 0; fi < N_FAMILIES; fi++)
        for (int k = 0; k < 2; k++)
            for (size_t xi = 0; xi < N_XFERS; xi++)
                if (applies(&families[fi], &xfers[xi]))
                    check_region(k ? "put to self" : "put", &families[fi], xi,
                                 dst + fi * per_family + (k * N_XFERS + xi) * max_reg,
                                 k ? me : left);

    for (size_t fi = 0; fi < N_FAMILIES; fi++)
        for (int k = 0; k < 2; k++)
            for (size_t xi = 0; xi < N_XFERS; xi++) {
                if (!applies(&families[fi], &xfers[xi]))
                    continue;
                memset(local, 0, max_reg);
                do_get(&families[fi], &xfers[xi], local, src + fi * max_src, k ? me : right);
                check_quiet(); /* completes the nbi gets */
                check_region(k ? "get from self" : "get", &families[fi], xi, local,
                             k ? me : right);
            }
    shmem_barrier_all();
    free(local);
    free(local_src);
    shmem_free(src);
    shmem_free(dst);
    RMA_END();
}
END_TEST

/* Zero-length transfers are no-ops: with NULL pointers, and with real
 * symmetric pointers whose contents must stay as they were. */
START_TEST(test_zero_length)
{
    RMA_BEGIN();
    int me = shmem_my_pe(), right = rma_right();
    shmem_ctx_t c = shmem_check_ctx;
    uint8_t *sym = shmem_malloc(64);
    uint8_t loc[64], src[64];
    memset(sym, 0x5A, 64);
    memset(loc, 0x3C, 64);
    memset(src, 0x77, 64);
    shmem_barrier_all();
    for (int k = 0; k < 2; k++) {
        int pe = k ? me : right;
        for (size_t fi = 0; fi < N_FAMILIES; fi++) {
            const struct family *f = &families[fi];
            for (int real = 0; real < 2; real++) {
                void *d = real ? (void *)sym : NULL;
                void *l = real ? (void *)loc : NULL;
                const void *s = real ? (const void *)src : NULL;
                f->put(d, s, 0, pe);
                f->put_nbi(d, s, 0, pe);
                f->ctx_put(c, d, s, 0, pe);
                f->ctx_put_nbi(c, d, s, 0, pe);
                f->get(l, real ? sym : NULL, 0, pe);
                f->get_nbi(l, real ? sym : NULL, 0, pe);
                f->ctx_get(c, l, real ? sym : NULL, 0, pe);
                f->ctx_get_nbi(c, l, real ? sym : NULL, 0, pe);
                if (f->iput == NULL)
                    continue;
                f->iput(d, s, 1, 1, 0, pe);
                f->iget(l, real ? sym : NULL, 2, 3, 0, pe);
                f->ctx_iput(c, d, s, 3, 2, 0, pe);
                f->ctx_iget(c, l, real ? sym : NULL, 1, 1, 0, pe);
                f->ibput(d, s, 1, 1, 0, 5, pe); /* empty blocks */
                f->ibput(d, s, 4, 4, 2, 0, pe); /* no blocks */
                f->ibget(l, real ? sym : NULL, 1, 1, 0, 5, pe);
                f->ibget(l, real ? sym : NULL, 4, 4, 2, 0, pe);
                f->ctx_ibput(c, d, s, 1, 1, 0, 0, pe);
                f->ctx_ibget(c, l, real ? sym : NULL, 1, 1, 0, 0, pe);
            }
        }
        /* The typed forms too. */
        shmem_long_put(NULL, NULL, 0, pe);
        shmem_long_get(NULL, NULL, 0, pe);
        shmem_ctx_double_put_nbi(c, NULL, NULL, 0, pe);
        shmem_ctx_double_get_nbi(c, NULL, NULL, 0, pe);
        shmem_int_iput(NULL, NULL, 1, 1, 0, pe);
        shmem_char_ibget(NULL, NULL, 1, 1, 0, 0, pe);
    }
    check_quiet();
    shmem_barrier_all();
    for (int i = 0; i < 64; i++) {
        if (sym[i] != 0x5A)
            rma_fail("symmetric byte %d changed to 0x%02x by a zero-length transfer", i, sym[i]);
        if (loc[i] != 0x3C)
            rma_fail("local byte %d changed to 0x%02x by a zero-length get", i, loc[i]);
    }
    shmem_barrier_all();
    shmem_free(sym);
    RMA_END();
}
END_TEST

#define BIG ((size_t)16 << 20)

/* 16 MiB putmem/getmem, blocking and nbi, aligned and at odd offsets. */
START_TEST(test_large)
{
    RMA_BEGIN();
    int me = shmem_my_pe(), right = rma_right(), left = rma_left();
    uint8_t *dst = shmem_malloc(BIG + 64);
    uint8_t *src = shmem_malloc(BIG);
    uint8_t *a = malloc(BIG), *b = malloc(BIG);
    ck_assert_ptr_nonnull(dst);
    ck_assert_ptr_nonnull(src);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    rma_fill(src, BIG, me, 3);
    rma_fill(a, BIG, me, 1);
    rma_fill(b, BIG, me, 2);
    memset(dst, 0, BIG + 64);
    shmem_barrier_all();

    /* Blocking put: the source may be reused as soon as it returns. */
    shmem_putmem(dst, a, BIG, right);
    memset(a, 0xEE, BIG);
    shmem_barrier_all();
    rma_check_fill("16 MiB putmem", dst, BIG, left, 1);
    shmem_barrier_all();

    /* nbi put at an odd offset over part of the first one. */
    const size_t off = 3, len = BIG - 5;
    shmem_putmem_nbi(dst + off, b, len, right);
    check_quiet();
    shmem_barrier_all();
    rma_check_fill("16 MiB putmem_nbi", dst + off, len, left, 2);
    {
        uint8_t head[3], tail[2 + 64] = {0};
        rma_fill(head, sizeof head, left, 1);
        rma_check_bytes("bytes before the 16 MiB putmem_nbi", dst, head, sizeof head);
        /* the last 2 bytes of the first put, then the untouched 64 */
        tail[0] = rma_byte(left, 1, off + len);
        tail[1] = rma_byte(left, 1, off + len + 1);
        rma_check_bytes("bytes after the 16 MiB putmem_nbi", dst + off + len, tail,
                        sizeof tail);
    }

    /* Blocking get, then an nbi get at odd offsets on both sides. */
    shmem_getmem(a, src, BIG, right);
    rma_check_fill("16 MiB getmem", a, BIG, right, 3);
    memset(b, 0, BIG);
    shmem_getmem_nbi(b + 1, src + 5, BIG - 7, right);
    check_quiet();
    {
        /* b[1 + k] holds byte 5 + k of the right neighbour's pattern */
        uint8_t *ref = calloc(1, BIG);
        for (size_t k = 0; k < BIG - 7; k++)
            ref[1 + k] = rma_byte(right, 3, 5 + k);
        rma_check_bytes("16 MiB getmem_nbi at odd offsets", b, ref, BIG);
        free(ref);
    }
    /* Typed large transfer through 16-byte elements. */
    shmem_get128(a, src, BIG / 16, me);
    rma_check_fill("16 MiB get128 from self", a, BIG, me, 3);
    shmem_barrier_all();
    free(a);
    free(b);
    shmem_free(src);
    shmem_free(dst);
    RMA_END();
}
END_TEST

/* nbi gets from every PE outstanding together; one quiet completes all. */
START_TEST(test_nbi_gets_complete_at_quiet)
{
    RMA_BEGIN();
    int me = shmem_my_pe(), n = shmem_n_pes();
    const size_t chunk = (size_t)1 << 20;
    uint8_t *src = shmem_malloc(chunk);
    uint8_t *dst = malloc(chunk * (size_t)n * 2);
    ck_assert_ptr_nonnull(src);
    ck_assert_ptr_nonnull(dst);
    rma_fill(src, chunk, me, 9);
    memset(dst, 0, chunk * (size_t)n * 2);
    shmem_barrier_all();
    for (int p = 0; p < n; p++) {
        int pe = (me + p) % n;
        uint8_t *d = dst + (size_t)pe * 2 * chunk;
        shmem_getmem_nbi(d, src, chunk, pe);
        /* and a second, sized, get of the same data */
        shmem_get64_nbi(d + chunk, src, chunk / 8, pe);
    }
    check_quiet();
    for (int pe = 0; pe < n; pe++) {
        char what[64];
        snprintf(what, sizeof what, "getmem_nbi from PE %d", pe);
        rma_check_fill(what, dst + (size_t)pe * 2 * chunk, chunk, pe, 9);
        snprintf(what, sizeof what, "get64_nbi from PE %d", pe);
        rma_check_fill(what, dst + (size_t)pe * 2 * chunk + chunk, chunk, pe, 9);
    }
    shmem_barrier_all();
    free(dst);
    shmem_free(src);
    RMA_END();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("rma_sized");
    TCase *shapes = tcase_create("shapes");
    tcase_add_test(shapes, test_sized_shapes);
    suite_add_tcase(s, shapes);
    TCase *zero = tcase_create("zero");
    tcase_add_test(zero, test_zero_length);
    suite_add_tcase(s, zero);
    TCase *large = tcase_create("large");
    tcase_add_test(large, test_large);
    tcase_add_test(large, test_nbi_gets_complete_at_quiet);
    suite_add_tcase(s, large);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
