/*
 * Small collectives of a team on one node, which go through the slots of
 * its node-shared object (lib/coll/coll_small.c, docs/collectives.md,
 * "Small collectives"), checked in rounds with values that change every
 * round: reductions, both scans, fcollect, collect (every part small, and
 * one part too big for a slot, which sends every PE past the slots: to the
 * direct copies of lib/coll/coll_large.c, or MPI's path) and broadcast, at
 * sizes just inside and just outside a slot, on the world team and on a
 * team of every other PE.
 *
 * PE 1 is held 2 ms inside every MPI_Reduce_local it calls (interposed
 * below; the library combines complex numbers with it): after the
 * barrier, while it is still reading the slots, the other PEs run ahead
 * into the next collective.  With one set of slots
 * instead of two alternating ones they would overwrite what PE 1 has yet
 * to read, and its sums would come out wrong.  With MPISHMEM_SHM=0 (MPI's
 * collectives) the same checks run on the MPI path; with MPISHMEM_YIELD=1
 * (coll_smallyield) every PE waits as when PEs outnumber cores, which
 * sends the smallest broadcast through a slot too, and on Open MPI makes
 * the barrier its flags on any machine.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <complex.h>
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int held_pe = -1; /* world rank held in MPI_Reduce_local while set */

int MPI_Reduce_local(const void *in, void *inout, int count, MPI_Datatype dt, MPI_Op op)
{
    int me = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == held_pe)
        usleep(2000);
    return PMPI_Reduce_local(in, inout, count, dt, op);
}

#define SLOT_LONGS 64 /* MPISHMEM_NODE_SLOT / sizeof(long) */
#define ROUNDS 12

static long errors;
/* The library's own polled gathers (lib/coll/collect.c) carry up to
 * 8 KiB in all: the sizes below straddle that too. */
#define POLLED_GATHER_LONGS 1024
#define BIG_PART 1100 /* longs: one part that takes the total past it */
static long src[POLLED_GATHER_LONGS + 1], dst[16 * 2 * SLOT_LONGS], big[BIG_PART];
static long err_sum, err_all;
#define CSLOT 32 /* MPISHMEM_NODE_SLOT / sizeof(double complex) */
static double complex csrc[CSLOT], cdst[CSLOT];

static void expect(long got, long want, const char *what, int round, int k)
{
    if (got != want && errors++ < 5)
        fprintf(stderr, "coll_small: PE %d: %s round %d element %d: %ld, expected %ld\n",
                shmem_my_pe(), what, round, k, got, want);
}

