/*
 * A space's windows freed right after RMA through MPI: 25 cycles of
 * create, a long put, 20,000 short ones, a get and a fetch-add to the
 * next PE, quiet, check, destroy.  Open MPI 5 carries RMA between PEs of a node as
 * active messages whose fragments come back after the operation is
 * answered; one that came back after its window was freed ran a callback
 * on freed memory and crashed a later MPI call, MPI_Finalize most often
 * (docs/mpi-quirks.md).  MALLOC_PERTURB_ (meson.build) makes freed memory
 * garbage, so such a callback crashes rather than reading stale values.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <shmem.h>
#include "spaces_common.h"

#define LONG_BYTES (256 * 1024)
#define CYCLES 25
#define SMALL_PUTS 20000

static void cycle(int k, char *src)
{
    int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n;
    shmem_space_config_t c = sp_config(SHMEM_DEVICE_CPU, (size_t)2 << 20);
    shmem_space_t s;
    shmem_team_t t;
    EXPECT(shmem_space_create(&c, &s, &t) == 0, "cycle %d: create", k);
    char *buf = shmem_space_malloc(s, LONG_BYTES);
    long *word = shmem_space_calloc(s, 2, sizeof(long));
    EXPECT(buf != NULL && word != NULL, "cycle %d: malloc", k);
    for (size_t i = 0; i < LONG_BYTES; i++)
        src[i] = (char)(i * 7 + (size_t)me + (size_t)k);
    shmem_barrier_all();
    shmem_putmem(buf, src, LONG_BYTES, next);
    /* Many small puts: the fragments still to come back pile up. */
    for (int i = 0; i < SMALL_PUTS; i++)
        shmem_long_p(&word[0], 1000L * k + me + i, next);
    shmem_long_p(&word[0], 1000L * k + me, next);
    long before = shmem_long_atomic_fetch_add(&word[1], 1, next);
    char back[64];
    shmem_quiet();
    shmem_getmem(back, buf, sizeof back, next);
    shmem_barrier_all();
    int prev = (me + n - 1) % n;
    long bad = 0;
    for (size_t i = 0; i < LONG_BYTES; i++)
        bad += buf[i] != (char)(i * 7 + (size_t)prev + (size_t)k);
    EXPECT(bad == 0, "cycle %d: %ld bytes of PE %d's put wrong", k, bad, prev);
    EXPECT(word[0] == 1000L * k + prev, "cycle %d: p gave %ld", k, word[0]);
    EXPECT(before == 0 && word[1] == 1, "cycle %d: fetch-add %ld then %ld", k, before,
           word[1]);
    for (size_t i = 0; i < sizeof back; i++)
        EXPECT(back[i] == (char)(i * 7 + (size_t)me + (size_t)k), "cycle %d: get byte %zu", k,
               i);
    shmem_space_free(s, word);
    shmem_space_free(s, buf);
    shmem_team_destroy(t);
    EXPECT(shmem_space_destroy(s) == 0, "cycle %d: destroy", k);
}

START_TEST(free_after_rma)
{
    SP_BEGIN();
    char *src = malloc(LONG_BYTES);
    ck_assert_ptr_nonnull(src);
    for (int k = 0; k < CYCLES; k++)
        cycle(k, src);
    free(src);
    SP_END();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("spaces_free_after_rma");
    TCase *tc = tcase_create("cycles");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, free_after_rma);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
