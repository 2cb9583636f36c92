/*
 * mpishmem: memory that MPI allocated for a window, seen at an address of
 * ours as well (mem_alias.h).
 *
 * The window's memory is a shared mapping of some object (Open MPI's
 * osc/sm: a file; osc/ucx: a UCX shared-memory segment).  The kernel names
 * that object under /proc/self/map_files/START-END; opening it and mapping
 * it MAP_SHARED at our address gives a second view of the same pages, so a
 * store through either view is seen through the other, and what MPI's
 * peers do to the window's memory (copies, CPU atomics on their own mapping
 * of it) is what this PE sees at its symmetric addresses.
 *
 * Copies go through the kernel (process_vm_readv on this process), never
 * memcpy: the global data range holds AddressSanitizer's redzones, which
 * ASan's memcpy refuses to read (the same reason as in globals_shm.c).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include "mem_alias.h"
#include "error.h"
#include "progress.h"
#include "runtime.h"

static size_t page_bytes(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

static void private_in_child(char *at, size_t len);

/* len bytes from src to dst by the kernel; 0, or -1 when it copied less. */
static int kernel_copy(char *dst, const char *src, size_t len)
{
    while (len > 0) {
        struct iovec local = {dst, len}, remote = {(void *)src, len};
        ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
        if (n <= 0)
            return -1;
        dst += n;
        src += n;
        len -= (size_t)n;
    }
    return 0;
}

/* The shared mapping holding [p, p + len): its range and the file offset of
 * p.  0, or -1 with *why set. */
static int find_mapping(const char *p, size_t len, uintptr_t *lo, uintptr_t *hi, off_t *off,
                        const char **why)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (f == NULL) {
        *why = "cannot read /proc/self/maps";
        return -1;
    }
    char line[512];
    int rc = -1;
    *why = "MPI's window memory is not in one shared mapping";
    while (fgets(line, sizeof line, f)) {
        unsigned long a, b;
        unsigned long long o;
        char perm[8];
        if (sscanf(line, "%lx-%lx %7s %llx", &a, &b, perm, &o) != 4)
            continue;
        if ((uintptr_t)p < a || (uintptr_t)p >= b)
            continue;
        if ((uintptr_t)p + len <= b && perm[3] == 's') {
            *lo = a;
            *hi = b;
            *off = (off_t)(o + ((uintptr_t)p - a));
            rc = 0;
        }
        break;
    }
    fclose(f);
    return rc;
}

/* A store through one view must show through the other. */
static int same_pages(volatile char *a, volatile char *b)
{
    char keep = *a;
    *a = (char)(keep ^ 0x5a);
    int same = *b == (char)(keep ^ 0x5a);
    *a = keep;
    return same;
}

int mpishmem_mem_alias(char *mem, size_t len, char *at, int copy, const char **why)
{
    size_t page = page_bytes();
    uintptr_t lo, hi;
    off_t off;
    if ((uintptr_t)mem % page != 0 || (uintptr_t)at % page != 0 || len % page != 0) {
        *why = "MPI's window memory does not start on a page";
        return -1;
    }
    if (find_mapping(mem, len, &lo, &hi, &off, why) != 0)
        return -1;
    char path[96];
    snprintf(path, sizeof path, "/proc/self/map_files/%lx-%lx", (unsigned long)lo,
             (unsigned long)hi);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        *why = "cannot open /proc/self/map_files (needs CAP_SYS_ADMIN on older kernels)";
        return -1;
    }
    if (copy && kernel_copy(mem, at, len) != 0) {
        close(fd);
        *why = "cannot copy the data into MPI's window memory";
        return -1;
    }
    void *m = mmap(at, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, off);
    close(fd);
    if (m == MAP_FAILED) {
        *why = "cannot map MPI's window memory at the segment's address";
        return -1;
    }
    if (!same_pages(at, mem)) {
        mpishmem_mem_alias_undo(at, len);
        *why = "the second mapping of MPI's window memory is not the same memory";
        return -1;
    }
    if (copy) /* the program's data: a fork()ed child's stays its own */
        private_in_child(at, len);
    return 0;
}

int mpishmem_mem_alias_segment(mpishmem_segment_t *s, MPI_Comm comm, char *mem, size_t bytes)
{
    size_t page = page_bytes(), len = mpishmem_mem_alias_len(bytes);
    int data = s->map_len == 0;
    long d = (long)((page - (uintptr_t)mem % page) % page), mine[3], all[3];
    const char **why = &s->mpi_memory_why;
    int ok = mpishmem_mem_alias(mem + d, len, s->base, data, why) == 0;
    mine[0] = ok, mine[1] = d, mine[2] = -d;
    mpishmem_allreduce(mine, all, 3, MPI_LONG, MPI_MIN, comm);
    if (all[0] && all[1] == -all[2]) {
        s->base -= d; /* window displacement 0 */
        s->lead = (size_t)d;
        s->size += (size_t)d;
        s->win_bytes = bytes + (size_t)d;
        if (data)
            s->peer[mpishmem_rt.node_rank] = s->base;
        return 1;
    }
    /* A heap's alias can stay (fresh memory, unmapped with the heap). */
    if (ok && data && mpishmem_mem_alias_end() != 0)
        mpishmem_fatal("mpishmem", "cannot make the %s private memory again", s->name);
    *why = ok ? "the PEs' windows differ (MPI's memory, or its offsets)" : *why;
    return 0;
}

int mpishmem_mem_alias_undo(char *at, size_t len)
{
    char *tmp = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (tmp == MAP_FAILED)
        return -1;
    /* mremap by system call: UCX's memory hooks replace mremap and drop
     * MREMAP_FIXED's fifth argument (globals_shm.c). */
    if (kernel_copy(tmp, at, len) != 0 ||
        (void *)syscall(SYS_mremap, tmp, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, at) ==
            MAP_FAILED) {
        munmap(tmp, len);
        return -1;
    }
    return 0;
}

/* The one range a fork()ed child must not share with its parent. */
static struct {
    char *at;
    size_t len;
} private_range;

static void child_private(void)
{
    if (private_range.at != NULL && mpishmem_mem_alias_undo(private_range.at,
                                                            private_range.len) != 0)
        abort(); /* sharing the parent's globals would corrupt it silently */
    private_range.at = NULL;
}

static void private_in_child(char *at, size_t len)
{
    static int registered;
    if (!registered)
        registered = pthread_atfork(NULL, NULL, child_private) == 0;
    private_range.at = at;
    private_range.len = mpishmem_mem_alias_len(len);
}

int mpishmem_mem_alias_end(void)
{
    char *at = private_range.at;
    private_range.at = NULL;
    return at == NULL ? 0 : mpishmem_mem_alias_undo(at, private_range.len);
}

size_t mpishmem_mem_alias_len(size_t len)
{
    return (len + page_bytes() - 1) / page_bytes() * page_bytes();
}
