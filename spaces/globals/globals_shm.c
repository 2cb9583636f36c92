/*
 * mpishmem: a shared-memory backing for the program's global data, so PEs
 * on one node reach each other's globals by load/store, as for the heap.
 *
 * At load time (a constructor, before main and so before any thread or MPI
 * exists) the executable's writable data (exe_data.c), rounded out
 * to pages, is copied into an anonymous shared-memory object (memfd, or a
 * POSIX shm object unlinked at once) and that object is mapped over the
 * same addresses.  Addresses and contents do not change; only the backing
 * does.  Each PE backs its own data: no PE ever sees another's libc or MPI
 * state unless it asks for a symmetric address.  shmem_init then opens the
 * objects of the other PEs of the node through /proc/PID/fd/N and maps
 * them (mpishmem_globals_shm_map).  Nothing has a name in /dev/shm, so a
 * killed PE leaves nothing behind.
 *
 * Any surprise (the range is not one run of private writable mappings,
 * no memfd/shm, a peer's object cannot be opened, or is not the one we
 * expect) leaves the globals on the MPI path and says why under SHMEM_INFO.
 *
 * A fork()ed child must not share its parent's globals: an atfork handler
 * gives the child a private copy.
 *
 * Both copies go through the kernel (pread/pwrite as raw system calls),
 * never through memcpy: in a program built with -fsanitize=address the
 * range holds ASan's redzones around each global, and ASan's memcpy (which
 * replaces libc's for the whole process, this library included) aborts on
 * reading them.  The kernel reads and writes user memory without looking at
 * ASan's shadow, and the shadow itself is separate memory that the remap
 * leaves alone, so ASan goes on checking the program's globals afterwards.
 * syscall() keeps the copies out of ASan's pread/pwrite interceptors, which
 * check the same shadow (docs/globals.md, Sanitizers).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "globals_shm.h"
#include "../../mpi_backend/settings/env_read.h"

int mpishmem_exe_data_range(uintptr_t *lo, uintptr_t *hi); /* exe_data.c */

/* Written only after the new mapping is in place (writes to .data/.bss
 * made between the copy and the remap would be lost). */
static struct {
    int fd;            /* the object backing [lo, lo + len), or -1 */
    char *lo;
    size_t len;
    const char *why;   /* why there is no backing, when fd < 0 */
} gs = {.fd = -1, .why = "not attempted"};

/* mremap by system call: memory hooks of MPI transports (UCX's ucm) replace
 * mremap and drop MREMAP_FIXED's fifth argument. */
static void *remap_fixed(void *from, size_t len, void *to)
{
    return (void *)syscall(SYS_mremap, from, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, to);
}

static size_t page_bytes(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

static int env_off(const char *name)
{
    const char *v = mpishmem_env(name);
    if (v == NULL)
        return 0;
    return strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 || strcasecmp(v, "false") == 0 ||
           strcasecmp(v, "off") == 0;
}

/* [lo, hi) must be covered, without gaps, by private writable mappings.
 * Sets *anon_from to the start of the trailing run of anonymous mappings
 * (untouched .bss pages there are zero and need no copy). */
static int layout_ok(uintptr_t lo, uintptr_t hi, uintptr_t *anon_from)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (f == NULL)
        return 0;
    char line[512];
    uintptr_t at = lo;
    *anon_from = hi;
    int ok = 1;
    while (at < hi && fgets(line, sizeof line, f)) {
        unsigned long a, b, ino;
        char perm[8];
        if (sscanf(line, "%lx-%lx %7s %*s %*s %lu", &a, &b, perm, &ino) != 4)
            continue;
        if (b <= at)
            continue;
        if (a > at || perm[0] != 'r' || perm[1] != 'w' || perm[3] != 'p') {
            ok = 0;
            break;
        }
        if (ino != 0)
            *anon_from = hi;
        else if (*anon_from == hi)
            *anon_from = at;
        at = b;
    }
    fclose(f);
    return ok && at >= hi;
}

/* Copies len bytes between mem and the object fd at off, by the kernel
 * (see the top of the file for why); to_fd: mem -> fd, else fd -> mem.
 * 0, or -1 when the kernel copied less (it reports no error past a partial
 * copy, so a short count without errno is an error too). */
