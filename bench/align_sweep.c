/*
 * align_sweep: put and get by size and by the page offsets of both buffers,
 * next to memcpy between the same two buffers (the floor, same process).
 * Standard OpenSHMEM only, so the same source builds with OSHMEM's oshcc
 * (bench/align_sweep.sh runs both in one go).
 *
 *   mpiexec -n 2 build/bench/align_sweep     (PE 0 the origin, PE 1 the target)
 *
 * Sizes 8 B and 16 B to 4 MiB in x4 steps; private buffer (page-aligned
 * allocation + POFF) and symmetric object (page-aligned + SOFF) each at
 * page offsets 0, 16, 64, 208, 2048, 4080.  Ops: put, put_nbi (+ quiet),
 * get, get_nbi (+ quiet); the floors "memcpy_put" (private -> own symmetric
 * object) and "memcpy_get" (own symmetric object -> private).  A round
 * times every cell once, the ops of a cell back to back; BENCH_REPS rounds
 * (default 7).  Prints, per cell,
 *   align_sweep,LABEL,OP,SIZE,POFF,SOFF,MEDIAN_NS,MIN_NS,MAX_NS,FLOOR_NS
 * LABEL from BENCH_LABEL (default "ours"); FLOOR_NS the memcpy of the same
 * direction, same buffers.
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
#define MAX_SIZE ((size_t)4 << 20)
#define MAX_REPS 51
#define N_OPS 6

static const size_t sizes[] = {8, 16, 64, 256, 1024, 4096, 16384, 65536, 262144,
                               1048576, 4194304};
static const size_t offs[] = {0, 16, 64, 208, 2048, 4080};
#define N_SIZES (sizeof sizes / sizeof sizes[0])
#define N_OFFS (sizeof offs / sizeof offs[0])
static const char *const op_names[N_OPS] = {"put", "put_nbi", "get", "get_nbi",
                                            "memcpy_put", "memcpy_get"};

static char *sym, *priv;
/* Through a volatile pointer: a real call to the C library's memcpy, as the
 * libraries make. */
static void *(*volatile copy)(void *, const void *, size_t) = memcpy;

/* Copies per sample: about 256 KiB moved, at least 4, at most 400. */
static int iters_for(size_t n)
{
    size_t k = ((size_t)256 << 10) / n;
    return k < 4 ? 4 : k > 400 ? 400 : (int)k;
}

static double time_op(int op, size_t n, char *p, char *s)
{
    int k = iters_for(n);
    double t0 = bench_now_ns();
    for (int i = 0; i < k; i++) {
        switch (op) {
        case 0: shmem_putmem(s, p, n, 1); break;
        case 1: shmem_putmem_nbi(s, p, n, 1); shmem_quiet(); break;
        case 2: shmem_getmem(p, s, n, 1); break;
        case 3: shmem_getmem_nbi(p, s, n, 1); shmem_quiet(); break;
        case 4: copy(s, p, n); break;
        default: copy(p, s, n); break;
        }
    }
    if (op < 2)
        shmem_quiet();
    return (bench_now_ns() - t0) / k;
}

static int check_get(size_t n, char *p, char *s)
{
    memset(p, 0, n);
    shmem_getmem(p, s, n, 1);
    for (size_t i = 0; i < n; i += n / 8 + 1)
        if (p[i] != (char)(((uintptr_t)(s + i) - (uintptr_t)sym) * 7 + 1))
            return 0;
    return 1;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() != 2) {
        if (me == 0)
            fprintf(stderr, "align_sweep: run with exactly 2 PEs\n");
        shmem_finalize();
        return 1;
    }
    int reps = 7, unused = 1;
    bench_sample_sizes(&unused, &reps, 1, MAX_REPS);
    const char *label = getenv("BENCH_LABEL");
    if (label == NULL || *label == '\0')
        label = "ours";
    sym = shmem_align(PAGE, MAX_SIZE + 2 * PAGE);
    if (sym == NULL || posix_memalign((void **)&priv, PAGE, MAX_SIZE + 2 * PAGE) != 0) {
        fprintf(stderr, "align_sweep: PE %d: out of memory\n", me);
        shmem_global_exit(1);
    }
    for (size_t i = 0; i < MAX_SIZE + 2 * PAGE; i++)
        sym[i] = (char)(i * 7 + 1);
    memset(priv, 3, MAX_SIZE + 2 * PAGE);
    shmem_barrier_all();

    static double t[N_OPS][N_SIZES][N_OFFS][N_OFFS][MAX_REPS];
    if (me == 0) {
        for (size_t z = 0; z < N_SIZES; z++)
            if (!check_get(sizes[z], priv + 16, sym + 208)) {
                fprintf(stderr, "align_sweep: get of %zu bytes returned wrong data\n",
                        sizes[z]);
                shmem_global_exit(1);
            }
        for (int r = 0; r < reps; r++)
            for (size_t z = 0; z < N_SIZES; z++)
                for (size_t a = 0; a < N_OFFS; a++)
                    for (size_t b = 0; b < N_OFFS; b++)
                        for (int o = 0; o < N_OPS; o++) {
                            int op = (o + r + (int)a) % N_OPS; /* rotate the order */
                            t[op][z][a][b][r] =
                                time_op(op, sizes[z], priv + offs[a], sym + offs[b]);
                        }
        for (size_t z = 0; z < N_SIZES; z++)
            for (size_t a = 0; a < N_OFFS; a++)
                for (size_t b = 0; b < N_OFFS; b++) {
                    double med[N_OPS], lo[N_OPS], hi[N_OPS];
                    for (int op = 0; op < N_OPS; op++) {
                        med[op] = bench_median(t[op][z][a][b], reps);
                        lo[op] = t[op][z][a][b][0];
                        hi[op] = t[op][z][a][b][reps - 1];
                    }
                    for (int op = 0; op < N_OPS; op++)
                        printf("align_sweep,%s,%s,%zu,%zu,%zu,%.1f,%.1f,%.1f,%.1f\n", label,
                               op_names[op], sizes[z], offs[a], offs[b], med[op], lo[op],
                               hi[op], med[op == 0 || op == 1 || op == 4 ? 4 : 5]);
                }
        fflush(stdout);
    }
    shmem_barrier_all();
    shmem_free(sym);
    free(priv);
    shmem_finalize();
    return 0;
}
