/*
 * Ordering and completion: shmem_fence orders puts to one PE; shmem_quiet
 * and shmem_pe_quiet complete nbi puts; shmem_barrier_all and
 * shmem_sync_all + quiet make puts visible; a blocking get after a put to
 * the same location returns the new value.
 *
 * The ring protocol: each round, every PE puts a payload to its right
 * neighbour, orders it (fence or quiet), then puts a flag.  The receiver
 * waits for the flag, checks the whole payload, and acknowledges, so the
 * sender never overwrites a payload still being checked.  Without the
 * ordering call the flag may overtake the payload (the MPI path does not
 * order puts), so these tests can fail.
 */
#include <stdlib.h>
#include <shmem.h>
#include "rma_common.h"

#define LARGE ((size_t)1 << 20)

/* Global (static) targets: always reached through MPI from other PEs. */
static uint8_t global_data[LARGE + 64] __attribute__((aligned(64)));
static long global_flag, global_ack;

enum order { FENCE, CTX_FENCE, QUIET, CTX_QUIET, PE_QUIET };

static void order(enum order how, int pe)
{
    switch (how) {
    case FENCE: shmem_fence(); break;
    case CTX_FENCE: shmem_ctx_fence(SHMEM_CTX_DEFAULT); break;
    case QUIET: shmem_quiet(); break;
    case CTX_QUIET: shmem_ctx_quiet(SHMEM_CTX_DEFAULT); break;
    case PE_QUIET: shmem_pe_quiet(&pe, 1); break;
    }
}

/* How the payload of a round is put. */
enum send { BLOCKING, CHUNKED, NBI };

/* Puts `bytes` of payload to data on pe: one putmem, several puts of
 * different routines, or nbi puts. */
static void send_payload(enum send how, uint8_t *data, const uint8_t *src, size_t bytes,
                         int pe)
{
    switch (how) {
    case BLOCKING:
        shmem_putmem(data, src, bytes, pe);
        break;
    case CHUNKED: {
        /* first part as 8-byte elements, the rest in two nbi pieces */
        size_t words = bytes / 16, half = (bytes - words * 8) / 2;
        shmem_put64(data, src, words, pe);
        shmem_putmem_nbi(data + words * 8, src + words * 8, half, pe);
        shmem_put8_nbi(data + words * 8 + half, src + words * 8 + half,
                       bytes - words * 8 - half, pe);
        break;
    }
    case NBI:
        shmem_putmem_nbi(data, src, bytes, pe);
        break;
    }
}

/* For the pe_quiet test: every round also puts SIDE bytes nbi to the PE
 * two to the right, which pe_quiet of the right neighbour leaves alone. */
#define SIDE ((size_t)64 << 10)
static uint8_t *side_dst;
static const uint8_t *side_src;

struct ring {
    uint8_t *data; /* symmetric payload destination */
    long *flag;    /* symmetric: set by the left neighbour */
    long *ack;     /* symmetric: set by the right neighbour */
};

/* rounds rounds of: payload, order, flag; wait; check; ack. size(r) gives
 * the payload bytes of round r.  Collective: resets the flags first. */
static void ring_rounds(const char *what, struct ring ring, int rounds,
                        size_t (*size)(int), enum send send, enum order how)
{
    int me = shmem_my_pe(), right = rma_right(), left = rma_left();
    uint8_t *src = malloc(LARGE);
    ck_assert_ptr_nonnull(src);
    *ring.flag = 0;
    *ring.ack = 0;
    shmem_barrier_all();
    for (int r = 1; r <= rounds; r++) {
        size_t bytes = size(r);
        rma_fill(src, bytes, me, (unsigned)r);
        send_payload(send, ring.data, src, bytes, right);
        if (side_dst)
            shmem_putmem_nbi(side_dst, side_src, SIDE, (me + 2) % shmem_n_pes());
        order(how, right);
        shmem_long_p(ring.flag, r, right);
        shmem_long_wait_until(ring.flag, SHMEM_CMP_GE, r);
        if (*ring.flag != r)
            rma_fail("%s round %d: flag is %ld", what, r, *ring.flag);
        char label[96];
        snprintf(label, sizeof label, "%s round %d (%zu bytes)", what, r, bytes);
        rma_check_fill(label, ring.data, bytes, left, (unsigned)r);
        shmem_long_p(ring.ack, r, left);
        /* Once acknowledged, the payload was delivered, so src (even of an
         * nbi put) may be refilled. */
        shmem_long_wait_until(ring.ack, SHMEM_CMP_GE, r);
    }
    shmem_barrier_all();
    free(src);
}

