/* A failed check prints where and why, and is counted; the program decides
 * at the end how to report the count (MPI may or may not be usable then). */
#ifndef MPISHMEM_TEST_INTEROP_CHECK_H
#define MPISHMEM_TEST_INTEROP_CHECK_H

#include <mpi.h>
#include <stdio.h>

static int interop_failures;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);       \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
            interop_failures++;                                                            \
        }                                                                                  \
    } while (0)

/* The program's own MPI windows over memory the library also exposes (a
 * global array, symmetric memory), made after shmem_init: every rank puts
 * into its right neighbour's window, and each must find exactly its left
 * neighbour's value at the right place.  MPICH < 4.1 on UCX once put these
 * at the start of the library's window instead (quirks.c). */
static void interop_user_windows(long *global8, long *sym8, const char *what)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long *areas[2] = {global8, sym8};
    const char *names[2] = {"global", "symmetric"};
    for (int a = 0; a < 2; a++) {
        long *mem = areas[a];
        for (int i = 0; i < 8; i++)
            mem[i] = -1;
        MPI_Win win;
        MPI_Win_create(mem + 2, 4 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
                       &win);
        MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
        long v = 500 + rank;
        int right = (rank + 1) % size;
        MPI_Put(&v, 1, MPI_LONG, right, 1, 1, MPI_LONG, win);
        MPI_Win_flush(right, win);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_unlock_all(win);
        MPI_Win_free(&win);
        long want = 500 + (rank + size - 1) % size;
        for (int i = 0; i < 8; i++)
            CHECK(mem[i] == (i == 3 ? want : -1),
                  "%s: program's MPI window over %s memory, element %d is %ld (expected %ld)",
                  what, names[a], i, mem[i], i == 3 ? want : -1L);
    }
}

#endif