static int kernel_copy(int to_fd, int fd, char *mem, size_t len, off_t off)
{
    while (len > 0) {
        long n = syscall(to_fd ? SYS_pwrite64 : SYS_pread64, fd, mem, len, off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        mem += n;
        len -= (size_t)n;
        off += n;
    }
    return 0;
}

/* Whether the anonymous page at p was ever touched: /proc/self/pagemap's
 * present (63) or swapped (62) bit.  -1 when pagemap cannot tell. */
static int page_touched(int pm, uintptr_t p, size_t page)
{
    uint64_t e;
    if (pm < 0 || pread(pm, &e, 8, (off_t)(p / page * 8)) != 8)
        return -1;
    return (e >> 62) != 0;
}

/* The child of fork(): a private copy of the data (only the parts the
 * object holds; holes are zero) in place of the shared backing. */
static void child_private(void)
{
    if (gs.fd < 0)
        return;
    char *tmp = mmap(NULL, gs.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (tmp == MAP_FAILED)
        abort(); /* sharing the parent's globals would corrupt it silently */
    off_t end = (off_t)gs.len, at = 0;
    while (at < end) {
        off_t d = lseek(gs.fd, at, SEEK_DATA);
        if (d < 0)
            break;
        off_t h = lseek(gs.fd, d, SEEK_HOLE);
        if (h < 0 || h > end)
            h = end;
        /* The object is what gs.lo shows: read it, not gs.lo (memcpy). */
        if (kernel_copy(0, gs.fd, tmp + d, (size_t)(h - d), d) != 0)
            abort();
        at = h;
    }
    int fd = gs.fd;
    if (remap_fixed(tmp, gs.len, gs.lo) == MAP_FAILED)
        abort();
    /* From here on the globals are the child's own. */
    close(fd);
    gs.fd = -1;
    gs.why = "a fork()ed child";
}

__attribute__((constructor(101))) static void globals_shm_setup(void)
{
    size_t page = page_bytes();
    if (env_off("MPISHMEM_SHM_GLOBALS") || env_off("MPISHMEM_SHM")) {
        gs.why = "turned off (MPISHMEM_SHM_GLOBALS=0 or MPISHMEM_SHM=0)";
        return;
    }
    /* The program's range, found the same way as for its window (the
     * linker's _end would be libmpishmem.so's own in a shared build). */
    uintptr_t data_lo, data_hi;
    if (mpishmem_exe_data_range(&data_lo, &data_hi) != 0) {
        gs.why = "the program headers name no writable data segment";
        return;
    }
    uintptr_t lo = data_lo & ~(uintptr_t)(page - 1);
    uintptr_t hi = (data_hi + page - 1) & ~(uintptr_t)(page - 1);
    size_t len = hi - lo;
    uintptr_t anon_from;
    if (!layout_ok(lo, hi, &anon_from)) {
        gs.why = "unexpected memory layout of .data/.bss";
        return;
    }
    if (pthread_atfork(NULL, NULL, child_private) != 0) {
        gs.why = "pthread_atfork failed";
        return;
    }
    int fd = mpishmem_shm_object_new("mpishmem-globals", len);
    if (fd < 0) {
        gs.why = "no memfd_create or shm_open";
        return;
    }
    char *tmp = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (tmp == MAP_FAILED) {
        close(fd);
        gs.why = "cannot map a shared-memory object";
        return;
    }
    /* From the copy to the remap only system calls run: a write to the
     * range in between would be lost.  Runs of pages to copy go to the
     * object by one pwrite each (not memcpy: see the top of the file). */
    int pm = anon_from < hi ? open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC) : -1;
    int failed = 0;
    uintptr_t run = hi; /* start of the pending run of pages to copy */
    for (uintptr_t p = lo; p <= hi && failed == 0; p += page) {
        /* Pages never touched are zero, as the object's hole is. */
        int skip = p == hi || (p >= anon_from && page_touched(pm, p, page) == 0);
        if (!skip && run == hi)
            run = p;
        if (skip && run != hi) {
            failed = kernel_copy(1, fd, (char *)run, p - run, (off_t)(run - lo));
            run = hi;
        }
    }
    if (pm >= 0)
        close(pm);
    if (failed != 0) {
        munmap(tmp, len);
        close(fd);
        gs.why = "cannot copy the data into the shared-memory object";
        return;
    }
    if (remap_fixed(tmp, len, (void *)lo) == MAP_FAILED) {
        /* mremap fails before touching the target (checks come first) in
         * every case but running out of mappings; then the data is gone. */
        munmap(tmp, len);
        close(fd);
        gs.why = "cannot map the shared-memory object over the data";
        return;
    }
    gs.fd = fd;
    gs.lo = (char *)lo;
    gs.len = len;
    gs.why = NULL;
}

int mpishmem_globals_shm_info(mpishmem_shm_id_t *id)
{
    return mpishmem_shm_id_of(gs.fd, gs.len, id);
}

char *mpishmem_globals_shm_lo(void)
{
    return gs.fd >= 0 ? gs.lo : NULL;
}

const char *mpishmem_globals_shm_why(void)
{
    return gs.why;
}

char *mpishmem_globals_shm_map(const mpishmem_shm_id_t *id, unsigned slot)
{
    if (id->len != gs.len || gs.fd < 0)
        return NULL;
    return mpishmem_shm_map_peer_beside(id, gs.lo, slot);
}

void mpishmem_globals_shm_unmap(char *p)
{
    if (p)
        munmap(p, gs.len);
}
