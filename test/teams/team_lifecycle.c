/*
 * team_lifecycle: thousands of teams created and destroyed must not leak
 * communicators or memory.  MPI implementations have a few thousand
 * communicator context ids, so 3000 rounds of three teams would exhaust
 * them if destroy did not free the communicator; resident memory is also
 * checked to stay flat after a warm-up.
 *
 * Oversubscribed runs (more PEs than cores) do fewer rounds: MPI's
 * blocking communicator constructors spin, and each step then waits for a
 * time slice (about 20 ms per team at 4 PEs on 2 cores).
 */
#include <stdio.h>
#include <unistd.h>
#include <shmem.h>
#include <shmem_check.h>


static long resident_kib(void)
{
    long pages = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

START_TEST(create_destroy_thousands)
{
    int npes = shmem_n_pes(), me = shmem_my_pe();
    long ncores = sysconf(_SC_NPROCESSORS_ONLN);
    int rounds = npes <= ncores ? 3000 : 200, warm = rounds / 20;
    long before = 0;
    for (int r = 0; r < rounds; r++) {
        if (r == warm)
            before = resident_kib();
        shmem_team_t even, x, y;
        ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL,
                                                  0, &even), 0);
        ck_assert_int_eq(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &x, NULL, 0, &y), 0);
        ck_assert_int_eq(shmem_team_n_pes(x), me / 2 == (npes - 1) / 2 && npes % 2 ? 1 : 2);
        shmem_team_destroy(even);
        shmem_team_destroy(x);
        shmem_team_destroy(y);
    }
    long growth = resident_kib() - before;
    ck_assert_msg(growth < 4096, "resident memory grew by %ld KiB over %d rounds", growth,
                  rounds - warm);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("team_lifecycle");
    TCase *tc = tcase_create("lifecycle");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, create_destroy_thousands);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
