/*
 * oshbench: OpenSHMEM latency, bandwidth and rate with the standard API
 * only (OpenSHMEM 1.4 calls, plus put_signal where the header has it), so
 * the same source builds with mpishmem and with Open MPI's oshcc (OSHMEM).
 * bench/compare.sh runs both, interleaved, and reports medians and ratios.
 *
 * PE 0 issues, the target waits in shmem_barrier_all (it keeps
 * polling, as a PE waiting in the library does).  Every operation runs
 * with its target in global data ("globals") and in the symmetric heap
 * ("heap").  Output: one CSV line per figure,
 *   oshbench,<target>,<operation>,<value>,<unit>
 * where value is the median over BENCH_REPS samples of BENCH_ITERS
 * operations (ns per operation, MB/s or M operations/s).
 *
 * BENCH_WAIT=poll|compute: the others poll with shmem_test or compute
 * instead (bench_wait.h); rows where every PE works then run only with
 * the default.
 *
 * PE 0 aims at PE n/2 (BENCH_TARGET overrides): with two nodes of n/2 PEs,
 * the other node.  BENCH_SKIP=row,row leaves rows out.  Built with
 * mpishmem (-DBENCH_FLOOR), it ends with the raw MPI floor of every 8-byte
 * and bandwidth row measured in the same launch (floor_create,
 * floor_allocate), then MPI's own barrier and 8-byte collectives
 * (floor_coll); BENCH_FLOOR=0 skips them.
 *
 * Run: mpiexec -n 2 ./oshbench    or    oshrun -n 2 ./oshbench
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_time.h"
#include "bench_shmem.h"
#include "bench_wait.h"
#ifdef BENCH_FLOOR
#include "mpi_route_ops.h"
#include "progress.h"
#endif

#define BIG (1 << 20)
#define MAX_REPS 63

static int iters = 20000, reps = 7, me;
/* What the other PEs do while PE 0 times (BENCH_WAIT, bench_wait.h). */
static enum bench_wait wait_mode;
/* The target of PE 0's operations: n_pes / 2 (BENCH_TARGET overrides), so
 * that with -ppn n/2 on two nodes it is on the other node. */
static int tgt = 1;

/* Targets in global data. */
static long g_word[8];
static unsigned long g_uword[8];
static uint64_t g_sig[2];
static char g_big[BIG];
/* The same in the heap (set in main). */
static long *h_word;
static unsigned long *h_uword;
static uint64_t *h_sig;
static char *h_big;

/* What the current operation aims at. */
static long *word;
static unsigned long *uword;
static uint64_t *sig;
static char *big;
static char src_big[BIG], dst_big[BIG];
static long sink;
static size_t bw_bytes;

/* Collective work areas (1.4 API). */
static long pSync[SHMEM_REDUCE_SYNC_SIZE > SHMEM_BCAST_SYNC_SIZE ? SHMEM_REDUCE_SYNC_SIZE
                                                                  : SHMEM_BCAST_SYNC_SIZE];
static long pSync2[SHMEM_COLLECT_SYNC_SIZE];
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long red_src[1], red_dst[1];
static long coll_src[1], coll_dst[64];

