/*
 * mpishmem benchmarks: the raw MPI routes for 8-byte operations, one
 * function per route, on a window the caller opened (passive epoch for the
 * whole run, lock_all).  mpi_routes.c times them alone; oshbench.c times
 * them inside the same launch as the OpenSHMEM rows, so the floor under a
 * figure sees the same load and placement as the figure.
 *
 * Every route issues from the caller to route_target; the target must be
 * inside MPI meanwhile (RMA completes only while it polls).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_BENCH_MPI_ROUTE_OPS_H
#define MPISHMEM_BENCH_MPI_ROUTE_OPS_H

#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include "bench_time.h"

static MPI_Win route_win;
static int route_target = 1;
/* > 0: the target computes this long between its MPI_Test calls (a PE
 * computing that enters MPI now and then: BENCH_WAIT=compute). */
static double route_compute_ns;
static uint64_t route_src = 1, route_res, route_cmp, route_bounce[64];

#define ROUTE_PUT(buf) MPI_Put(buf, 8, MPI_BYTE, route_target, 0, 8, MPI_BYTE, route_win)
#define ROUTE_GET() MPI_Get(&route_res, 8, MPI_BYTE, route_target, 0, 8, MPI_BYTE, route_win)
#define ROUTE_FOP(op) \
    MPI_Fetch_and_op(&route_src, &route_res, MPI_UINT64_T, route_target, 0, op, route_win)
#define ROUTE_ACC(op) \
    MPI_Accumulate(&route_src, 1, MPI_UINT64_T, route_target, 0, 1, MPI_UINT64_T, op, route_win)
#define ROUTE_FLUSH() MPI_Win_flush(route_target, route_win)
#define ROUTE_FLUSH_LOCAL() MPI_Win_flush_local(route_target, route_win)

