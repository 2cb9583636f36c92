/*
 * mpishmem test: the job really spans K nodes that share only a network
 * (test/cluster/cluster.sh).   cluster_view K
 * Fails unless MPI_COMM_TYPE_SHARED splits the job into K nodes of n/K PEs,
 * the library's SHMEM_TEAM_SHARED has n/K PEs, each node has a host name
 * of its own, a file a PE makes in /dev/shm is seen by the PEs of its node
 * and by no other, and puts and an atomic add cross the nodes.  So pretend
 * nodes (one /dev/shm) and a launcher that put every PE on one node fail.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <shmem.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long from_left = -1;
static long count;
static int bad;

/* One write per failure, so lines of several PEs do not interleave. */
#define CHECK(c, ...)                                                        \
    do {                                                                     \
        if (!(c)) {                                                          \
            char msg_[256];                                                  \
            snprintf(msg_, sizeof msg_, __VA_ARGS__);                        \
            printf("FAIL: pe %d: %s\n", me, msg_);                          \
            fflush(stdout);                                                  \
            bad = 1;                                                         \
        }                                                                    \
    } while (0)

int main(int argc, char **argv)
{
    int k = argc > 1 ? atoi(argv[1]) : 0;
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (k < 1 || n % k != 0) {
        printf("FAIL: cluster_view K: K=%d must divide the %d PEs\n", k, n);
        shmem_global_exit(2);
    }
    int ppn = n / k;

    /* Nodes as MPI sees them. */
    MPI_Comm node;
    int lrank, lsize, leaders, wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &lrank);
    MPI_Comm_size(node, &lsize);
    int lead = lrank == 0;
    MPI_Allreduce(&lead, &leaders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(leaders == k, "MPI_COMM_TYPE_SHARED sees %d nodes, not %d", leaders, k);
    CHECK(lsize == ppn, "MPI_COMM_TYPE_SHARED: %d PEs on my node, not %d", lsize, ppn);
    CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == ppn, "SHMEM_TEAM_SHARED has %d PEs, not %d",
          shmem_team_n_pes(SHMEM_TEAM_SHARED), ppn);

    /* Host names: one per node, the same within it. */
    char host[64] = {0}, *all = malloc((size_t)n * 64), *mine = malloc((size_t)lsize * 64);
    gethostname(host, sizeof host - 1);
    MPI_Allgather(host, 64, MPI_CHAR, all, 64, MPI_CHAR, MPI_COMM_WORLD);
    MPI_Allgather(host, 64, MPI_CHAR, mine, 64, MPI_CHAR, node);
    for (int i = 0; i < lsize; i++)
        CHECK(strcmp(mine + 64 * i, host) == 0, "a PE of my node is on host %s, I am on %s",
              mine + 64 * i, host);
    int same = 0;
    for (int i = 0; i < n; i++)
        same += strcmp(all + 64 * i, host) == 0;
    CHECK(same == ppn, "%d PEs on host %s, not %d (host names not one per node)", same, host, ppn);

    /* /dev/shm: each node's own.  A name unique to this job (PE 0's pid). */
    long tag = getpid();
    MPI_Bcast(&tag, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    char prefix[96], path[160];
    snprintf(prefix, sizeof prefix, "mpishmem-cluster-view-%ld-", tag);
    snprintf(path, sizeof path, "/dev/shm/%s%d", prefix, me);
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
    CHECK(fd >= 0, "cannot make %s", path);
    if (fd >= 0)
        close(fd);
    MPI_Barrier(MPI_COMM_WORLD);
    int seen = 0;
    DIR *d = opendir("/dev/shm");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        seen += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d)
        closedir(d);
    CHECK(seen == ppn, "/dev/shm shows %d of this job's files, not my node's %d (shared between nodes?)",
          seen, ppn);
    MPI_Barrier(MPI_COMM_WORLD);
    unlink(path);

    /* Data across the nodes: a ring of puts and an atomic add on PE 0. */
    shmem_long_p(&from_left, me, (me + 1) % n);
    shmem_long_atomic_add(&count, 1, 0);
    shmem_barrier_all();
    CHECK(from_left == (me + n - 1) % n, "from left %ld, not %d", from_left, (me + n - 1) % n);
    if (me == 0)
        CHECK(count == n, "atomic adds counted %ld, not %d", count, n);

    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (lead && !bad)
        printf("cluster_view: host %s: %d of %d PEs, /dev/shm its own, %d nodes\n", host, lsize, n,
               leaders);
    MPI_Comm_free(&node);
    free(all);
    free(mine);
    shmem_finalize();
    return bad;
}
