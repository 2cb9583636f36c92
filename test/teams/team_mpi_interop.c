/*
 * team_mpi_interop: the shmemx bridge between teams and MPI communicators.
 *   - the communicator behind a team has the team's PE numbering;
 *   - a team made from a user's communicator (odd/even world PEs, in
 *     reversed order) numbers PEs by communicator rank, and RMA through
 *     translated PE numbers reaches the right PEs;
 *   - invalid inputs give nonzero and SHMEM_TEAM_INVALID.
 */
#include <shmem.h>
#include <shmemx.h>
#include <shmem_check.h>

START_TEST(comm_of_team)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_team_t rev;
    ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0,
                                              &rev), 0);
    MPI_Comm comm;
    ck_assert_int_eq(shmemx_team_get_mpi_comm(rev, &comm), 0);
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    ck_assert_int_eq(rank, shmem_team_my_pe(rev));
    ck_assert_int_eq(size, npes);
    /* An MPI collective on it: the sum of world PE numbers. */
    int sum = 0;
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, comm);
    ck_assert_int_eq(sum, npes * (npes - 1) / 2);
    ck_assert_int_ne(shmemx_team_get_mpi_comm(SHMEM_TEAM_INVALID, &comm), 0);
    shmem_team_destroy(rev);
}
END_TEST

START_TEST(team_of_comm)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    MPI_Comm parity;
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &parity); /* reversed order */
    shmem_team_t t;
    ck_assert_int_eq(shmemx_team_create_from_comm(parity, &t), 0);
    int rank, size;
    MPI_Comm_rank(parity, &rank);
    MPI_Comm_size(parity, &size);
    ck_assert_int_eq(shmem_team_my_pe(t), rank);
    ck_assert_int_eq(shmem_team_n_pes(t), size);
    /* Team PE i is the i-th largest world PE of my parity. */
    int top = (npes - 1) % 2 == me % 2 ? npes - 1 : npes - 2;
    for (int i = 0; i < size; i++)
        ck_assert_int_eq(shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD), top - 2 * i);
    /* Each PE writes its world number to its team neighbour. */
    int *box = shmem_malloc(sizeof *box);
    *box = -1;
    shmem_barrier_all();
    int right = shmem_team_translate_pe(t, (rank + 1) % size, SHMEM_TEAM_WORLD);
    shmem_int_p(box, me, right);
    shmem_barrier_all();
    int left = shmem_team_translate_pe(t, (rank + size - 1) % size, SHMEM_TEAM_WORLD);
    ck_assert_int_eq(*box, left);
    shmem_free(box);
    shmem_team_destroy(t);
    /* The team owned a duplicate: the user's communicator still works. */
    int one = 1, n = 0;
    MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, parity);
    ck_assert_int_eq(n, size);
    MPI_Comm_free(&parity);

    shmem_team_t self;
    ck_assert_int_eq(shmemx_team_create_from_comm(MPI_COMM_SELF, &self), 0);
    ck_assert_int_eq(shmem_team_n_pes(self), 1);
    ck_assert_int_eq(shmem_team_translate_pe(self, 0, SHMEM_TEAM_WORLD), me);
    shmem_team_destroy(self);
    ck_assert_int_ne(shmemx_team_create_from_comm(MPI_COMM_NULL, &self), 0);
    ck_assert_ptr_eq(self, SHMEM_TEAM_INVALID);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("team_mpi_interop");
    TCase *tc = tcase_create("interop");
    tcase_add_test(tc, comm_of_team);
    tcase_add_test(tc, team_of_comm);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
