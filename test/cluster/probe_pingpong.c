/* Plain MPI, no SHMEM: what MPI itself costs between the cluster's nodes
 * (test/cluster, docs/mpi-quirks.md "Between namespace nodes").
 *   probe_pingpong [ITERS]
 * Ranks 0 and the last rank (on another node when the job spans nodes)
 * bounce 8 bytes with MPI_Send/MPI_Recv, then rank 0 does MPI_Put +
 * MPI_Win_flush of 8 bytes to the last rank on an MPI_Win_allocate window.
 * Prints the median round trip of each in microseconds; exits 1 when a
 * value arrives wrong. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 200;
    int rank, size, bad = 0;
    char host[MPI_MAX_PROCESSOR_NAME], peerhost[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);
    int peer = rank == 0 ? size - 1 : 0;
    double *t = malloc(sizeof(double) * (size_t)iters);
    long v = 0;
    if (size < 2) {
        fprintf(stderr, "probe_pingpong: needs 2 ranks or more\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0 || rank == size - 1) {
        MPI_Sendrecv(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, peer, 9, peerhost,
                     MPI_MAX_PROCESSOR_NAME, MPI_CHAR, peer, 9, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        for (int i = 0; i < iters; i++) {
            double t0 = MPI_Wtime();
            if (rank == 0) {
                v = i;
                MPI_Send(&v, 1, MPI_LONG, peer, 1, MPI_COMM_WORLD);
                MPI_Recv(&v, 1, MPI_LONG, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                bad |= v != i + 1;
            } else {
                MPI_Recv(&v, 1, MPI_LONG, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                v++;
                MPI_Send(&v, 1, MPI_LONG, peer, 1, MPI_COMM_WORLD);
            }
            t[i] = MPI_Wtime() - t0;
        }
    }
    qsort(t, (size_t)iters, sizeof(double), cmp);
    double pp = t[iters / 2];
    long *base;
    MPI_Win win;
    MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    *base = -1;
    MPI_Win_lock_all(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        for (int i = 0; i < iters; i++) {
            long x = i;
            double t0 = MPI_Wtime();
            MPI_Put(&x, 1, MPI_LONG, size - 1, 0, 1, MPI_LONG, win);
            MPI_Win_flush(size - 1, win);
            t[i] = MPI_Wtime() - t0;
        }
        qsort(t, (size_t)iters, sizeof(double), cmp);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    if (rank == size - 1 && *base != iters - 1) {
        fprintf(stderr, "probe_pingpong: put left %ld, not %d\n", *base, iters - 1);
        bad = 1;
    }
    MPI_Win_unlock_all(win);
    if (rank == 0)
        printf("probe_pingpong: %s <-> %s: send/recv round trip %.1f us, put+flush %.1f us (median of %d)\n",
               host, peerhost, pp * 1e6, t[iters / 2] * 1e6, iters);
    MPI_Win_free(&win);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    free(t);
    MPI_Finalize();
    return bad;
}