/* PE 0's operations, n of them; the target and the others wait. */
static void op_put(int n) { for (int i = 0; i < n; i++) { shmem_putmem(word, &sink, 8, tgt); shmem_quiet(); } }
static void op_get(int n) { for (int i = 0; i < n; i++) shmem_getmem(&sink, word, 8, tgt); }
static void op_p(int n) { for (int i = 0; i < n; i++) shmem_long_p(word, i, tgt); shmem_quiet(); }
static void op_g(int n) { for (int i = 0; i < n; i++) sink += shmem_long_g(word, tgt); }
static void op_put_bw(int n) { for (int i = 0; i < n; i++) shmem_putmem_nbi(big, src_big, bw_bytes, tgt); shmem_quiet(); }
static void op_get_bw(int n) { for (int i = 0; i < n; i++) shmem_getmem_nbi(dst_big, big, bw_bytes, tgt); shmem_quiet(); }
static void op_put_rate(int n) { for (int i = 0; i < n; i++) shmem_putmem_nbi(word, &sink, 8, tgt); shmem_quiet(); }
static void op_fetch(int n) { for (int i = 0; i < n; i++) sink += shmem_long_atomic_fetch(word, tgt); }
static void op_set(int n) { for (int i = 0; i < n; i++) shmem_long_atomic_set(word, i, tgt); shmem_quiet(); }
static void op_swap(int n) { for (int i = 0; i < n; i++) sink += shmem_long_atomic_swap(word, i, tgt); }
static void op_cswap(int n) { for (int i = 0; i < n; i++) sink += shmem_long_atomic_compare_swap(word, i, i + 1, tgt); }
static void op_fadd(int n) { for (int i = 0; i < n; i++) sink += shmem_long_atomic_fetch_add(word, 1, tgt); }
static void op_add(int n) { for (int i = 0; i < n; i++) shmem_long_atomic_add(word, 1, tgt); shmem_quiet(); }
static void op_finc(int n) { for (int i = 0; i < n; i++) sink += shmem_long_atomic_fetch_inc(word, tgt); }
static void op_inc(int n) { for (int i = 0; i < n; i++) shmem_long_atomic_inc(word, tgt); shmem_quiet(); }
static void op_fand(int n) { for (int i = 0; i < n; i++) sink += (long)shmem_ulong_atomic_fetch_and(uword, ~0ul, tgt); }
static void op_and(int n) { for (int i = 0; i < n; i++) shmem_ulong_atomic_and(uword, ~0ul, tgt); shmem_quiet(); }
static void op_for(int n) { for (int i = 0; i < n; i++) sink += (long)shmem_ulong_atomic_fetch_or(uword, 1, tgt); }
static void op_or(int n) { for (int i = 0; i < n; i++) shmem_ulong_atomic_or(uword, 1, tgt); shmem_quiet(); }
static void op_fxor(int n) { for (int i = 0; i < n; i++) sink += (long)shmem_ulong_atomic_fetch_xor(uword, 1, tgt); }
static void op_xor(int n) { for (int i = 0; i < n; i++) shmem_ulong_atomic_xor(uword, 1, tgt); shmem_quiet(); }

/* Round trip: PE 0 signals the target, which answers; the others skip. */
static uint64_t rt_round;
static void signal_to(int pe, uint64_t v)
{
#ifdef SHMEM_SIGNAL_SET
    shmem_putmem_signal(word, &sink, 8, sig, v, SHMEM_SIGNAL_SET, pe);
#else
    /* OpenSHMEM 1.4 has no put_signal: the idiom it replaces. */
    shmem_putmem(word, &sink, 8, pe);
    shmem_fence();
    shmem_long_atomic_set((long *)sig, (long)v, pe);
#endif
}
static void op_signal_rt(int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t v = ++rt_round;
        if (me == 0) {
            signal_to(tgt, v);
            shmem_long_wait_until((long *)sig, SHMEM_CMP_EQ, (long)v);
        } else if (me == tgt) {
            shmem_long_wait_until((long *)sig, SHMEM_CMP_EQ, (long)v);
            signal_to(0, v);
        }
    }
}
static void op_barrier(int n) { for (int i = 0; i < n; i++) shmem_barrier_all(); }
static void op_bcast(int n)
{
    for (int i = 0; i < n; i++) {
        shmem_broadcast64(coll_dst, coll_src, 1, 0, 0, 0, shmem_n_pes(), pSync);
        shmem_barrier_all(); /* pSync reuse */
    }
}
static void op_reduce(int n)
{
    for (int i = 0; i < n; i++) {
        shmem_long_sum_to_all(red_dst, red_src, 1, 0, 0, shmem_n_pes(), pWrk, pSync);
        shmem_barrier_all();
    }
}
static void op_collect(int n)
{
    for (int i = 0; i < n; i++) {
        shmem_fcollect64(coll_dst, coll_src, 1, 0, 0, shmem_n_pes(), pSync2);
        shmem_barrier_all();
    }
}

