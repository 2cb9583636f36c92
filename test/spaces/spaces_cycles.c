/*
 * 200 create/allocate/free/destroy cycles leak nothing: the spaces' own
 * count of live MPI communicators and windows returns to where it was,
 * and the process has no more memory mappings than after the first cycles
 * (each leaked shared segment would add one).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include "spaces_common.h"

/* Objects the spaces layer holds (spaces/memory_spaces/space.h). */
typedef struct {
    int spaces, comms, windows;
} counts_t;
extern counts_t mpishmem_space_counts;

static void cycle(int k)
{
    shmem_space_config_t c = sp_config(SHMEM_DEVICE_CPU, (size_t)(k % 4 + 1) << 20);
    shmem_space_t s;
    shmem_team_t t, sub;
    EXPECT(shmem_space_create(&c, &s, &t) == 0, "cycle %d: create", k);
    EXPECT(shmem_team_split_strided(t, 0, 1, 1, NULL, 0, &sub) == 0, "cycle %d: split", k);
    int *p = shmem_space_malloc(s, 4096);
    EXPECT(p != NULL, "cycle %d: malloc", k);
    shmem_int_p(p, k, (shmem_my_pe() + 1) % shmem_n_pes());
    shmem_space_free(s, p);
    shmem_team_destroy(sub);
    shmem_team_destroy(t);
    EXPECT(shmem_space_destroy(s) == 0, "cycle %d: destroy", k);
}

START_TEST(no_leaks)
{
    SP_BEGIN();
    counts_t base = mpishmem_space_counts;
    for (int k = 0; k < 10; k++)
        cycle(k);
    int maps = sp_mappings();
    for (int k = 10; k < 200; k++)
        cycle(k);
    counts_t end = mpishmem_space_counts;
    EXPECT(end.spaces == base.spaces && end.comms == base.comms &&
           end.windows == base.windows, "live spaces/comms/windows %d/%d/%d, were %d/%d/%d",
           end.spaces, end.comms, end.windows, base.spaces, base.comms, base.windows);
    int maps_end = sp_mappings();
    /* MPI may keep a few caches; 190 leaked spaces would add 190+. */
    EXPECT(maps_end - maps < 16, "mappings grew from %d to %d over 190 cycles", maps,
           maps_end);
    SP_END();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("spaces_cycles");
    TCase *tc = tcase_create("cycles");
    tcase_set_timeout(tc, 200);
    tcase_add_test(tc, no_leaks);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