/* Fresh symmetric ring buffers on the heap, or the global ones. */
static struct ring heap_ring(void)
{
    struct ring r = {shmem_malloc(LARGE + 64), shmem_malloc(sizeof(long)),
                     shmem_malloc(sizeof(long))};
    ck_assert_ptr_nonnull(r.data);
    return r;
}

static void free_ring(struct ring r)
{
    shmem_free(r.ack);
    shmem_free(r.flag);
    shmem_free(r.data);
}

static struct ring global_ring(void)
{
    return (struct ring){global_data, &global_flag, &global_ack};
}

static size_t small_size(int r) { return 1 + (size_t)(r * 37) % 300; }
static size_t large_size(int r) { return LARGE - (size_t)(r % 3) * 8; }

START_TEST(test_fence_small)
{
    RMA_BEGIN();
    struct ring h = heap_ring();
    ring_rounds("fence small heap", h, 40, small_size, BLOCKING, FENCE);
    ring_rounds("ctx fence small heap chunked", h, 30, small_size, CHUNKED, CTX_FENCE);
    free_ring(h);
    ring_rounds("fence small global", global_ring(), 30, small_size, BLOCKING, FENCE);
    RMA_END();
}
END_TEST

START_TEST(test_fence_large)
{
    RMA_BEGIN();
    struct ring h = heap_ring();
    ring_rounds("fence 1 MiB heap", h, 4, large_size, BLOCKING, FENCE);
    ring_rounds("fence 1 MiB heap chunked", h, 4, large_size, CHUNKED, CTX_FENCE);
    free_ring(h);
    ring_rounds("fence 1 MiB global", global_ring(), 4, large_size, CHUNKED, FENCE);
    RMA_END();
}
END_TEST

/* Payload on the heap and flag in a global, and the other way round: the
 * fence must order puts through different windows. */
START_TEST(test_fence_heap_and_global)
{
    RMA_BEGIN();
    struct ring h = heap_ring();
    struct ring heap_data = {h.data, &global_flag, &global_ack};
    ring_rounds("heap payload, global flag", heap_data, 25, small_size, BLOCKING, FENCE);
    ring_rounds("heap 1 MiB, global flag", heap_data, 3, large_size, NBI, FENCE);
    struct ring global_data_ring = {global_data, h.flag, h.ack};
    ring_rounds("global payload, heap flag", global_data_ring, 25, small_size, BLOCKING,
                FENCE);
    ring_rounds("global 1 MiB, heap flag", global_data_ring, 3, large_size, CHUNKED, FENCE);
    free_ring(h);
    RMA_END();
}
END_TEST

/* quiet completes nbi puts: 1 MiB put_nbi, quiet, then the flag. */
START_TEST(test_quiet_completes_nbi)
{
    RMA_BEGIN();
    struct ring h = heap_ring();
    ring_rounds("quiet nbi 1 MiB heap", h, 4, large_size, NBI, QUIET);
    ring_rounds("ctx quiet nbi small heap", h, 25, small_size, NBI, CTX_QUIET);
    free_ring(h);
    ring_rounds("quiet nbi 1 MiB global", global_ring(), 4, large_size, NBI, QUIET);
    RMA_END();
}
END_TEST

/* pe_quiet of the target PE completes the nbi puts to it, while nbi puts
 * to another PE stay outstanding until a later quiet. */
START_TEST(test_pe_quiet_subset)
{
    RMA_BEGIN();
    int me = shmem_my_pe(), n = shmem_n_pes();
    uint8_t *src = malloc(SIDE);
    ck_assert_ptr_nonnull(src);
    rma_fill(src, SIDE, me, 1000);
    side_src = src;
    side_dst = shmem_calloc(1, SIDE);
    ck_assert_ptr_nonnull(side_dst);
    struct ring h = heap_ring();
    ring_rounds("pe_quiet nbi 1 MiB heap", h, 3, large_size, NBI, PE_QUIET);
    ring_rounds("pe_quiet nbi small heap", h, 25, small_size, CHUNKED, PE_QUIET);
    ring_rounds("pe_quiet nbi 1 MiB global", global_ring(), 3, large_size, NBI, PE_QUIET);
    free_ring(h);
    /* A list of several PEs, and an empty list (a no-op). */
    shmem_putmem_nbi(side_dst, side_src, SIDE, (me + 2) % n);
    int both[2] = {(me + 2) % n, me};
    shmem_pe_quiet(both, 2);
    shmem_pe_quiet(NULL, 0);
    shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, both, 1);
    shmem_quiet();
    shmem_barrier_all();
    rma_check_fill("side nbi puts, completed by quiet", side_dst, SIDE, (me + n - 2) % n, 1000);
    shmem_barrier_all();
    shmem_free(side_dst);
    side_dst = NULL;
    free(src);
    RMA_END();
}
END_TEST

