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
 * msg_fetch / msg_post are no RMA: 32-byte requests rank 1 answers from its
 * polling loop (8 bytes back, or none): the floor of the AMO request route.
 * Run: mpiexec -n 2 ./mpi_routes   (BENCH_ITERS, BENCH_REPS; ROUTES_KIND,
 * ROUTES_HINTS, ROUTES_ONLY select windows, hint sets and routes;
 * ROUTES_SELF_CAS=1 adds a compare-and-swap on the caller's own window,
 * which crashes Open MPI 4's osc/rdma; ROUTES_THREAD=multiple starts MPI
 * at MPI_THREAD_MULTIPLE instead of MPI_THREAD_SINGLE, ROUTES_THREAD=
 * funnelled at MPI_THREAD_SERIALIZED with every call through one lock
 * beside a thread that probes under it every 1 ms: mpi_funnel.c)
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

#include "mpi_funnel.h"
#include "mpi_route_ops.h"

static int iters = 20000, reps = 7;
static uint64_t created_mem[512]; /* static, like a global */

/* Rank 0 times fn; rank 1 polls MPI until told to stop. */
static double measure(void (*fn)(int))
{
    double s[64];
    return mpi_route_measure(fn, iters, reps, s);
}

static void run(const char *kind, const char *hints, MPI_Info info, int allocate, const char *only)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    void *base;
    if (allocate)
        MPI_Win_allocate(4096, 1, info, MPI_COMM_WORLD, &base, &route_win);
    else
        MPI_Win_create(created_mem, sizeof created_mem, 1, info, MPI_COMM_WORLD, &route_win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, route_win);
    for (size_t i = 0; i < N_MPI_ROUTES; i++) {
        if (only && !strstr(only, mpi_routes[i].name))
            continue;
        if (strcmp(mpi_routes[i].name, "cas_self+flush_local") == 0 && !getenv("ROUTES_SELF_CAS"))
            continue; /* crashes Open MPI 4's osc/rdma: only on request */
        double ns = measure(mpi_routes[i].fn);
        if (me == 0)
            printf("mpi_routes,%s,%s,%s,%.1f\n", kind, hints, mpi_routes[i].name, ns);
        fflush(stdout);
    }
    MPI_Win_unlock_all(route_win);
    MPI_Win_free(&route_win);
}

int main(int argc, char **argv)
{
    /* ROUTES_THREAD=multiple: the same routes at MPI_THREAD_MULTIPLE, which
     * the progress thread needs (bench/thread_cost.sh: what it costs). */
    /* ROUTES_THREAD=funnelled: MPI_THREAD_SERIALIZED, every call through
     * one lock beside a thread that probes under it (mpi_funnel.c). */
    const char *thread = getenv("ROUTES_THREAD");
    int multiple = thread && strcmp(thread, "multiple") == 0;
    int funnelled = thread && strcmp(thread, "funnelled") == 0;
    int provided;
    MPI_Init_thread(&argc, &argv,
                    multiple    ? MPI_THREAD_MULTIPLE
                    : funnelled ? MPI_THREAD_SERIALIZED
                                : MPI_THREAD_SINGLE,
                    &provided);
    if (funnelled)
        mpi_funnel_start();
    if (getenv("BENCH_ITERS")) iters = atoi(getenv("BENCH_ITERS"));
    if (getenv("BENCH_REPS")) reps = atoi(getenv("BENCH_REPS"));
    if (reps > 63) reps = 63;
    const char *only = getenv("ROUTES_ONLY");
    /* ROUTES_KIND=create|allocate, ROUTES_HINTS=<set name>: only those. */
    const char *kind = getenv("ROUTES_KIND"), *hints = getenv("ROUTES_HINTS");
    size_t nsets = sizeof mpi_route_hint_sets / sizeof mpi_route_hint_sets[0];
    for (int a = 0; a < 2; a++)
        for (size_t k = 0; k < nsets; k++) {
            const struct mpi_route_hints *h = &mpi_route_hint_sets[k];
            if ((kind && strcmp(kind, a ? "allocate" : "create") != 0) ||
                (hints && strcmp(hints, h->name) != 0))
                continue;
            MPI_Info info = mpi_route_info(h);
            run(a ? "allocate" : "create", h->name, info, a, only);
            MPI_Info_free(&info);
        }
    mpi_funnel_stop();
    MPI_Finalize();
    return 0;
}
