/*
 * mpishmem: node-shared objects (node_shm.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "node_shm.h"

int mpishmem_shm_object_new(const char *what, size_t len)
{
    int fd = memfd_create(what, MFD_CLOEXEC);
    if (fd < 0) {
        /* No memfd (old kernel, seccomp): a POSIX object, unlinked at once. */
        static unsigned serial;
        char name[96];
        snprintf(name, sizeof name, "/%s-%ld-%u", what, (long)getpid(), serial++);
        fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0)
            shm_unlink(name);
    }
    if (fd >= 0 && ftruncate(fd, (off_t)len) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

int mpishmem_shm_id_of(int fd, size_t len, mpishmem_shm_id_t *id)
{
    memset(id, 0, sizeof *id);
    id->pid = (long)getpid();
    id->fd = -1;
    id->len = len;
    /* A device and inode name one object: a peer that opens our fd by
     * /proc path (a reused pid, another PID namespace) checks it got this
     * one. */
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return 0;
    id->fd = fd;
    id->dev = (uint64_t)st.st_dev;
    id->ino = (uint64_t)st.st_ino;
    return 1;
}

/* len bytes of fd at the first address a >= r with (a - mirror) mod
 * MPISHMEM_SHM_COLOR_SPAN == color: reserve len + the span, map into it,
 * give the rest back.  MAP_FAILED when the reservation fails. */
static char *map_colored(int fd, size_t len, uintptr_t mirror, uintptr_t color)
{
    const uintptr_t span = MPISHMEM_SHM_COLOR_SPAN;
    char *r = mmap(NULL, len + span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (r == MAP_FAILED)
        return MAP_FAILED;
    char *a = r + ((mirror + color - (uintptr_t)r) & (span - 1));
    if (mmap(a, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
        munmap(r, len + span);
        return MAP_FAILED;
    }
    if (a > r)
        munmap(r, (size_t)(a - r));
    munmap(a + len, (size_t)(r + span - a)); /* a < r + span: never empty */
    return a;
}

/* Opens and maps a peer's object; with color != 0 at mirror + color
 * modulo the colour span (map_colored), else where the kernel likes. */
static char *map_peer(const mpishmem_shm_id_t *id, uintptr_t mirror, uintptr_t color)
{
    if (id->fd < 0 || id->len == 0)
        return NULL;
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/fd/%d", id->pid, id->fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *p = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (uint64_t)st.st_size == id->len &&
        (uint64_t)st.st_dev == id->dev && (uint64_t)st.st_ino == id->ino) {
        if (color != 0)
            p = map_colored(fd, (size_t)id->len, mirror, color);
        if (p == MAP_FAILED) /* no colour asked, or no address space to reserve */
            p = mmap(NULL, (size_t)id->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    close(fd);
    return p == MAP_FAILED ? NULL : p;
}

char *mpishmem_shm_map_peer(const mpishmem_shm_id_t *id)
{
    return map_peer(id, 0, 0);
}

uintptr_t mpishmem_shm_color(unsigned slot)
{
    /* Steps of 2 MiB keep a 2 MiB-aligned mirror's alignment (huge pages);
     * 127 of them are every non-zero value of bits 21-27. */
    return ((uintptr_t)(slot % 127u) + 1u) << 21;
}

char *mpishmem_shm_map_peer_beside(const mpishmem_shm_id_t *id, const void *mirror,
                                   unsigned slot)
{
    return map_peer(id, (uintptr_t)mirror, mpishmem_shm_color(slot));
}