/* barrier_all completes and makes visible blocking and nbi puts; sync_all
 * does after a quiet. */
START_TEST(test_barrier_and_sync_visibility)
{
    RMA_BEGIN();
    int me = shmem_my_pe(), right = rma_right(), left = rma_left();
    uint8_t *heap = shmem_malloc(LARGE);
    uint8_t *src_a = malloc(LARGE), *src_b = malloc(LARGE);
    ck_assert_ptr_nonnull(heap);
    for (int r = 1; r <= 6; r++) {
        size_t bytes = r % 2 ? LARGE : small_size(r);
        rma_fill(src_a, bytes, me, (unsigned)r);
        rma_fill(src_b, bytes, me, (unsigned)r + 100);
        int sync = r > 3;
        shmem_putmem(heap, src_a, bytes, right);
        shmem_putmem_nbi(global_data, src_b, bytes, right);
        if (sync) {
            shmem_quiet();
            shmem_sync_all();
        } else {
            shmem_barrier_all();
        }
        char label[64];
        snprintf(label, sizeof label, "%s round %d heap", sync ? "sync_all" : "barrier_all", r);
        rma_check_fill(label, heap, bytes, left, (unsigned)r);
        snprintf(label, sizeof label, "%s round %d global", sync ? "sync_all" : "barrier_all", r);
        rma_check_fill(label, global_data, bytes, left, (unsigned)r + 100);
        shmem_barrier_all(); /* checked before the next round writes */
    }
    free(src_a);
    free(src_b);
    shmem_free(heap);
    RMA_END();
}
END_TEST

/* A blocking get after a blocking put to the same remote location, from
 * the same PE, returns the new value (heap and global, right and self). */
START_TEST(test_get_after_put)
{
    RMA_BEGIN();
    int me = shmem_my_pe();
    uint8_t *heap = shmem_malloc(LARGE);
    uint8_t *src = malloc(LARGE), *back = malloc(LARGE);
    ck_assert_ptr_nonnull(heap);
    shmem_barrier_all();
    /* Only this PE writes the right neighbour's buffers (and its own). */
    for (int k = 0; k < 2; k++) {
        int pe = k ? me : rma_right();
        shmem_barrier_all(); /* everyone is done with the previous target */
        for (int r = 1; r <= 20; r++) {
            uint8_t *dst = r % 2 ? heap : global_data;
            const char *where = r % 2 ? "heap" : "global";
            size_t bytes = r % 5 == 0 ? LARGE : small_size(r);
            rma_fill(src, bytes, me, (unsigned)r);
            shmem_putmem(dst, src, bytes, pe);
            shmem_getmem(back, dst, bytes, pe);
            char label[80];
            snprintf(label, sizeof label, "getmem after putmem (%s, PE %d, round %d)", where,
                     pe, r);
            rma_check_bytes(label, back, src, bytes);
            long *lp = (long *)(dst + 8);
            shmem_long_p(lp, 7L * r + k, pe);
            if (shmem_long_g(lp, pe) != 7L * r + k)
                rma_fail("long_g after long_p (%s, PE %d, round %d)", where, pe, r);
            int *ip = (int *)(dst + 64);
            int vals[4] = {r, -r, 2 * r, -2 * r}, got[4] = {0};
            shmem_int_iput(ip, vals, 3, 1, 4, pe);
            shmem_int_iget(got, ip, 1, 3, 4, pe);
            if (memcmp(got, vals, sizeof vals) != 0)
                rma_fail("int_iget after int_iput (%s, PE %d, round %d)", where, pe, r);
            /* nbi put, then quiet, then a blocking get */
            shmem_int_put_nbi(ip, vals + 1, 3, pe);
            shmem_quiet();
            shmem_int_get(got, ip, 3, pe);
            if (memcmp(got, vals + 1, 3 * sizeof(int)) != 0)
                rma_fail("int_get after put_nbi + quiet (%s, PE %d, round %d)", where, pe, r);
        }
    }
    shmem_barrier_all();
    free(src);
    free(back);
    shmem_free(heap);
    RMA_END();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("rma_ordering");
    TCase *tc = tcase_create("ordering");
    tcase_add_test(tc, test_fence_small);
    tcase_add_test(tc, test_fence_large);
    tcase_add_test(tc, test_fence_heap_and_global);
    tcase_add_test(tc, test_quiet_completes_nbi);
    tcase_add_test(tc, test_pe_quiet_subset);
    tcase_add_test(tc, test_barrier_and_sync_visibility);
    tcase_add_test(tc, test_get_after_put);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
