/*
 * mpi_routes: the MPI calls the library could use for each 8-byte
 * operation, timed on this MPI with plain MPI (no OpenSHMEM), so the route
 * choices in mpi_backend/ rest on numbers.  Rank 0 issues, rank 1 polls MPI
 * (MPI_Test on a receive, never yielding) until rank 0 is done: RMA here
 * completes only while the target polls.
 *
 * For each window kind (MPI_Win_create over static memory like our globals
 * window; MPI_Win_allocate) and each hint set, one CSV line per route:
 *   mpi_routes,<window>,<hints>,<route>,<median ns>
 * Run: mpiexec -n 2 ./mpi_routes   (BENCH_ITERS, BENCH_REPS; ROUTES_KIND,
 * ROUTES_HINTS, ROUTES_ONLY select windows, hint sets and routes;
 * ROUTES_SELF_CAS=1 adds a compare-and-swap on the caller's own window,
 * which crashes Open MPI 4's osc/rdma)
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_time.h"

static int iters = 20000, reps = 7;
static MPI_Win win;
static uint64_t created_mem[512]; /* static, like a global */
static uint64_t src = 1, res, cmpv, bounce[64];

static void put_flush(int n) { for (int i = 0; i < n; i++) { MPI_Put(&src, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, win); MPI_Win_flush(1, win); } }
static void put_flush_local(int n) { for (int i = 0; i < n; i++) { MPI_Put(&src, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, win); MPI_Win_flush_local(1, win); } MPI_Win_flush(1, win); }
/* Bounce: copy the source into a ring and return; flush when the ring wraps. */
static void put_bounce(int n)
{
    unsigned k = 0;
    for (int i = 0; i < n; i++) {
        if (k == 64) { MPI_Win_flush(1, win); k = 0; }
        bounce[k] = src;
        MPI_Put(&bounce[k++], 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, win);
    }
    MPI_Win_flush(1, win);
}
static void put_nbi(int n) { for (int i = 0; i < n; i++) MPI_Put(&src, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, win); MPI_Win_flush(1, win); }
static void get_flush(int n) { for (int i = 0; i < n; i++) { MPI_Get(&res, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, win); MPI_Win_flush(1, win); } }
static void get_flush_local(int n) { for (int i = 0; i < n; i++) { MPI_Get(&res, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, win); MPI_Win_flush_local(1, win); } }
static void rget_wait(int n) { for (int i = 0; i < n; i++) { MPI_Request r; MPI_Rget(&res, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, win, &r); MPI_Wait(&r, MPI_STATUS_IGNORE); } }
static void fop_get_flush_local(int n) { for (int i = 0; i < n; i++) { MPI_Fetch_and_op(NULL, &res, MPI_UINT64_T, 1, 0, MPI_NO_OP, win); MPI_Win_flush_local(1, win); } }
static void fop_flush(int n) { for (int i = 0; i < n; i++) { MPI_Fetch_and_op(&src, &res, MPI_UINT64_T, 1, 0, MPI_SUM, win); MPI_Win_flush(1, win); } }
static void fop_flush_local(int n) { for (int i = 0; i < n; i++) { MPI_Fetch_and_op(&src, &res, MPI_UINT64_T, 1, 0, MPI_SUM, win); MPI_Win_flush_local(1, win); } }
static void cas_flush_local(int n) { for (int i = 0; i < n; i++) { MPI_Compare_and_swap(&src, &cmpv, &res, MPI_UINT64_T, 1, 0, win); MPI_Win_flush_local(1, win); } }
static void acc_post(int n) { for (int i = 0; i < n; i++) MPI_Accumulate(&src, 1, MPI_UINT64_T, 1, 0, 1, MPI_UINT64_T, MPI_SUM, win); MPI_Win_flush(1, win); }
static void acc_flush(int n) { for (int i = 0; i < n; i++) { MPI_Accumulate(&src, 1, MPI_UINT64_T, 1, 0, 1, MPI_UINT64_T, MPI_SUM, win); MPI_Win_flush(1, win); } }
static void fop_post(int n) { for (int i = 0; i < n; i++) MPI_Fetch_and_op(&src, &res, MPI_UINT64_T, 1, 0, MPI_SUM, win); MPI_Win_flush(1, win); }
/* The same with the MPI operation of the bitwise AMOs and of set/swap: an
 * MPI may run them on another path than sums (osc/ucx does). */
