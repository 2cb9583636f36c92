/* Setup and query routines. */
#include <string.h>
#include "shmem_check.h"

static long global_counter;

START_TEST(test_pe_numbers_match_mpi)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ck_assert_int_eq(shmem_my_pe(), rank);
    ck_assert_int_eq(shmem_n_pes(), size);
    ck_assert_int_eq(_my_pe(), rank);
    ck_assert_int_eq(_num_pes(), size);
}
END_TEST

START_TEST(test_version_and_name)
{
    int major = -1, minor = -1;
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_version(&major, &minor);
    ck_assert_int_eq(major, SHMEM_MAJOR_VERSION);
    ck_assert_int_eq(minor, SHMEM_MINOR_VERSION);
    ck_assert_int_eq(major, 1);
    ck_assert_int_eq(minor, 6);
    shmem_info_get_name(name);
    ck_assert_str_eq(name, SHMEM_VENDOR_STRING);
    ck_assert_int_lt(strlen(name), SHMEM_MAX_NAME_LEN);
}
END_TEST

START_TEST(test_initialized_query)
{
    int init = -1, level = -1;
    ck_assert_int_eq(shmem_query_initialized(&init), 0);
    ck_assert_int_eq(init, 1);
    shmem_query_thread(&level);
    ck_assert_int_eq(level, SHMEM_THREAD_SINGLE);
}
END_TEST

START_TEST(test_accessible)
{
    int n = shmem_n_pes();
    long *heap = shmem_malloc(sizeof(long));
    long local = 0;
    for (int pe = 0; pe < n; pe++) {
        ck_assert_int_eq(shmem_pe_accessible(pe), 1);
        ck_assert_int_eq(shmem_addr_accessible(heap, pe), 1);
        ck_assert_int_eq(shmem_addr_accessible(&global_counter, pe), 1);
        ck_assert_int_eq(shmem_addr_accessible(&local, pe), 0);
    }
    ck_assert_int_eq(shmem_pe_accessible(-1), 0);
    ck_assert_int_eq(shmem_pe_accessible(n), 0);
    ck_assert_int_eq(shmem_addr_accessible(heap, n), 0);
    shmem_free(heap);
}
END_TEST

/* shmem_ptr gives a usable address exactly for the PEs of SHMEM_TEAM_SHARED. */
START_TEST(test_ptr_agrees_with_shared_team)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int *buf = shmem_malloc(sizeof(int));
    *buf = 1000 + me;
    shmem_barrier_all();
    ck_assert_ptr_eq(shmem_ptr(buf, me), buf);
    ck_assert_ptr_eq(shmem_team_ptr(SHMEM_TEAM_WORLD, buf, me), buf);
    int reachable = 0;
    for (int pe = 0; pe < n; pe++) {
        int *p = shmem_ptr(buf, pe);
        if (p != NULL) {
            ck_assert_int_eq(*p, 1000 + pe);
            reachable++;
        }
    }
    /* Count the PEs in the shared team through team_ptr: team PE i must map
     * to a world PE whose buffer holds 1000 + that PE. */
    int shared_count = 0;
    for (int i = 0; i < n; i++) {
        int *p = shmem_team_ptr(SHMEM_TEAM_SHARED, buf, i);
        if (p != NULL) {
            ck_assert_int_ge(*p, 1000);
            shared_count++;
        }
    }
    ck_assert_int_eq(shared_count, reachable);
    const char *shm = getenv("MPISHMEM_SHM");
    if (shm && strcmp(shm, "0") == 0)
        ck_assert_int_eq(reachable, 1);
    else {
        /* Every PE of this node, as MPI sees it (the hybrid runs place PEs
         * on two pretend nodes). */
        MPI_Comm node;
        int node_size;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        MPI_Comm_size(node, &node_size);
        MPI_Comm_free(&node);
        ck_assert_int_eq(reachable, node_size);
    }
    ck_assert_ptr_null(shmem_ptr(buf, n));
    ck_assert_ptr_null(shmem_ptr(buf, -1));
    shmem_barrier_all();
    shmem_free(buf);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("setup");
    TCase *tc = tcase_create("query");
    tcase_add_test(tc, test_pe_numbers_match_mpi);
    tcase_add_test(tc, test_version_and_name);
    tcase_add_test(tc, test_initialized_query);
    tcase_add_test(tc, test_accessible);
    tcase_add_test(tc, test_ptr_agrees_with_shared_team);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