/* Median ns per operation.  all: every PE runs fn (collectives, round
 * trips); otherwise PE 0 alone, the others wait as BENCH_WAIT says. */
static double measure(void (*fn)(int), int n, int all)
{
    double s[MAX_REPS];
    if (!all)
        return bench_wait_measure(fn, n, reps, wait_mode, s);
    return bench_shmem_measure(fn, n, reps, all, s);
}

static void emit(const char *target, const char *op, double v, const char *unit)
{
    if (me == 0)
        printf("oshbench,%s,%s,%.6g,%s\n", target, op, v, unit);
    fflush(stdout);
}

/* BENCH_SKIP=row,row: rows left out (a peer that hangs on one). */
static int skipped(const char *op)
{
    const char *skip = getenv("BENCH_SKIP");
    size_t n = strlen(op);
    for (const char *p = skip; p && (p = strstr(p, op)) != NULL; p += n)
        if ((p == skip || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

/* Rows where every PE works (all) do not depend on BENCH_WAIT: they run
 * with the default only. */
static void lat(const char *target, const char *op, void (*fn)(int), int all)
{
    if (!skipped(op) && !(all && wait_mode != BENCH_WAIT_BARRIER))
        emit(target, op, measure(fn, iters, all), "ns");
}

#ifdef BENCH_FLOOR
/* The raw MPI floor, inside this launch (mpishmem builds only: it needs
 * the MPI under the library): every route of mpi_route_ops.h on a window
 * made like ours (MPI_Win_create, the library's hints) and on an
 * MPI_Win_allocate window, PE 0 to the target while the target polls MPI
 * (BENCH_WAIT=compute: computes between its polls, as our target does) and
 * the others wait in MPI_Barrier.  Rows: floor_create / floor_allocate,
 * then floor_coll: MPI's own barrier and 8-byte collectives. */
static uint64_t floor_mem[BIG / 8 + 512];

static double measure_mpi(void (*fn)(int), int n)
{
    double s[MAX_REPS];
    return mpi_route_measure(fn, n, reps, s);
}

/* put/get bandwidth rows of the same sizes as ours, MB/s. */
static void floor_bw_rows(const char *kind)
{
    const size_t sizes[2] = {4096, BIG};
    route_bw_buf = src_big;
    for (int k = 0; k < 2; k++) {
        char name[32];
        int n = k ? 20 : iters / 20 + 1;
        route_bw_bytes = sizes[k];
        snprintf(name, sizeof name, "put_bw_%zuB", sizes[k]);
        if (!skipped(name))
            emit(kind, name, (double)sizes[k] / measure_mpi(route_put_bw, n) * 1e3, "MB/s");
        snprintf(name, sizeof name, "get_bw_%zuB", sizes[k]);
        if (!skipped(name))
            emit(kind, name, (double)sizes[k] / measure_mpi(route_get_bw, n) * 1e3, "MB/s");
    }
}

/* MPI's barrier and 8-byte collectives, each + MPI_Barrier as ours. */
static void mpi_coll(int which, int n)
{
    for (int i = 0; i < n; i++) {
        if (which == 1)
            MPI_Bcast(coll_dst, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
        else if (which == 2)
            MPI_Allreduce(red_src, red_dst, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        else if (which == 3)
            MPI_Allgather(coll_src, 1, MPI_INT64_T, coll_dst, 1, MPI_INT64_T, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

static void floor_coll_rows(void)
{
    static const char *names[4] = {"barrier_all", "broadcast64_8B+barrier",
                                   "sum_to_all_8B+barrier", "fcollect64_8B+barrier"};
    for (int w = 0; w < 4; w++) {
        double s[MAX_REPS];
        for (int r = 0; r < reps; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            mpi_coll(w, iters / 10 + 1);
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = bench_now_ns();
            mpi_coll(w, iters);
            s[r] = (bench_now_ns() - t0) / iters;
        }
        if (!skipped(names[w]))
            emit("floor_coll", names[w], bench_median(s, reps), "ns");
    }
}

static void floor_rows(void)
{
    const char *f = getenv("BENCH_FLOOR");
    if (f && *f == '0')
        return;
    route_compute_ns = wait_mode == BENCH_WAIT_COMPUTE ? bench_compute_ns : 0;
    /* Raw MPI calls do not tell our progress thread that this PE is inside
     * MPI: it would probe beside them (every 20 us with a spare core) and
     * the floor would measure the thread, not MPI.  Held as a blocking call
     * of ours holds it, the thread stays out, as if the program had none,
     * and the floor keeps this launch's placement (cluster_summary.py). */
    mpishmem_blocking_mpi_enter();
    MPI_Info info = mpi_route_info(&mpi_route_hint_sets[2]); /* ours+disable_shm_acc */
    for (int a = 0; a < 2; a++) {
        void *base;
        const char *kind = a ? "floor_allocate" : "floor_create";
        if (a)
            MPI_Win_allocate(sizeof floor_mem, 1, info, MPI_COMM_WORLD, &base, &route_win);
        else
            MPI_Win_create(floor_mem, sizeof floor_mem, 1, info, MPI_COMM_WORLD, &route_win);
        route_target = tgt;
        MPI_Win_lock_all(MPI_MODE_NOCHECK, route_win);
        for (size_t i = 0; i < N_MPI_ROUTES; i++) {
            if (strcmp(mpi_routes[i].name, "cas_self+flush_local") == 0 ||
                strcmp(mpi_routes[i].name, "put_bounce64") == 0 || skipped(mpi_routes[i].name))
                continue;
            emit(kind, mpi_routes[i].name, measure_mpi(mpi_routes[i].fn, iters), "ns");
        }
        floor_bw_rows(kind);
        MPI_Win_unlock_all(route_win);
        MPI_Win_free(&route_win);
    }
    MPI_Info_free(&info);
    if (wait_mode == BENCH_WAIT_BARRIER)
        floor_coll_rows();
    mpishmem_blocking_mpi_leave();
}
#endif

/* BENCH_INIT_ONLY=1: PE 0 prints how long shmem_init + shmem_finalize
 * took with this heap size (SHMEM_SYMMETRIC_SIZE), without the launcher's
 * own start-up. */
static int init_only(void)
{
    const char *size = getenv("SHMEM_SYMMETRIC_SIZE");
    double t0 = bench_now_ns();
    shmem_init();
    int pe = shmem_my_pe();
    shmem_finalize();
    if (pe == 0)
        printf("oshbench,init,init+finalize_%s,%.6g,s\n", size ? size : "default",
               (bench_now_ns() - t0) * 1e-9);
    return 0;
}

int main(void)
{
    if (getenv("BENCH_INIT_ONLY"))
        return init_only();
    /* BENCH_MULTIPLE=1: SHMEM_THREAD_MULTIPLE (MPI_THREAD_MULTIPLE below us)
     * with no progress thread, to tell the thread level's cost from the
     * thread's. */
    const char *multiple = getenv("BENCH_MULTIPLE");
    if (multiple && *multiple == '1') {
        int provided;
        shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    } else {
        shmem_init();
    }
    me = shmem_my_pe();
    wait_mode = bench_wait_mode();
    tgt = getenv("BENCH_TARGET") ? atoi(getenv("BENCH_TARGET")) : shmem_n_pes() / 2;
    if (tgt <= 0 || tgt >= shmem_n_pes())
        tgt = 1;
    bench_sample_sizes(&iters, &reps, 10, MAX_REPS);
    const char *only = getenv("BENCH_ONLY"); /* "globals" or "heap" */
    if (shmem_n_pes() < 2 || shmem_n_pes() > 64) {
        if (me == 0)
            fprintf(stderr, "oshbench: needs 2 to 64 PEs\n");
        shmem_finalize();
        return 1;
    }
    for (size_t i = 0; i < sizeof pSync / sizeof pSync[0]; i++) pSync[i] = SHMEM_SYNC_VALUE;
    for (size_t i = 0; i < sizeof pSync2 / sizeof pSync2[0]; i++) pSync2[i] = SHMEM_SYNC_VALUE;
    h_word = shmem_calloc(8, sizeof(long));
    h_uword = shmem_calloc(8, sizeof(unsigned long));
    h_sig = shmem_calloc(2, sizeof(uint64_t));
    h_big = shmem_malloc(BIG);
    /* Real data in every large buffer: an untouched array reads as the
     * kernel's one zero page, always in cache, and halves a copy's cost
     * where the library leaves it unmapped (OSHMEM's 1 MiB put read
     * 66 GB/s so, 33 GB/s from written memory, like ours). */
    memset(src_big, 0x5a, BIG);
    memset(dst_big, 0xa5, BIG);
    memset(g_big, 0x3c, BIG);
    memset(h_big, 0xc3, BIG);
    shmem_barrier_all();

    for (int t = 0; t < 2; t++) {
        const char *tn = t ? "heap" : "globals";
        if (only && strcmp(only, tn) != 0)
            continue;
        word = t ? h_word : g_word;
        uword = t ? h_uword : g_uword;
        sig = t ? h_sig : g_sig;
        big = t ? h_big : g_big;
        rt_round = 0;
        *sig = 0;
        shmem_barrier_all();
        lat(tn, "put8+quiet", op_put, 0);
        lat(tn, "get8", op_get, 0);
        lat(tn, "p8", op_p, 0);
        lat(tn, "g8", op_g, 0);
        const size_t sizes[2] = {4096, BIG};
        for (int k = 0; k < 2; k++) {
            bw_bytes = sizes[k];
            int n = k ? 20 : iters / 20 + 1;
            char name[32];
            snprintf(name, sizeof name, "put_bw_%zuB", bw_bytes);
            if (!skipped(name))
                emit(tn, name, (double)bw_bytes / measure(op_put_bw, n, 0) * 1e3, "MB/s");
            snprintf(name, sizeof name, "get_bw_%zuB", bw_bytes);
            if (!skipped(name))
                emit(tn, name, (double)bw_bytes / measure(op_get_bw, n, 0) * 1e3, "MB/s");
        }
        if (!skipped("put8_rate"))
            emit(tn, "put8_rate", 1e3 / measure(op_put_rate, iters, 0), "M/s");
        lat(tn, "atomic_fetch", op_fetch, 0);
        lat(tn, "atomic_set", op_set, 0);
        lat(tn, "atomic_swap", op_swap, 0);
        lat(tn, "atomic_compare_swap", op_cswap, 0);
        lat(tn, "atomic_fetch_add", op_fadd, 0);
        lat(tn, "atomic_add", op_add, 0);
        lat(tn, "atomic_fetch_inc", op_finc, 0);
        lat(tn, "atomic_inc", op_inc, 0);
        lat(tn, "atomic_fetch_and", op_fand, 0);
        lat(tn, "atomic_and", op_and, 0);
        lat(tn, "atomic_fetch_or", op_for, 0);
        lat(tn, "atomic_or", op_or, 0);
        lat(tn, "atomic_fetch_xor", op_fxor, 0);
        lat(tn, "atomic_xor", op_xor, 0);
        lat(tn, "put_signal_roundtrip", op_signal_rt, 1); /* 1.4: the idiom */
    }
    if (!only || strcmp(only, "globals") == 0) {
        /* Collectives: their buffers are globals (the 1.4 API needs symmetric
         * pSync/pWrk; these are the same for every target kind). */
        lat("coll", "barrier_all", op_barrier, 1);
        lat("coll", "broadcast64_8B+barrier", op_bcast, 1);
        lat("coll", "sum_to_all_8B+barrier", op_reduce, 1);
        lat("coll", "fcollect64_8B+barrier", op_collect, 1);
    }
#ifdef BENCH_FLOOR
    floor_rows();
#endif
    shmem_free(h_big);
    shmem_free(h_sig);
    shmem_free(h_uword);
    shmem_free(h_word);
    shmem_finalize();
    return 0;
}
