/*
 * rma_aligned_copy: on the load/store path a get or put costs about the
 * same whatever the page offsets of its buffers.
 *
 * A copy with `rep movsb` (glibc's memcpy from 2112 bytes up with FSRM, and
 * the library's store-once copy) slows down when the destination lies 1-63
 * bytes past the source modulo 4 KiB: 1.3-2x on this project's machine,
 * 24x on a user's (mpi_backend/data_path/store_once.c).  Measured inside one process,
 * interleaved: the median of many 4 KiB gets from a node peer's heap into a
 * private buffer at page offsets 16 and 208, and of 256-byte puts from a
 * private buffer at page offset 0 to symmetric addresses at page offsets
 * 16 and 208: each pair as misaligned against cache lines, 4 KiB aliasing
 * apart.  (Against page offset 0 the get also paid for the misalignment:
 * on an Intel Xeon even glibc's memcpy of 4 KiB took 1.45x at offset 16,
 * 37.5 against 25.9 ns, from split loads, not from aliasing.)  Each must stay within RATIO_MAX (1.50x and 1.55x with `rep
 * movsb`, 0.90x and 1.04x without, on this project's machine).  PE 0
 * measures against its first node peer; with MPISHMEM_SHM=0 or no peer on
 * its node (1 PE, pretend nodes apart) nothing is mapped, there is no
 * load/store path to measure, and the test passes saying so.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <shmem.h>

#define PAGE 4096
#define SAMPLES 1501
#define PER_SAMPLE 32
#define RATIO_MAX 1.3

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v)
{
    qsort(v, SAMPLES, sizeof *v, cmp);
    return v[SAMPLES / 2];
}

/* One sample: PER_SAMPLE copies, ns per copy. */
static double sample(int put, char *priv, char *sym, size_t n, int pe)
{
    double t0 = now_ns();
    for (int i = 0; i < PER_SAMPLE; i++) {
        if (put)
            shmem_putmem(sym, priv, n, pe);
        else
            shmem_getmem(priv, sym, n, pe);
    }
    if (put)
        shmem_quiet();
    return (now_ns() - t0) / PER_SAMPLE;
}

/* Median ns at offset `off` (private buffer for gets, symmetric object for
 * puts) and at offset `ref`, interleaved; returns their ratio. */
static double ratio(int put, char *priv, char *sym, size_t n, int pe, size_t off, size_t ref)
{
    static double at_off[SAMPLES], at_0[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) {
        int first = i & 1; /* alternate which goes first */
        for (int k = 0; k < 2; k++) {
            size_t o = (k ^ first) ? off : ref;
            double t = put ? sample(1, priv, sym + o, n, pe) : sample(0, priv + o, sym, n, pe);
            ((k ^ first) ? at_off : at_0)[i] = t;
        }
    }
    double m_off = median(at_off), m_0 = median(at_0);
    printf("rma_aligned_copy: %zu-byte %s, offset %zu: %.1f ns, offset %zu: %.1f ns (%.2fx)\n",
           n, put ? "put" : "get", off, m_off, ref, m_0, m_off / m_0);
    return m_off / m_0;
}

/* Whether the ratio stays within RATIO_MAX in one of TRIES measurements:
 * the slow copy shows in every one, a busy machine's noise rarely twice
 * (one in about 800 runs beside the rest of the suite: 1.32x, then
 * within the bound). */
#define TRIES 3
static int within(int put, char *priv, char *sym, size_t n, int pe)
{
    for (int t = 0; t < TRIES; t++)
        if (ratio(put, priv, sym, n, pe, 16, 208) <= RATIO_MAX)
            return 1;
    return 0;
}

/* Every size and offset pair below lands exactly: the copies chosen by
 * size and by the distance of the buffers modulo 4 KiB (both directions
 * of the vector copy, `rep movsb`, memcpy), bytes just outside untouched. */
static int check_data(char *priv, char *sym, int peer)
{
    static const size_t sizes[] = {255, 256, 257, 1000, 2047, 2048, 4096, 4103,
                                   16384, 16385, 20000};
    static const size_t offs[] = {0, 1, 16, 48, 63, 64, 208, 4033, 4080};
    int me = shmem_my_pe();
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
        for (size_t a = 0; a < sizeof offs / sizeof *offs; a++)
            for (size_t b = 0; b < sizeof offs / sizeof *offs; b++) {
                size_t n = sizes[z], po = offs[a], so = offs[b];
                if (po + n + 1 > 6 * PAGE || so + n + 1 > 6 * PAGE)
                    continue;
                for (size_t i = 0; i < n + 2; i++)
                    priv[po + i] = (char)(i * 3 + z + a);
                shmem_putmem(sym + so, priv + po, n, peer);
                memset(priv, 0x5a, 6 * PAGE);
                shmem_getmem(priv + po, sym + so, n, peer);
                for (size_t i = 0; i < n; i++)
                    if (priv[po + i] != (char)(i * 3 + z + a)) {
                        fprintf(stderr, "rma_aligned_copy: PE %d: %zu bytes, private offset "
                                "%zu, symmetric offset %zu: byte %zu wrong\n", me, n, po, so, i);
                        return 1;
                    }
                if ((po > 0 && priv[po - 1] != 0x5a) || priv[po + n] != 0x5a) {
                    fprintf(stderr, "rma_aligned_copy: PE %d: %zu-byte get at offsets %zu/%zu "
                            "wrote outside its buffer\n", me, n, po, so);
                    return 1;
                }
            }
    return 0;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), failed = 0;
    char *sym = shmem_align(PAGE, 6 * PAGE);
    char *priv = aligned_alloc(PAGE, 6 * PAGE);
    if (sym == NULL || priv == NULL) {
        fprintf(stderr, "rma_aligned_copy: PE %d: out of memory\n", me);
        shmem_global_exit(1);
    }
    memset(sym, me, 6 * PAGE);
    memset(priv, 1, 6 * PAGE);
    shmem_barrier_all();
    if (me == 0) {
        int peer = -1;
        for (int pe = 1; pe < npes && peer < 0; pe++)
            if (shmem_ptr(sym, pe) != NULL)
                peer = pe;
        if (npes > 1)
            failed |= check_data(priv, sym, peer < 0 ? 1 : peer);
        if (peer < 0) {
            printf("rma_aligned_copy: no node peer mapped (MPISHMEM_SHM=0, 1 PE or one "
                   "PE a node): no load/store path to measure\n");
        } else if (shmem_team_n_pes(SHMEM_TEAM_SHARED) > sysconf(_SC_NPROCESSORS_ONLN)) {
            /* The waiting PEs share PE 0's cores: times measure the scheduler
             * (4 PEs on 2 cores: 94 against 62 ns, 1.52x, in one run). */
            printf("rma_aligned_copy: more PEs than cores on the node: the data was "
                   "checked, the times would measure the scheduler\n");
        } else if (!within(0, priv, sym, PAGE, peer) | !within(1, priv, sym, 256, peer)) {
            fprintf(stderr, "rma_aligned_copy: FAILED: a copy 16 bytes past its source "
                    "modulo 4 KiB costs more than %.1fx the same elsewhere (%d tries)\n",
                    RATIO_MAX, TRIES);
            failed = 1;
        }
    }
    shmem_barrier_all();
    shmem_free(sym);
    free(priv);
    shmem_finalize();
    return failed;
}
