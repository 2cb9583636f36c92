/*
 * mapping_color: what the placement of a peer's mapping costs a copy
 * (no MPI, no mpishmem).
 *
 *   build/bench/mapping_color            (BENCH_REPS=25, 500 copies each)
 *
 * One shared-memory object stands for our heap and one for a peer's; the
 * peer's is mapped three ways, all at the same page offsets (a put copies
 * between a symmetric object and the peer's copy of it):
 *   - "same_bits_12_27": 1 GiB away, as the kernel's back-to-back
 *     placement gave a 256 or 512 MiB heap: equal in address bits 12-27,
 *     which AMD Zen's L1 way predictor (its "microtag") hashes;
 *   - "colour_2MiB": 1 GiB + 2 MiB away, mpishmem's placement
 *     (mpi_backend/memory/node_shm.h);
 *   - "step_4KiB": 1 GiB + 4 KiB away.
 * For each, SIZE-byte copies to consecutive offsets with `rep movsb` (the
 * library's copy from 256 bytes up) from our object to the peer's, as
 * OSU's put_mr does: "cold" after writing 256 MiB elsewhere (both objects
 * out of cache), "warm" right after a cold pass over the same bytes.
 * Rounds interleave the placements.  Prints
 *   mapping_color,PLACEMENT,SIZE,STATE,MEDIAN_NS_PER_COPY
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "bench_time.h"

#define OBJ_BYTES ((size_t)32 << 20)
#define FLUSH_BYTES ((size_t)256 << 20)
#define COPIES 500
#define MAX_REPS 101

/* Where the peer's object goes: (index + 1) GiB past ours, plus delta. */
static const struct {
    const char *name;
    size_t delta;
} placements[] = {
    {"same_bits_12_27", 0},
    {"colour_2MiB", (size_t)2 << 20},
    {"step_4KiB", 4096},
};
#define N_PLACEMENTS (sizeof placements / sizeof placements[0])
#define GIB ((size_t)1 << 30)

static void copy_rep_movsb(char *d, const char *s, size_t n)
{
#if defined(__x86_64__)
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
#else
    memcpy(d, s, n);
#endif
}

static double pass_ns(char *dst, const char *src, size_t size)
{
    double t0 = bench_now_ns();
    for (size_t i = 0, off = 0; i < COPIES; i++, off += size)
        copy_rep_movsb(dst + off, src + off, size);
    return (bench_now_ns() - t0) / COPIES;
}

static int object(const char *name)
{
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)OBJ_BYTES) != 0) {
        perror("mapping_color: memfd");
        exit(1);
    }
    return fd;
}

static char *map_at(char *at, int fd)
{
    char *m = mmap(at, OBJ_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
    if (m == MAP_FAILED) {
        perror("mapping_color: mmap");
        exit(1);
    }
    return m;
}

int main(void)
{
    int reps = 25, iters = COPIES;
    bench_sample_sizes(&iters, &reps, 1, MAX_REPS);
    const size_t sizes[] = {4096, 65536};
    const size_t n_sizes = sizeof sizes / sizeof sizes[0];
    int ours_fd = object("ours"), peer_fd = object("peer");
    /* Ours at a GiB boundary, placement p's copy (p + 1) GiB + delta on. */
    size_t span = (N_PLACEMENTS + 2) * GIB;
    char *r = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    char *flush = malloc(FLUSH_BYTES);
    if (r == MAP_FAILED || flush == NULL) {
        perror("mapping_color: reserve");
        return 1;
    }
    char *base = (char *)(((uintptr_t)r + GIB - 1) & ~(uintptr_t)(GIB - 1));
    char *ours = map_at(base, ours_fd), *peer[N_PLACEMENTS];
    for (size_t p = 0; p < N_PLACEMENTS; p++)
        peer[p] = map_at(base + (p + 1) * GIB + placements[p].delta, peer_fd);
    memset(ours, 1, OBJ_BYTES);
    memset(peer[0], 1, OBJ_BYTES);
    static double cold[N_PLACEMENTS][2][MAX_REPS], warm[N_PLACEMENTS][2][MAX_REPS];
    for (int rep = 0; rep < reps; rep++)
        for (size_t z = 0; z < n_sizes; z++)
            for (size_t p = 0; p < N_PLACEMENTS; p++) {
                memset(flush, rep, FLUSH_BYTES); /* both objects out of cache */
                cold[p][z][rep] = pass_ns(peer[p], ours, sizes[z]);
                warm[p][z][rep] = pass_ns(peer[p], ours, sizes[z]);
            }
    for (size_t z = 0; z < n_sizes; z++)
        for (size_t p = 0; p < N_PLACEMENTS; p++) {
            printf("mapping_color,%s,%zu,cold,%.1f\n", placements[p].name, sizes[z],
                   bench_median(cold[p][z], reps));
            printf("mapping_color,%s,%zu,warm,%.1f\n", placements[p].name, sizes[z],
                   bench_median(warm[p][z], reps));
        }
    return 0;
}
