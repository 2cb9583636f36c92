/*
 * Partial membership: odd PEs hide the CPU from spaces
 * (MPISHMEM_VISIBLE_DEVICES=none, set between MPI_Init and shmem_init), so a
 * dynamic CPU space holds the even PEs only.  Non-members get invalid
 * handles and creation still returns 0 there; members allocate, put, get
 * and run AMOs inside the space team; the default space stays world-wide.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdlib.h>
#include <mpi.h>
#include <shmemx.h>
#include "spaces_common.h"

/* mpishmem's own checks for the collectives (spaces/memory_spaces/space.h). */
int mpishmem_space_check_buffers(const char *routine, shmem_team_t team, const void *a,
                                 const void *b);

START_TEST(partial_cpu_space)
{
    SP_BEGIN();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int member = me % 2 == 0, n_members = (n + 1) / 2;
    /* The default space ignores the setting: it is every PE's. */
    EXPECT(SHMEM_SPACE_DEFAULT == SHMEM_SPACE_CPU && SHMEM_TEAM_CPU == SHMEM_TEAM_WORLD,
           "default CPU space changed by MPISHMEM_VISIBLE_DEVICES");

    shmem_space_config_t c = sp_config(SHMEM_DEVICE_CPU, (size_t)1 << 20);
    shmem_space_t s;
    shmem_team_t t;
    EXPECT(shmem_space_create(&c, &s, &t) == 0, "create returned nonzero");
    if (!member) {
        EXPECT(s == SHMEM_SPACE_INVALID && t == SHMEM_TEAM_INVALID,
               "non-member got valid handles");
        EXPECT(shmem_space_is_available(s) != 0, "available on a non-member");
        EXPECT(shmem_space_destroy(s) == 0, "destroy(INVALID) on a non-member");
    } else {
        EXPECT(s != SHMEM_SPACE_INVALID && shmem_team_is_valid(t), "member handles");
        EXPECT(shmem_team_n_pes(t) == n_members, "team of %d, expected %d",
               shmem_team_n_pes(t), n_members);
        EXPECT(shmem_team_my_pe(t) == me / 2, "team PE %d", shmem_team_my_pe(t));
        for (int i = 0; i < n_members; i++)
            EXPECT(shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD) == 2 * i,
                   "team PE %d is world PE %d", i,
                   shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD));
        shmem_space_cap_t caps = 0;
        shmem_space_get_caps(s, &caps);
        EXPECT(!!(caps & SHMEM_SPACE_CAP_WORLD_ACCESS) == (n == 1),
               "WORLD_ACCESS 0x%llx with %d of %d PEs", (unsigned long long)caps, n_members, n);
        EXPECT(caps & SHMEM_SPACE_CAP_RMA, "no RMA cap");

        /* Members only: allocation, RMA and AMOs by world PE number. */
        long *ring = shmem_space_calloc(s, 2, sizeof(long));
        uint64_t *sum = shmem_space_calloc(s, 1, sizeof(uint64_t));
        int right = shmem_team_translate_pe(t, (shmem_team_my_pe(t) + 1) % n_members,
                                            SHMEM_TEAM_WORLD);
        int first = shmem_team_translate_pe(t, 0, SHMEM_TEAM_WORLD);
        EXPECT(shmem_addr_accessible(ring, right), "member not accessible");
        if (n > 1)
            EXPECT(!shmem_addr_accessible(ring, 1), "non-member PE 1 accessible");
        long v = 100 + me;
        shmem_long_put(&ring[0], &v, 1, right);
        shmem_uint64_atomic_add(sum, (uint64_t)me, first);
        shmem_long_atomic_set(&ring[1], v, right);
        shmem_quiet();
        /* Members synchronize through an allocation (a space-team sync). */
        void *sync = shmem_space_malloc(s, 64);
        int left = shmem_team_translate_pe(t, (shmem_team_my_pe(t) + n_members - 1) % n_members,
                                           SHMEM_TEAM_WORLD);
        EXPECT(ring[0] == 100 + left && ring[1] == 100 + left, "ring %ld %ld, expected %d",
               ring[0], ring[1], 100 + left);
        EXPECT(shmem_long_g(&ring[0], right) == 100 + me, "g from the right neighbour");
        uint64_t expect_sum = 0;
        for (int i = 0; i < n; i += 2)
            expect_sum += (uint64_t)i;
        EXPECT(shmem_uint64_atomic_fetch(sum, first) == expect_sum, "AMO sum");
        /* The collectives' buffer check accepts a team inside the space. */
        EXPECT(mpishmem_space_check_buffers("test", t, ring, sum) == 0, "buffer check");
        shmem_space_free(s, sync);
        shmem_space_free(s, sum);
        shmem_space_free(s, ring);
        EXPECT(shmem_space_destroy(s) != 0, "destroy with the team live");
        shmem_team_destroy(t);
        EXPECT(shmem_space_destroy(s) == 0, "destroy");
    }
    /* Everybody again: the world was never blocked by the space. */
    shmem_barrier_all();
    SP_END();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("spaces_partial");
    TCase *tc = tcase_create("partial");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, partial_cpu_space);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    /* The program owns MPI, so it can choose each PE's devices first. */
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 2)
        setenv("MPISHMEM_VISIBLE_DEVICES", "none", 1);
    shmem_init();
    int failures = shmem_check_run(make_suite());
    shmem_finalize();
    MPI_Finalize();
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