static void route_put_flush(int n) { for (int i = 0; i < n; i++) { ROUTE_PUT(&route_src); ROUTE_FLUSH(); } }
static void route_put_flush_local(int n) { for (int i = 0; i < n; i++) { ROUTE_PUT(&route_src); ROUTE_FLUSH_LOCAL(); } ROUTE_FLUSH(); }
/* Bounce: copy the source into a ring and return; flush when the ring wraps. */
static void route_put_bounce(int n)
{
    unsigned k = 0;
    for (int i = 0; i < n; i++) {
        if (k == 64) { ROUTE_FLUSH(); k = 0; }
        route_bounce[k] = route_src;
        ROUTE_PUT(&route_bounce[k++]);
    }
    ROUTE_FLUSH();
}
/* n puts, one flush: the floor of shmem_p in a loop and of the put rate. */
static void route_put_nbi(int n) { for (int i = 0; i < n; i++) ROUTE_PUT(&route_src); ROUTE_FLUSH(); }
static void route_get_flush(int n) { for (int i = 0; i < n; i++) { ROUTE_GET(); ROUTE_FLUSH(); } }
static void route_get_flush_local(int n) { for (int i = 0; i < n; i++) { ROUTE_GET(); ROUTE_FLUSH_LOCAL(); } }
static void route_rget_wait(int n)
{
    for (int i = 0; i < n; i++) {
        MPI_Request r;
        MPI_Rget(&route_res, 8, MPI_BYTE, route_target, 0, 8, MPI_BYTE, route_win, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
}
static void route_fop_noop_flush_local(int n) { for (int i = 0; i < n; i++) { MPI_Fetch_and_op(NULL, &route_res, MPI_UINT64_T, route_target, 0, MPI_NO_OP, route_win); ROUTE_FLUSH_LOCAL(); } }
static void route_fop_noop_flush(int n) { for (int i = 0; i < n; i++) { MPI_Fetch_and_op(NULL, &route_res, MPI_UINT64_T, route_target, 0, MPI_NO_OP, route_win); ROUTE_FLUSH(); } }
static void route_fop_flush(int n) { for (int i = 0; i < n; i++) { ROUTE_FOP(MPI_SUM); ROUTE_FLUSH(); } }
static void route_fop_flush_local(int n) { for (int i = 0; i < n; i++) { ROUTE_FOP(MPI_SUM); ROUTE_FLUSH_LOCAL(); } }
static void route_cas_flush_local(int n)
{
    for (int i = 0; i < n; i++) {
        MPI_Compare_and_swap(&route_src, &route_cmp, &route_res, MPI_UINT64_T, route_target, 0,
                             route_win);
        ROUTE_FLUSH_LOCAL();
    }
}
static void route_cas_flush(int n)
{
    for (int i = 0; i < n; i++) {
        MPI_Compare_and_swap(&route_src, &route_cmp, &route_res, MPI_UINT64_T, route_target, 0,
                             route_win);
        ROUTE_FLUSH();
    }
}
static void route_acc_post(int n) { for (int i = 0; i < n; i++) ROUTE_ACC(MPI_SUM); ROUTE_FLUSH(); }
static void route_acc_flush(int n) { for (int i = 0; i < n; i++) { ROUTE_ACC(MPI_SUM); ROUTE_FLUSH(); } }
static void route_fop_post(int n) { for (int i = 0; i < n; i++) ROUTE_FOP(MPI_SUM); ROUTE_FLUSH(); }
/* Bandwidth: n puts (gets) of route_bw_bytes from (into) route_bw_buf,
 * one flush, as a loop of shmem_putmem_nbi (getmem_nbi) and a quiet. */
static size_t route_bw_bytes = 8;
static char *route_bw_buf;
static void route_put_bw(int n)
{
    for (int i = 0; i < n; i++)
        MPI_Put(route_bw_buf, (int)route_bw_bytes, MPI_BYTE, route_target, 0, (int)route_bw_bytes,
                MPI_BYTE, route_win);
    ROUTE_FLUSH();
}
static void route_get_bw(int n)
{
    for (int i = 0; i < n; i++)
        MPI_Get(route_bw_buf, (int)route_bw_bytes, MPI_BYTE, route_target, 0, (int)route_bw_bytes,
                MPI_BYTE, route_win);
    ROUTE_FLUSH();
}
/* The same with the MPI operation of the bitwise AMOs and of set/swap: an
 * MPI may run them on another path than sums (osc/ucx does). */
static void route_fop_band_flush(int n) { for (int i = 0; i < n; i++) { ROUTE_FOP(MPI_BAND); ROUTE_FLUSH(); } }
static void route_fop_band_flush_local(int n) { for (int i = 0; i < n; i++) { ROUTE_FOP(MPI_BAND); ROUTE_FLUSH_LOCAL(); } }
static void route_fop_replace_flush(int n) { for (int i = 0; i < n; i++) { ROUTE_FOP(MPI_REPLACE); ROUTE_FLUSH(); } }
static void route_fop_replace_flush_local(int n) { for (int i = 0; i < n; i++) { ROUTE_FOP(MPI_REPLACE); ROUTE_FLUSH_LOCAL(); } }
static void route_acc_band_post(int n) { for (int i = 0; i < n; i++) ROUTE_ACC(MPI_BAND); ROUTE_FLUSH(); }
static void route_acc_replace_post(int n) { for (int i = 0; i < n; i++) ROUTE_ACC(MPI_REPLACE); ROUTE_FLUSH(); }
static void route_cas_self_flush_local(int n)
{
    for (int i = 0; i < n; i++) {
        MPI_Compare_and_swap(&route_src, &route_cmp, &route_res, MPI_UINT64_T, 0, 0, route_win);
        MPI_Win_flush_local(0, route_win);
    }
}

/* Median ns per operation of fn: rank 0 times `iters` calls (after a
 * warm-up) in each of `reps` samples while route_target polls MPI until
 * told to stop; the others only join the barriers.  Sorts s[reps]. */
/* Message routes (the AMO request route, mpi_backend/data_path/amo_am.c): a 32-byte
 * request the target answers from its polling loop, with 8 bytes
 * (fetching) or not at all (posted; the last one is answered, so the time
 * includes delivery). */
#define ROUTE_REQ_TAG 8
#define ROUTE_ANS_TAG 9
static uint64_t route_req[4];
static void route_msg_fetch(int n)
{
    for (int i = 0; i < n; i++) {
        MPI_Request r;
        route_req[0] = 1;
        MPI_Irecv(&route_res, 8, MPI_BYTE, route_target, ROUTE_ANS_TAG, MPI_COMM_WORLD, &r);
        MPI_Send(route_req, 32, MPI_BYTE, route_target, ROUTE_REQ_TAG, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
}
static void route_msg_post(int n)
{
    route_req[0] = 0;
    for (int i = 0; i < n - 1; i++)
        MPI_Send(route_req, 32, MPI_BYTE, route_target, ROUTE_REQ_TAG, MPI_COMM_WORLD);
    route_msg_fetch(1);
}

static inline double mpi_route_measure(void (*fn)(int), int iters, int reps, double *s)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == 0) {
            fn(iters / 10 + 1);
            double t0 = bench_now_ns();
            fn(iters);
            s[r] = (bench_now_ns() - t0) / iters;
            MPI_Send(NULL, 0, MPI_BYTE, route_target, 7, MPI_COMM_WORLD);
        } else if (me == route_target) {
            MPI_Request q, req = MPI_REQUEST_NULL;
            int done = 0, serve = fn == route_msg_fetch || fn == route_msg_post;
            uint64_t in[4];
            MPI_Irecv(NULL, 0, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &q);
            if (serve)
                MPI_Irecv(in, 32, MPI_BYTE, 0, ROUTE_REQ_TAG, MPI_COMM_WORLD, &req);
            while (!done) {
                if (route_compute_ns > 0)
                    bench_compute(route_compute_ns);
                MPI_Test(&q, &done, MPI_STATUS_IGNORE);
                int got = 0;
                while (serve && (MPI_Test(&req, &got, MPI_STATUS_IGNORE), got)) {
                    route_res += 1; /* the "atomic" */
                    if (in[0])
                        MPI_Send(&route_res, 8, MPI_BYTE, 0, ROUTE_ANS_TAG, MPI_COMM_WORLD);
                    MPI_Irecv(in, 32, MPI_BYTE, 0, ROUTE_REQ_TAG, MPI_COMM_WORLD, &req);
                }
            }
            if (serve) {
                MPI_Cancel(&req);
                MPI_Wait(&req, MPI_STATUS_IGNORE);
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return me == 0 ? bench_median(s, reps) : 0;
}

struct mpi_route { const char *name; void (*fn)(int); };
static const struct mpi_route mpi_routes[] = {
    {"put+flush", route_put_flush}, {"put+flush_local", route_put_flush_local},
    {"put_bounce64", route_put_bounce}, {"put_nbi_rate", route_put_nbi},
    {"get+flush", route_get_flush}, {"get+flush_local", route_get_flush_local},
    {"rget+wait", route_rget_wait}, {"fop_noop+flush_local", route_fop_noop_flush_local},
    {"fop_noop+flush", route_fop_noop_flush},
    {"fop_sum+flush", route_fop_flush}, {"fop_sum+flush_local", route_fop_flush_local},
    {"cas+flush_local", route_cas_flush_local}, {"cas+flush", route_cas_flush},
    {"acc_sum_post", route_acc_post}, {"acc_sum+flush", route_acc_flush},
    {"fop_sum_post", route_fop_post}, {"fop_band+flush", route_fop_band_flush},
    {"fop_band+flush_local", route_fop_band_flush_local},
    {"fop_replace+flush", route_fop_replace_flush},
    {"fop_replace+flush_local", route_fop_replace_flush_local},
    {"acc_band_post", route_acc_band_post}, {"acc_replace_post", route_acc_replace_post},
    {"cas_self+flush_local", route_cas_self_flush_local},
    {"msg_fetch", route_msg_fetch}, {"msg_post", route_msg_post},
};
#define N_MPI_ROUTES (sizeof mpi_routes / sizeof mpi_routes[0])

/* The window hint sets the floors are measured with; "ours" is what
 * mpi_backend/memory/window.c passes. */
struct mpi_route_hints { const char *name; const char *kv[4][2]; };
static const struct mpi_route_hints mpi_route_hint_sets[] = {
    {"none", {{0}}},
    {"ours", {{"same_disp_unit", "true"}, {"accumulate_ordering", "none"},
              {"which_accumulate_ops", "sum,band,bor,bxor,replace,no_op,cswap"}}},
    {"ours+disable_shm_acc", {{"same_disp_unit", "true"}, {"accumulate_ordering", "none"},
              {"which_accumulate_ops", "sum,band,bor,bxor,replace,no_op,cswap"},
              {"disable_shm_accumulate", "true"}}},
    {"disable_shm_acc", {{"disable_shm_accumulate", "true"}}},
};

static inline MPI_Info mpi_route_info(const struct mpi_route_hints *h)
{
    MPI_Info info;
    MPI_Info_create(&info);
    for (int j = 0; j < 4 && h->kv[j][0]; j++)
        MPI_Info_set(info, h->kv[j][0], h->kv[j][1]);
    return info;
}

#endif
