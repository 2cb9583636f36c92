/*
 * Raw MPI, no mpishmem: every process ORs its own 4 bits into one 64-bit
 * word of process 0 (MPI_Fetch_and_op, MPI_BOR, then a flush), on a window
 * made by MPI_Win_create, as the library makes its heap and globals
 * windows.  After a barrier the word must hold every process's bits.
 * Open MPI 5.0.7's osc/rdma (its one-node and TCP choice when UCX finds no
 * network device) keeps only one process's bits; on an MPI_Win_allocate
 * window, and with MPI_SUM, it is right (docs/checks.md, "What CI runs on
 * which MPI").  Prints "acc_bor: ok" or what the word held; exit 1 then.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int me, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    uint64_t *word = calloc(1, 4096);
    MPI_Win win;
    MPI_Win_create(word, 4096, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    uint64_t mine = (uint64_t)0xf << (4 * me), old, now, want = 0;
    MPI_Fetch_and_op(&mine, &old, MPI_UINT64_T, 0, 0, MPI_BOR, win);
    MPI_Win_flush(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Fetch_and_op(NULL, &now, MPI_UINT64_T, 0, 0, MPI_NO_OP, win);
    MPI_Win_flush(0, win);
    for (int i = 0; i < n; i++)
        want |= (uint64_t)0xf << (4 * i);
    MPI_Win_unlock_all(win);
    int bad = now != want, any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (bad)
        printf("acc_bor: process %d of %d: word 0x%llx after every process's MPI_BOR, "
               "want 0x%llx\n", me, n, (unsigned long long)now, (unsigned long long)want);
    else if (me == 0 && !any)
        printf("acc_bor: ok\n");
    MPI_Win_free(&win);
    free(word);
    MPI_Finalize();
    return any;
}
