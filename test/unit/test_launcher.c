/* The launcher's count of processes on this node (mpi_backend/runtime/launcher_env.c)
 * and the MPI family of a version string (mpi_backend/runtime/mpi_family.c). */
#include <check.h>
#include <stdlib.h>
#include "mpi_backend/runtime/launcher_env.h"
#include "mpi_backend/runtime/mpi_family.h"

static const char *const launcher_vars[] = {
    "MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE", "PMI_LOCAL_SIZE", "SLURM_STEP_ID",
    "SLURM_STEP_TASKS_PER_NODE", "SLURM_TASKS_PER_NODE", "SLURM_NODEID"};

/* Each test starts from no launcher at all (the meson run may be under one). */
static void clear(void)
{
    for (size_t i = 0; i < sizeof launcher_vars / sizeof launcher_vars[0]; i++)
        unsetenv(launcher_vars[i]);
}

START_TEST(test_tasks_list)
{
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node("4", 0), 4);
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node("4", 1), 0);
    const char *l = "2(x3),1";
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node(l, 0), 2);
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node(l, 2), 2);
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node(l, 3), 1);
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node(l, 4), 0);
    l = "1,16(x2),3(x10),7";
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node(l, 0), 1);
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node(l, 1), 16);
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node(l, 2), 16);
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node(l, 3), 3);
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node(l, 12), 3);
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node(l, 13), 7);
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node(l, 14), 0);
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node("128(x4096)", 4095), 128);
}
END_TEST

START_TEST(test_tasks_list_malformed)
{
    static const char *const bad[] = {"", "x", "2(x)", "2(x3", "2(3)", "2(x0)", "0", "-1",
                                      "2,,1", "2,", ",2", "2 ", "2(x3)1", "2;1", "99999999999", "2(x99999999999999999999)"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(mpishmem_slurm_tasks_on_node(bad[i], 0) == 0 &&
                          mpishmem_slurm_tasks_on_node(bad[i], 1) == 0,
                      "'%s' was accepted", bad[i]);
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node(NULL, 0), 0);
    ck_assert_int_eq(mpishmem_slurm_tasks_on_node("2", -1), 0);
}
END_TEST

/* srun -N 4 -n 7: this is node 3 of "2(x3),1". */
static void srun_step(void)
{
    setenv("SLURM_STEP_ID", "0", 1);
    setenv("SLURM_STEP_TASKS_PER_NODE", "2(x3),1", 1);
    setenv("SLURM_TASKS_PER_NODE", "8(x4)", 1);
    setenv("SLURM_NODEID", "3", 1);
}

START_TEST(test_local_size_slurm_step)
{
    clear();
    ck_assert_int_eq(mpishmem_launcher_local_size(), 0);
    srun_step();
    ck_assert_int_eq(mpishmem_launcher_local_size(), 1);
    setenv("SLURM_NODEID", "1", 1);
    ck_assert_int_eq(mpishmem_launcher_local_size(), 2);
    unsetenv("SLURM_STEP_TASKS_PER_NODE"); /* older srun: the same list, other name */
    ck_assert_int_eq(mpishmem_launcher_local_size(), 8);
    setenv("SLURM_NODEID", "4", 1);
    ck_assert_int_eq(mpishmem_launcher_local_size(), 0);
    setenv("SLURM_NODEID", "x", 1);
    ck_assert_int_eq(mpishmem_launcher_local_size(), 0);
    clear();
}
END_TEST

START_TEST(test_local_size_precedence)
{
    clear();
    /* An sbatch script: the allocation's list, no step.  mpiexec there
     * may run any number of processes per node. */
    setenv("SLURM_TASKS_PER_NODE", "8(x4)", 1);
    setenv("SLURM_NODEID", "0", 1);
    ck_assert_int_eq(mpishmem_launcher_local_size(), 0);
    /* An MPI launcher's own count wins over a step's. */
    srun_step();
    setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "5", 1);
    ck_assert_int_eq(mpishmem_launcher_local_size(), 5);
    setenv("MPI_LOCALNRANKS", "6", 1);
    ck_assert_int_eq(mpishmem_launcher_local_size(), 6);
    unsetenv("MPI_LOCALNRANKS");
    unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    setenv("PMI_LOCAL_SIZE", "3", 1);
    ck_assert_int_eq(mpishmem_launcher_local_size(), 3);
    /* Present but unusable: still an MPI launcher, Slurm's list not read. */
    setenv("PMI_LOCAL_SIZE", "", 1);
    ck_assert_int_eq(mpishmem_launcher_local_size(), 0);
    setenv("MPI_LOCALNRANKS", "2x", 1);
    ck_assert_int_eq(mpishmem_launcher_local_size(), 0);
    clear();
}
END_TEST

START_TEST(test_mpi_family)
{
    ck_assert_int_eq(mpishmem_mpi_family_of("Open MPI v4.1.4, package: Debian OpenMPI, ident: "
                                            "4.1.4, repo rev: v4.1.4, May 26, 2022"),
                     'o');
    ck_assert_int_eq(mpishmem_mpi_family_of("Open MPI v5.0.3, package: Open MPI"), 'o');
    ck_assert_int_eq(mpishmem_mpi_family_of("MPICH Version:\t4.0.2\nMPICH Release date:"), 'm');
    ck_assert_int_eq(mpishmem_mpi_family_of("MPICH Version:      3.3.2\n"), 'm');
    ck_assert_int_eq(mpishmem_mpi_family_of("Intel(R) MPI Library 2021.6 for Linux* OS\n"),
                     'm');
    ck_assert_int_eq(mpishmem_mpi_family_of("MVAPICH2 Version      :\t2.3.7\n"), 'm');
    ck_assert_int_eq(mpishmem_mpi_family_of("MPI VERSION    : CRAY MPICH version 8.1.27"), 'm');
    ck_assert_int_eq(mpishmem_mpi_family_of("Some Other MPI 1.0"), 0);
    ck_assert_int_eq(mpishmem_mpi_family_of(""), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("launcher");
    TCase *t = tcase_create("launcher");
    tcase_add_test(t, test_tasks_list);
    tcase_add_test(t, test_tasks_list_malformed);
    tcase_add_test(t, test_local_size_slurm_step);
    tcase_add_test(t, test_local_size_precedence);
    tcase_add_test(t, test_mpi_family);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