static void fop_op_flush(int n, MPI_Op op) { for (int i = 0; i < n; i++) { MPI_Fetch_and_op(&src, &res, MPI_UINT64_T, 1, 0, op, win); MPI_Win_flush(1, win); } }
static void acc_op_post(int n, MPI_Op op) { for (int i = 0; i < n; i++) MPI_Accumulate(&src, 1, MPI_UINT64_T, 1, 0, 1, MPI_UINT64_T, op, win); MPI_Win_flush(1, win); }
static void fop_band_flush(int n) { fop_op_flush(n, MPI_BAND); }
static void fop_replace_flush(int n) { fop_op_flush(n, MPI_REPLACE); }
static void acc_band_post(int n) { acc_op_post(n, MPI_BAND); }
static void acc_replace_post(int n) { acc_op_post(n, MPI_REPLACE); }
static void fop_self_cas(int n) { for (int i = 0; i < n; i++) { MPI_Compare_and_swap(&src, &cmpv, &res, MPI_UINT64_T, 0, 0, win); MPI_Win_flush_local(0, win); } }

struct route { const char *name; void (*fn)(int); };
static const struct route routes[] = {
    {"put+flush", put_flush}, {"put+flush_local", put_flush_local}, {"put_bounce64", put_bounce},
    {"put_nbi_rate", put_nbi}, {"get+flush", get_flush}, {"get+flush_local", get_flush_local},
    {"rget+wait", rget_wait}, {"fop_noop+flush_local", fop_get_flush_local},
    {"fop_sum+flush", fop_flush}, {"fop_sum+flush_local", fop_flush_local},
    {"cas+flush_local", cas_flush_local}, {"acc_sum_post", acc_post}, {"acc_sum+flush", acc_flush},
    {"fop_sum_post", fop_post}, {"fop_band+flush", fop_band_flush},
    {"fop_replace+flush", fop_replace_flush}, {"acc_band_post", acc_band_post},
    {"acc_replace_post", acc_replace_post}, {"cas_self+flush_local", fop_self_cas},
};

/* Rank 0 times fn; rank 1 polls MPI until told to stop. */
static double measure(void (*fn)(int))
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    double s[64];
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == 0) {
            fn(iters / 10 + 1);
            double t0 = bench_now_ns();
            fn(iters);
            s[r] = (bench_now_ns() - t0) / iters;
            MPI_Send(NULL, 0, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
        } else if (me == 1) {
            MPI_Request q;
            int done = 0;
            MPI_Irecv(NULL, 0, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &q);
            while (!done)
                MPI_Test(&q, &done, MPI_STATUS_IGNORE);
        }
    }
    return bench_median(s, reps);
}

static void run(const char *kind, const char *hints, MPI_Info info, int allocate, const char *only)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    void *base;
    if (allocate)
        MPI_Win_allocate(4096, 1, info, MPI_COMM_WORLD, &base, &win);
    else
        MPI_Win_create(created_mem, sizeof created_mem, 1, info, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        if (only && !strstr(only, routes[i].name))
            continue;
        if (strcmp(routes[i].name, "cas_self+flush_local") == 0 && !getenv("ROUTES_SELF_CAS"))
            continue; /* crashes Open MPI 4's osc/rdma: only on request */
        double ns = measure(routes[i].fn);
        if (me == 0)
            printf("mpi_routes,%s,%s,%s,%.1f\n", kind, hints, routes[i].name, ns);
        fflush(stdout);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (getenv("BENCH_ITERS")) iters = atoi(getenv("BENCH_ITERS"));
    if (getenv("BENCH_REPS")) reps = atoi(getenv("BENCH_REPS"));
    if (reps > 63) reps = 63;
    const char *only = getenv("ROUTES_ONLY");
    struct { const char *name; const char *kv[4][2]; } sets[] = {
        {"none", {{0}}},
        {"ours", {{"same_disp_unit", "true"}, {"accumulate_ordering", "none"},
                  {"which_accumulate_ops", "sum,band,bor,bxor,replace,no_op,cswap"}}},
        {"ours+disable_shm_acc", {{"same_disp_unit", "true"}, {"accumulate_ordering", "none"},
                  {"which_accumulate_ops", "sum,band,bor,bxor,replace,no_op,cswap"},
                  {"disable_shm_accumulate", "true"}}},
        {"disable_shm_acc", {{"disable_shm_accumulate", "true"}}},
    };
    /* ROUTES_KIND=create|allocate, ROUTES_HINTS=<set name>: only those. */
    const char *kind = getenv("ROUTES_KIND"), *hints = getenv("ROUTES_HINTS");
    for (int a = 0; a < 2; a++)
        for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
            if ((kind && strcmp(kind, a ? "allocate" : "create") != 0) ||
                (hints && strcmp(hints, sets[k].name) != 0))
                continue;
            MPI_Info info;
            MPI_Info_create(&info);
            for (int j = 0; j < 4 && sets[k].kv[j][0]; j++)
                MPI_Info_set(info, sets[k].kv[j][0], sets[k].kv[j][1]);
            run(a ? "allocate" : "create", sets[k].name, info, a, only);
            MPI_Info_free(&info);
        }
    MPI_Finalize();
    return 0;
}
