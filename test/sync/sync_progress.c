/*
 * A PE blocked in a wait must not stall RMA aimed at it: while one target
 * waits for flags, every other PE makes many puts and gets to and from the
 * target's heap and global variables, and only then raises its flag.  With
 * MPISHMEM_SHM=0 every one of those operations needs MPI to progress at the
 * waiting target.  Then ping-pong between PE pairs with p + wait_until.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "shmem_check.h"
#include "soft_check.h"

#define MAXPE 16
#define REGION 1024 /* longs each worker owns in a target's buffers */
#define NSMALL 200  /* single-element puts per worker and memory kind */
#define NGETS 40     /* single-element gets per worker and memory kind: each one
                      * needs the waiting target to progress (with SHM=0) */

static long glob_dst[MAXPE][REGION];
static long glob_src[REGION];
static int glob_flags[MAXPE];

static long value(int pe, int i) { return (long)pe * 100000 + i; }

/* Worker side: hammer target t's memory, then raise this PE's flags. */
static void work_on(int t, long *hdst, const long *hsrc, int *hflags)
{
    int me = shmem_my_pe();
    long buf[REGION];
    long *hmine = hdst + (size_t)me * REGION, *gmine = glob_dst[me];
    WHERE("worker %d -> target %d", me, t);
    for (int i = 0; i < NSMALL; i++) {
        shmem_long_p(&hmine[i], value(me, i), t);
        shmem_long_p(&gmine[i], value(me, i), t);
        if (i < NGETS) {
            CHK(shmem_long_g(&hsrc[i], t) == value(t, i));
            CHK(shmem_long_g(&glob_src[REGION - 1 - i], t) == value(t, REGION - 1 - i));
        }
    }
    for (int i = NSMALL; i < REGION; i++)
        buf[i] = value(me, i);
    shmem_long_put(&hmine[NSMALL], &buf[NSMALL], REGION - NSMALL, t);
    shmem_long_put(&gmine[NSMALL], &buf[NSMALL], REGION - NSMALL, t);
    shmem_long_get(buf, hsrc, REGION, t);
    for (int i = 0; i < REGION; i++)
        CHK(buf[i] == value(t, i));
    shmem_long_get(buf, glob_src, REGION, t);
    for (int i = 0; i < REGION; i++)
        CHK(buf[i] == value(t, i));
    shmem_quiet(); /* all data is in place before the flags say so */
    shmem_int_p(&hflags[me], 1, t);
    shmem_int_p(&glob_flags[me], 1, t);
}

START_TEST(test_waiting_target_serves_rma)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    ck_assert_int_le(n, MAXPE);
    long *hdst = shmem_malloc((size_t)n * REGION * sizeof(long));
    long *hsrc = shmem_malloc(REGION * sizeof(long));
    int *hflags = shmem_malloc((size_t)n * sizeof(int));
    int status[MAXPE];
    for (int i = 0; i < REGION; i++)
        hsrc[i] = glob_src[i] = value(me, i);

    for (int t = 0; t < n; t++) {
        for (int w = 0; w < n; w++) {
            hflags[w] = glob_flags[w] = 0;
            status[w] = n > 1 && w == t; /* the target does not work on itself */
            for (int i = 0; i < REGION; i++)
                hdst[(size_t)w * REGION + i] = glob_dst[w][i] = -1;
        }
        shmem_barrier_all();
        if (me != t || n == 1)
            work_on(t, hdst, hsrc, hflags);
        if (me == t) {
            for (int w = 0; w < n; w++)
                if (!status[w])
                    shmem_int_wait_until(&hflags[w], SHMEM_CMP_EQ, 1);
            shmem_int_wait_until_all(glob_flags, (size_t)n, status, SHMEM_CMP_EQ, 1);
            for (int w = 0; w < n; w++) {
                WHERE("target %d checks worker %d", t, w);
                for (int i = 0; i < REGION; i++) {
                    long want = status[w] ? -1 : value(w, i);
                    CHK(hdst[(size_t)w * REGION + i] == want);
                    CHK(glob_dst[w][i] == want);
                }
            }
        }
        shmem_barrier_all();
    }
    shmem_free(hflags);
    shmem_free(hsrc);
    shmem_free(hdst);
    CHK_DONE();
}
END_TEST

/* ---- Ping-pong ------------------------------------------------------------
 * PEs 2k and 2k+1 are partners; an odd PE count leaves the last PE as its
 * own partner.  Each ping carries a payload into the partner's heap and
 * each pong one into the initiator's global array, ordered by a fence. */
#define ROUNDS 150
#define PAYLOAD 8
static long glob_back[PAYLOAD];
static long glob_pong;

START_TEST(test_ping_pong)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int partner = (me ^ 1) < n ? (me ^ 1) : me;
    int initiator = me % 2 == 0, self = partner == me;
    long *ping = shmem_malloc(sizeof(long));
    long *data = shmem_malloc(PAYLOAD * sizeof(long));
    long out[PAYLOAD];
    *ping = glob_pong = 0;
    shmem_barrier_all();
    for (long r = 1; r <= ROUNDS; r++) {
        WHERE("PE %d round %ld", me, r);
        if (initiator) {
            for (int k = 0; k < PAYLOAD; k++)
                out[k] = r * PAYLOAD + k;
            shmem_long_put(data, out, PAYLOAD, partner);
            shmem_fence();
            shmem_long_p(ping, r, partner);
        }
        if (!initiator || self) {
            shmem_long_wait_until(ping, SHMEM_CMP_GE, r);
            CHK(*ping == r);
            for (int k = 0; k < PAYLOAD; k++) {
                CHK(data[k] == r * PAYLOAD + k);
                out[k] = -(r * PAYLOAD + k);
            }
            shmem_long_put(glob_back, out, PAYLOAD, partner);
            shmem_fence();
            shmem_long_p(&glob_pong, r, partner);
        }
        if (initiator) {
            shmem_long_wait_until(&glob_pong, SHMEM_CMP_EQ, r);
            for (int k = 0; k < PAYLOAD; k++)
                CHK(glob_back[k] == -(r * PAYLOAD + k));
        }
    }
    shmem_barrier_all();
    shmem_free(data);
    shmem_free(ping);
    CHK_DONE();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("sync_progress");
    TCase *tc = tcase_create("progress");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, test_waiting_target_serves_rma);
    tcase_add_test(tc, test_ping_pong);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
