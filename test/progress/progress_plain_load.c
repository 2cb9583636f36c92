/*
 * Progress with no library call on the receiving side (docs/progress.md).
 *
 * OpenSHMEM 1.6 expects other PEs' operations to complete without the
 * target calling the library.  Receivers here poll their own memory with
 * plain atomic loads and call nothing, as bale's conveyors do; where RMA
 * reaches them through MPI (MPISHMEM_SHM=0, other nodes) and MPI serves
 * it only while the target is inside MPI, the sender's fence (its flush)
 * never returns and the flag is never seen, unless the library drives MPI
 * for them (its progress thread, on by default there).
 *
 * - plain_flag: PE 2k puts 64 bytes into PE 2k+1, fences and puts a flag;
 *   PE 2k+1 spins on the flag with __atomic_load_n and no SHMEM call, then
 *   checks the bytes.
 * - conveyor: every PE sends ROUNDS buffers to its right neighbour: the
 *   bytes, shmem_fence, then the round number into the receiver's flag;
 *   the receiver polls the flag with plain loads, checks the bytes and
 *   acknowledges with a put into the sender's ack word, which the sender
 *   polls with plain loads before the next round.  Nobody waits inside the
 *   library.
 * Each wait gives up after GIVE_UP_S (a hang would otherwise cost the
 * test's whole timeout) and fails; typical times are printed.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "shmem_check.h"
#include "../sync/soft_check.h"

#define BYTES 64
#define ROUNDS 50
#define GIVE_UP_S 10.0

struct slot {
    long flag;
    long ack;
    unsigned char data[BYTES];
};
static struct slot *slot; /* symmetric heap */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Spins on *word with plain atomic loads (no library call) until it holds
 * want; returns the seconds waited, or -1 after GIVE_UP_S. */
static double spin_until(const long *word, long want)
{
    double t0 = now_s(), t = 0;
    while (__atomic_load_n(word, __ATOMIC_ACQUIRE) != want)
        if ((t = now_s() - t0) > GIVE_UP_S)
            return -1;
    return now_s() - t0;
}

static void fill(unsigned char *buf, int from, int round)
{
    for (int i = 0; i < BYTES; i++)
        buf[i] = (unsigned char)(from * 31 + round * 7 + i);
}

static int same(const unsigned char *buf, int from, int round)
{
    unsigned char want[BYTES];
    fill(want, from, round);
    return memcmp(buf, want, BYTES) == 0;
}

START_TEST(test_plain_flag)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    memset(slot, 0, sizeof *slot);
    shmem_barrier_all();
    if (me % 2 == 0 && me + 1 < n) {
        unsigned char buf[BYTES];
        fill(buf, me, 1);
        shmem_putmem(slot->data, buf, BYTES, me + 1);
        shmem_fence();
        shmem_long_p(&slot->flag, 1, me + 1);
        shmem_quiet();
    } else if (me % 2 == 1) {
        double t = spin_until(&slot->flag, 1);
        WHERE("PE %d spinning on its flag with plain loads", me);
        CHK(t >= 0);
        CHK(t < 0 || same(slot->data, me - 1, 1));
        printf("PE %d: flag seen by plain loads after %.3f ms\n", me, t * 1e3);
    }
    shmem_barrier_all();
    CHK_DONE();
}
END_TEST

START_TEST(test_conveyor)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    memset(slot, 0, sizeof *slot);
    shmem_barrier_all();
    double t0 = now_s();
    int bad = 0, lost = 0;
    unsigned char buf[BYTES];
    for (int r = 1; r <= ROUNDS && !lost; r++) {
        fill(buf, me, r);
        shmem_putmem(slot->data, buf, BYTES, right);
        shmem_fence();
        shmem_long_p(&slot->flag, r, right);
        /* Receive from the left, acknowledge, then wait for the right's
         * acknowledgement: no library call while waiting. */
        if (spin_until(&slot->flag, r) < 0) {
            lost = 1;
            break;
        }
        bad += !same(slot->data, left, r);
        shmem_long_p(&slot->ack, r, left);
        if (spin_until(&slot->ack, r) < 0)
            lost = 1;
    }
    double t = now_s() - t0;
    WHERE("PE %d in the conveyor exchange", me);
    CHK(!lost);
    CHK(bad == 0);
    printf("PE %d: %d conveyor rounds in %.3f ms (%.3f ms a round)%s\n", me, ROUNDS, t * 1e3,
           t * 1e3 / ROUNDS, lost ? ", LOST" : "");
    shmem_quiet();
    shmem_barrier_all();
    CHK_DONE();
}
END_TEST

static Suite *make_suite(void)
{
    slot = shmem_malloc(sizeof *slot);
    Suite *s = suite_create("progress_plain_load");
    TCase *tc = tcase_create("plain_load");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, test_plain_flag);
    tcase_add_test(tc, test_conveyor);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
