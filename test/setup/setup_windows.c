/*
 * setup_windows: what shmem_init asks of MPI, and that RMA works after it.
 *
 * The program interposes MPI_Win_create, MPI_Win_allocate and
 * MPI_Comm_split_type (the MPI profiling interface) and counts, up to its
 * first test, the windows made over more than one process (on memory of
 * its own, or on memory MPI allocates: the plan's win_allocate) and the
 * node splits.  Both are blocking
 * collectives that spin in MPICH (3.6 s and 4.6 s at 64 PEs on 2 cores), so
 * shmem_init avoids them where nothing needs them:
 *   - every PE on one node with MPISHMEM_SHM=1: every PE maps every other's
 *     heap and global data, no PE ever reaches them through MPI, so their
 *     windows are over MPI_COMM_SELF (none over several PEs), and the node
 *     communicator is a polled duplicate of the world (no split), since the
 *     launcher says every process is here;
 *   - MPISHMEM_SHM=0 or several nodes: the heap and global data each have
 *     windows over the world (at least 2 over several PEs), and the node is
 *     found by MPI_Comm_split_type.
 * Windows over the world come one per segment, plus 4 per segment for the
 * contexts' lanes only when the program runs at SHMEM_THREAD_MULTIPLE
 * (SETUP_WINDOWS_MULTIPLE=1) and every PE has a core: on pretend nodes
 * (several MPI nodes on one machine) a core of the machine's, not of its MPI
 * node's (4 PEs on two pretend nodes of a 2-core machine: 2 windows).
 * With SETUP_WINDOWS_FAIL_LOCAL=1, PE 1 cannot make a window over itself
 * alone (as Open MPI 4's osc/rdma cannot): every PE must then agree to fall
 * back to windows over the world, or the job would hang or mix windows.
 * Then every PE puts, gets and adds atomically on its neighbours' heap and
 * global data, through the default and a created context: a window over
 * the wrong processes would fail these or MPI would report an invalid rank.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shmem_check.h"
#include "init_multiple.h"
#include "../sync/soft_check.h"

static int wide_windows, node_splits, counting = 1;

static int env_on(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && strcmp(v, "1") == 0;
}

static int fail_local(void)
{
    return env_on("SETUP_WINDOWS_FAIL_LOCAL");
}

/* Whether the n PEs of this node (the whole job) each have a core: 1 yes,
 * 0 no, -1 cannot tell (a cgroup CPU quota, which the library also
 * counts).  Cores are the union of the PEs' affinity masks, as the library
 * counts them: Open MPI binds each of 2 PEs to a core of its own. */
static int core_per_pe(int n)
{
    cpu_set_t m, all;
    int ok = sched_getaffinity(0, sizeof m, &m) == 0, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all_ok)
        return -1;
    MPI_Allreduce(&m, &all, (int)sizeof m, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
    if (CPU_COUNT(&all) < n)
        return 0;
    FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
    char quota[32] = "max";
    if (f != NULL) {
        if (fscanf(f, "%31s", quota) != 1)
            strcpy(quota, "?");
        fclose(f);
    }
    return strcmp(quota, "max") == 0 ? 1 : -1;
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win *win)
{
    int n = 1, rank = 0;
    PMPI_Comm_size(comm, &n);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (counting && n > 1)
        wide_windows++;
    /* Not MPI_COMM_SELF itself: the library's own probes use that one. */
    if (n == 1 && comm != MPI_COMM_SELF && rank == 1 && fail_local()) {
        *win = MPI_WIN_NULL;
        return MPI_ERR_WIN;
    }
    return PMPI_Win_create(base, size, disp_unit, info, comm, win);
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *base,
                     MPI_Win *win)
{
    int n = 1;
    PMPI_Comm_size(comm, &n);
    if (counting && n > 1)
        wide_windows++;
    return PMPI_Win_allocate(size, disp_unit, info, comm, base, win);
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *out)
{
    if (counting)
        node_splits++;
    return PMPI_Comm_split_type(comm, type, key, info, out);
}

static int shm_on(void)
{
    const char *v = getenv("MPISHMEM_SHM");
    return v == NULL || strcmp(v, "0") != 0;
}

/* Whether every PE runs on this machine (one kernel boot), as pretend
 * nodes do: the library then counts the machine's PEs against its cores,
 * whatever MPI nodes the launcher made. 0 where the kernel does not say. */
