/*
 * mpishmem: the shared-memory barrier of node_barrier.h.
 *
 * The flags object is a memfd made by the communicator's rank 0; the other
 * members open it through /proc/PID/fd/N (node_shm.c, as for the heaps and
 * the globals), so it has no name anywhere and dies with its last mapping.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "node_barrier.h"
#include "node_shm.h"
#include "progress.h"
#include "runtime.h"
#include "error.h"

/* One flag per line; 128 bytes keeps neighbours apart from the adjacent
 * line prefetcher of x86 too. */
#define LINE 128u

/* Line 0: the central algorithm's arrival count; line 1: its release
 * epoch; then n * rounds dissemination flags, (pe, round) written only by
 * PE pe - 2^round; then the slots (node_barrier.h). */
static inline uint64_t *line(const mpishmem_node_barrier_t *b, size_t i)
{
    return (uint64_t *)(b->base + i * LINE);
}

static inline uint64_t *flag(const mpishmem_node_barrier_t *b, int pe, int round)
{
    return line(b, 2 + (size_t)pe * (size_t)b->rounds + (size_t)round);
}

/* A flag's low 32 bits are the word its waiters sleep on when PEs
 * outnumber cores (progress.h); the count of sleepers is further along
 * the flag's line. */
#define SLEEPERS_AT 64u
static inline uint32_t *low_half(uint64_t *p)
{
    return (uint32_t *)p + (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

static inline uint32_t *sleepers(uint64_t *p)
{
    return (uint32_t *)((char *)p + SLEEPERS_AT);
}

static inline void raise_flag(uint64_t *p, uint64_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
    mpishmem_wake(low_half(p), sleepers(p));
}

static inline void wait_reach(uint64_t *p, uint64_t v)
{
    unsigned spins = 0;
    uint64_t now;
    while ((now = __atomic_load_n(p, __ATOMIC_ACQUIRE)) < v) {
        mpishmem_wake_word_t on = {low_half(p), (uint32_t)now, sleepers(p)};
        mpishmem_wait_step(&spins, MPISHMEM_WAIT_WORD, &on);
    }
}

void mpishmem_node_barrier_wait(mpishmem_node_barrier_t *b)
{
    if (b->base == NULL)
        return;
    uint64_t e = ++b->epoch;
    if (b->algo == MPISHMEM_NODE_BARRIER_CENTRAL) {
        uint64_t before = __atomic_fetch_add(line(b, 0), 1, __ATOMIC_ACQ_REL);
        if (before + 1 == e * (uint64_t)b->n)
            raise_flag(line(b, 1), e);
        else
            wait_reach(line(b, 1), e);
        return;
    }
    for (int k = 0, d = 1; k < b->rounds; k++, d <<= 1) {
        raise_flag(flag(b, (b->me + d) % b->n, k), e);
        wait_reach(flag(b, b->me, k), e);
    }
}

/* Whether every member says yes (polled, like the library's other waits). */
static int all_agree(MPI_Comm comm, int mine)
{
    int all = 0;
    MPI_Request req;
    MPISHMEM_MPI(MPI_Iallreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm, &req));
    mpishmem_wait_request(&req);
    return all;
}

static void *map_fd(int fd, size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

mpishmem_node_barrier_t *mpishmem_node_barrier_create(MPI_Comm comm,
                                                      enum mpishmem_node_barrier_algo algo)
{
    int me, n;
    MPISHMEM_MPI(MPI_Comm_rank(comm, &me));
    MPISHMEM_MPI(MPI_Comm_size(comm, &n));
    int ok;
    mpishmem_node_barrier_t *b = calloc(1, sizeof *b);
    ok = b != NULL;
    if (ok) {
        b->me = me;
        b->n = n;
        b->algo = algo;
        while ((1 << b->rounds) < n)
            b->rounds++;
        long page = sysconf(_SC_PAGESIZE);
        size_t pg = page > 0 ? (size_t)page : 4096;
        b->len = ((2 + (size_t)n * (size_t)b->rounds) * LINE +
                  2 * (size_t)n * MPISHMEM_NODE_SLOT + pg - 1) / pg * pg;
    }
    if (n == 1) {
        if (all_agree(comm, ok))
            return b;
        free(b);
        return NULL;
    }
    /* Rank 0 makes the object; the others map it from its id (node_shm.h). */
    mpishmem_shm_id_t id = {.fd = -1};
    int fd = -1;
    if (me == 0 && ok) {
        fd = mpishmem_shm_object_new("mpishmem-barrier", b->len);
        if (fd >= 0 && (b->base = map_fd(fd, b->len)) != NULL)
            mpishmem_shm_id_of(fd, b->len, &id);
    }
    MPI_Request req;
    MPISHMEM_MPI(MPI_Ibcast(&id, sizeof id, MPI_BYTE, 0, comm, &req));
    mpishmem_wait_request(&req);
    if (me != 0 && ok)
        b->base = mpishmem_shm_map_peer(&id);
    if (b != NULL && b->base != NULL)
        b->slots = b->base + (2 + (size_t)n * (size_t)b->rounds) * LINE;
    ok = all_agree(comm, ok && b->base != NULL);
    if (fd >= 0)
        close(fd); /* after the agreement: everyone who could open it has */
    if (!ok) { /* no memfd, or /proc/PID/fd could not be opened */
        mpishmem_node_barrier_free(b);
        return NULL;
    }
    return b;
}

void mpishmem_node_barrier_free(mpishmem_node_barrier_t *b)
{
    if (b == NULL)
        return;
    if (b->base != NULL)
        munmap(b->base, b->len);
    free(b);
}