/* Every check on team t (me, n: this PE's number and the team's size). */
static void run(shmem_team_t t, const char *name)
{
    int me = shmem_team_my_pe(t), n = shmem_team_n_pes(t);
    static const size_t reduce_sizes[] = {1, SLOT_LONGS, SLOT_LONGS + 1};
    for (int r = 0; r < ROUNDS; r++) {
        for (size_t z = 0; z < sizeof reduce_sizes / sizeof *reduce_sizes; z++) {
            size_t m = reduce_sizes[z];
            for (size_t k = 0; k < m; k++)
                src[k] = (long)(me + 1) * (r + 1) + (long)k;
            shmem_long_sum_reduce(t, dst, src, m);
            for (size_t k = 0; k < m; k++)
                expect(dst[k], (long)(r + 1) * n * (n + 1) / 2 + n * (long)k, name, r, (int)k);
            /* In place, max. */
            for (size_t k = 0; k < m; k++)
                dst[k] = (long)((me + r) % n) * 3 + (long)k;
            shmem_long_max_reduce(t, dst, dst, m);
            for (size_t k = 0; k < m; k++)
                expect(dst[k], (long)(n - 1) * 3 + (long)k, "max in place", r, (int)k);
        }
        /* Complex sums: not one of the types the library combines itself,
         * so they go through MPI_Reduce_local, where PE 1 is held. */
        for (int k = 0; k < CSLOT; k++)
            csrc[k] = (double)((me + 1) * (r + 1)) + (double)k * I;
        shmem_complexd_sum_reduce(t, cdst, csrc, CSLOT);
        for (int k = 0; k < CSLOT; k++) {
            double complex want = (double)((r + 1) * n * (n + 1) / 2) + (double)(n * k) * I;
            if (cdst[k] != want && errors++ < 5)
                fprintf(stderr, "coll_small: PE %d: complex sum round %d element %d: %g%+gi, "
                        "expected %g%+gi\n", shmem_my_pe(), r, k, creal(cdst[k]),
                        cimag(cdst[k]), creal(want), cimag(want));
        }
        /* Scans: PE me contributes me + r + 1. */
        src[0] = me + r + 1;
        shmem_long_sum_inscan(t, dst, src, 1);
        expect(dst[0], (long)(me + 1) * (me + 2) / 2 + (long)(me + 1) * r, "inscan", r, 0);
        shmem_long_sum_exscan(t, dst, src, 1);
        expect(dst[0], (long)me * (me + 1) / 2 + (long)me * r, "exscan", r, 0);
        /* fcollect of 8 and of SLOT_LONGS + 1 longs, and of as many as
         * make the total just 8 KiB or just over it. */
        size_t fsizes[] = {8, SLOT_LONGS + 1, POLLED_GATHER_LONGS / n,
                           POLLED_GATHER_LONGS / n + 1};
        for (int z = 0; z < 4; z++) {
            size_t m = fsizes[z];
            for (size_t k = 0; k < m; k++)
                src[k] = me * 1000 + r * 10 + (long)k;
            shmem_long_fcollect(t, dst, src, m);
            for (int p = 0; p < n; p++)
                for (size_t k = 0; k < m; k++)
                    expect(dst[(size_t)p * m + k], p * 1000 + r * 10 + (long)k, "fcollect", r,
                           (int)k);
        }
        /* collect: PE p gives p % 3 + 1 longs; in odd rounds PE 0 gives
         * 100, in every fourth BIG_PART. */
#define PART(p) (r % 4 == 3 && (p) == 0 ? BIG_PART                                        \
                 : r % 2 && (p) == 0    ? 100                                             \
                                        : (size_t)((p) % 3 + 1))
        size_t mine = PART(me);
        for (size_t k = 0; k < mine; k++)
            big[k] = me * 1000 + r * 10 + (long)k;
        shmem_long_collect(t, dst, big, mine);
        size_t at = 0;
        for (int p = 0; p < n; p++) {
            size_t len = PART(p);
            for (size_t k = 0; k < len; k++)
                expect(dst[at + k], p * 1000 + r * 10 + (long)k, "collect", r, (int)k);
            at += len;
        }
        /* broadcast of 16 longs (MPI's while every PE has a core, a slot
         * when PEs outnumber cores) and of 48 (a slot) from PE r % n, the
         * root's dest written too. */
        int root = r % n;
        for (int m = 16; m <= 48; m += 32) {
            for (int k = 0; k < m; k++) {
                src[k] = root * 100 + r + k;
                dst[k] = -1;
            }
            shmem_long_broadcast(t, dst, src, (size_t)m, root);
            for (int k = 0; k < m; k++)
                expect(dst[k], root * 100 + r + k, "broadcast", r, k);
        }
    }
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    held_pe = 1;
    run(SHMEM_TEAM_WORLD, "sum (world)");
    shmem_team_t evens;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &evens);
    if (evens != SHMEM_TEAM_INVALID) {
        held_pe = 2; /* the even team's second PE */
        run(evens, "sum (even PEs)");
        shmem_team_destroy(evens);
    }
    held_pe = -1;
    err_sum = errors;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &err_all, &err_sum, 1);
    if (me == 0)
        printf("coll_small: %s (%d PEs, %ld errors)\n", err_all ? "FAILED" : "passed", n,
               err_all);
    shmem_finalize();
    return err_all ? 1 : 0;
}