static int one_machine(void)
{
    unsigned char boot[40] = "", lo[40], hi[40];
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f != NULL) {
        if (fgets((char *)boot, sizeof boot, f) == NULL)
            boot[0] = '\0';
        fclose(f);
    }
    MPI_Allreduce(boot, lo, (int)sizeof boot, MPI_UNSIGNED_CHAR, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(boot, hi, (int)sizeof boot, MPI_UNSIGNED_CHAR, MPI_MAX, MPI_COMM_WORLD);
    return lo[0] != '\0' && memcmp(lo, hi, sizeof lo) == 0; /* the same text everywhere */
}

/* The processes the launcher put on this node, 0 when it does not say. */
static int launcher_local(void)
{
    const char *v = getenv("MPI_LOCALNRANKS");
    if (v == NULL)
        v = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    return v ? atoi(v) : 0;
}

START_TEST(test_init_calls)
{
    counting = 0;
    int n = shmem_n_pes(), shared = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    int local = launcher_local();
    WHERE("%d PEs, %d sharing memory, %d on this node, MPISHMEM_SHM=%d: %d wide windows, "
          "%d splits", n, shared, local, shm_on(), wide_windows, node_splits);
    int lanes = 2; /* the heap and global data, lane 0 */
    if (env_on("SETUP_WINDOWS_MULTIPLE") && (local == n || local == 0 || one_machine())) {
        /* One node, or pretend nodes sharing this machine's cores. */
        int cores = core_per_pe(n);
        lanes = cores == 1 ? 10 : cores == 0 ? 2 : -1; /* -1: either */
    } else if (env_on("SETUP_WINDOWS_MULTIPLE")) {
        lanes = -1; /* nodes of their own: their cores are not counted here */
    }
    if (n == 1 || (shm_on() && shared == n && !fail_local()))
        CHK(wide_windows == 0);
    else if (lanes > 0)
        CHK(wide_windows == lanes);
    else
        CHK(wide_windows == 2 || wide_windows == 10);
    if (local == n)
        CHK(node_splits == 0);
    else if (local > 0)
        CHK(node_splits >= 1);
    CHK_DONE();
}
END_TEST

static long global_words[4];
static long global_count;

START_TEST(test_rma_everywhere)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    long *heap_words = shmem_calloc(4, sizeof(long));
    long *heap_count = shmem_calloc(1, sizeof(long));
    ck_assert_ptr_nonnull(heap_words);
    ck_assert_ptr_nonnull(heap_count);
    shmem_ctx_t ctx;
    ck_assert_int_eq(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx), 0);
    memset(global_words, 0, sizeof global_words);
    global_count = 0;
    shmem_barrier_all();

    long v = 1000 + me;
    shmem_long_put(&heap_words[0], &v, 1, right);
    shmem_long_put(&global_words[0], &v, 1, right);
    shmem_ctx_long_put(ctx, &heap_words[1], &v, 1, right);
    shmem_ctx_long_put(ctx, &global_words[1], &v, 1, right);
    shmem_ctx_quiet(ctx);
    shmem_long_atomic_add(heap_count, 1, 0);
    shmem_long_atomic_add(&global_count, 1, 0);
    long got_heap = shmem_long_atomic_fetch_inc(&heap_words[2], right);
    long got_global = shmem_ctx_long_atomic_fetch_inc(ctx, &global_words[2], right);
    shmem_barrier_all();

    WHERE("PE %d of %d, left %d", me, n, left);
    CHK(got_heap >= 0 && got_global >= 0);
    CHK(heap_words[0] == 1000 + left && global_words[0] == 1000 + left);
    CHK(heap_words[1] == 1000 + left && global_words[1] == 1000 + left);
    CHK(heap_words[2] == 1 && global_words[2] == 1);
    if (me == 0)
        CHK(*heap_count == n && global_count == n);
    CHK(shmem_long_g(&heap_words[0], right) == 1000 + me);
    CHK(shmem_long_g(&global_words[1], right) == 1000 + me);
    int direct = shm_on() && shmem_team_n_pes(SHMEM_TEAM_SHARED) == n;
    if (direct)
        CHK(shmem_ptr(heap_words, right) != NULL && shmem_ptr(global_words, right) != NULL);
    shmem_barrier_all();
    shmem_ctx_destroy(ctx);
    shmem_free(heap_count);
    shmem_free(heap_words);
    CHK_DONE();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("setup_windows");
    TCase *tc = tcase_create("windows");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, test_init_calls);
    tcase_add_test(tc, test_rma_everywhere);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (env_on("SETUP_WINDOWS_MULTIPLE"))
        shmem_check_init_multiple();
    else
        shmem_init();
    return shmem_check_main(make_suite());
}
