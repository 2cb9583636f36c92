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

char *mpishmem_shm_map_peer(const mpishmem_shm_id_t *id)
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
        (uint64_t)st.st_dev == id->dev && (uint64_t)st.st_ino == id->ino)
        p = mmap(NULL, (size_t)id->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    return p == MAP_FAILED ? NULL : p;
}
