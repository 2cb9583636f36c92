/*
 * small_copies: the small puts and gets of the load/store path against
 * memcpy of the same bytes, as paired ratios.  Standard OpenSHMEM only.
 *
 *   MPISHMEM_SHM=1 mpiexec -n 2 build/bench/small_copies   (PE 0 times, PE 1 waits)
 *
 * Cells: 64 B, 256 B and 2 KiB, with the private buffer and the symmetric
 * object both at page offset 0 or both at 16.  Ops: shmem_putmem (private
 * -> PE 1's object), shmem_getmem (PE 1's object -> private), and the
 * floors memcpy_put (private -> our own copy of the object) and
 * memcpy_get (our own copy -> private), each a real call into the C
 * library's memcpy through a volatile function pointer, as ours is a real
 * call into the library.  A sample is ITERS back-to-back calls on the same
 * buffers (warm in L1, so the per-call cost shows); no quiet is timed.
 * A round times every op of every cell once, in an order that rotates
 * between rounds; the ratio of a round is ours / memcpy from that round,
 * so load on the machine hits both sides alike.  BENCH_REPS rounds
 * (default 21), BENCH_ITERS calls per sample (default 2000).  Prints, per
 * op and cell,
 *   small_copies,LABEL,OP,SIZE,OFF,NS,FLOOR_NS,RATIO,RATIO_MIN,RATIO_MAX
 * NS and FLOOR_NS the medians over rounds, RATIO the median of the
 * per-round ratios and RATIO_MIN/RATIO_MAX their spread; LABEL from
 * BENCH_LABEL (default "ours").
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>
#include "bench_time.h"

#define PAGE 4096
#define MAX_REPS 101

enum { PUT, GET, MEMCPY_PUT, MEMCPY_GET, PTR_PUT, PTR_GET, N_OPS };
static const char *const op_names[] = {"put", "get", "memcpy_put", "memcpy_get", "ptr_put",
                                       "ptr_get"};
static char *peer; /* shmem_ptr to PE 1's copy of the object */
static const size_t sizes[] = {64, 256, 2048};
static const size_t offs[] = {0, 16};
#define N_SIZES (sizeof sizes / sizeof sizes[0])
#define N_OFFS (sizeof offs / sizeof offs[0])

static char *sym;
static void *(*volatile copy)(void *, const void *, size_t) = memcpy;

static double time_op(int op, size_t n, char *p, char *s, int iters)
{
    double t0 = bench_now_ns();
    switch (op) {
    case PUT:
        for (int i = 0; i < iters; i++)
            shmem_putmem(s, p, n, 1);
        break;
    case GET:
        for (int i = 0; i < iters; i++)
            shmem_getmem(p, s, n, 1);
        break;
    case MEMCPY_PUT:
        for (int i = 0; i < iters; i++)
            copy(s, p, n);
        break;
    case MEMCPY_GET:
        for (int i = 0; i < iters; i++)
            copy(p, s, n);
        break;
    case PTR_PUT:
        for (int i = 0; i < iters; i++)
            copy(peer + (s - sym), p, n);
        break;
    default:
        for (int i = 0; i < iters; i++)
            copy(p, peer + (s - sym), n);
        break;
    }
    return (bench_now_ns() - t0) / iters;
}

/* t[op][round]: prints the op's rows of one cell (sorts t). */
static void report(const char *label, size_t n, size_t off, double t[N_OPS][MAX_REPS],
                   int reps)
{
    for (int op = PUT; op < N_OPS; op++) {
        if (op == MEMCPY_PUT || op == MEMCPY_GET)
            continue;
        int fl = op == PUT || op == PTR_PUT ? MEMCPY_PUT : MEMCPY_GET;
        double r[MAX_REPS];
        for (int i = 0; i < reps; i++)
            r[i] = t[op][i] / t[fl][i];
        double ratio = bench_median(r, reps), lo = r[0], hi = r[reps - 1];
        double ns = bench_median(t[op], reps), floor_ns = bench_median(t[fl], reps);
        printf("small_copies,%s,%s,%zu,%zu,%.2f,%.2f,%.2f,%.2f,%.2f\n", label, op_names[op],
               n, off, ns, floor_ns, ratio, lo, hi);
    }
}

static void run(char *priv, int iters, int reps, const char *label)
{
    static double t[N_SIZES][N_OFFS][N_OPS][MAX_REPS];
    for (int r = 0; r < reps; r++)
        for (size_t z = 0; z < N_SIZES; z++)
            for (size_t a = 0; a < N_OFFS; a++)
                for (int o = 0; o < N_OPS; o++) {
                    int op = (o + r) % N_OPS; /* rotate the order */
                    t[z][a][op][r] = time_op(op, sizes[z], priv + offs[a], sym + offs[a],
                                             iters);
                }
    shmem_quiet();
    for (size_t z = 0; z < N_SIZES; z++)
        for (size_t a = 0; a < N_OFFS; a++)
            report(label, sizes[z], offs[a], t[z][a], reps);
    fflush(stdout);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() != 2) {
        if (me == 0)
            fprintf(stderr, "small_copies: run with exactly 2 PEs\n");
        shmem_finalize();
        return 1;
    }
    int iters = 2000, reps = 21;
    bench_sample_sizes(&iters, &reps, 1, MAX_REPS);
    const char *label = getenv("BENCH_LABEL");
    if (label == NULL || *label == '\0')
        label = "ours";
    char *priv = NULL;
    sym = shmem_align(PAGE, 2 * PAGE);
    if (sym == NULL || posix_memalign((void **)&priv, PAGE, 2 * PAGE) != 0) {
        fprintf(stderr, "small_copies: PE %d: out of memory\n", me);
        shmem_global_exit(1);
    }
    memset(sym, 1, 2 * PAGE);
    memset(priv, 2, 2 * PAGE);
    peer = shmem_ptr(sym, 1);
    shmem_barrier_all();
    if (me == 0 && peer != NULL)
        run(priv, iters, reps, label);
    shmem_barrier_all();
    shmem_free(sym);
    free(priv);
    shmem_finalize();
    return 0;
}
