/*
 * mpishmem: the communication map (see trace.h, docs/tools.md).
 *
 * Counts live in one table per PE, [target PE][kind] x {ops, bytes},
 * updated with relaxed atomic adds so threads of a SHMEM_THREAD_MULTIPLE
 * program may count at once.  At shmem_finalize each PE sends only its
 * non-zero cells to PE 0 (memory follows the traffic, not n_pes^2), and PE 0
 * writes every (source, target, kind) row, zeros included.
 *
 * The file: PE 0 creates a temporary file next to it at shmem_init
 * (.FILE.mpishmem-XXXXXX, O_CREAT|O_EXCL|O_NOFOLLOW, mode 0644 less the
 * umask), so a path that cannot be written stops the job at the start, not
 * after the whole run.  At shmem_finalize the CSV goes into that file,
 * which rename() then puts at FILE: a symlink at FILE is replaced itself
 * (its target is never opened), and an existing file is replaced, not
 * truncated and rewritten in place.  A job that dies leaves the temporary.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "context.h"
#include "../mpi_backend/settings/env_parse.h"
#include "../mpi_backend/runtime/error.h"
#include "trace.h"
#include "../mpi_backend/settings/env_read.h"

int mpishmem_trace_on;

typedef struct { uint64_t ops, bytes; } cell_t;
static cell_t *table;         /* [n_pes * KINDS] */
static char *path;            /* PE 0: the file to write */
static char *tmp_path;        /* PE 0: where it is written first */
static FILE *tmp_file;        /* PE 0: open on tmp_path */
static MPI_Group world_group; /* for collectives on other communicators */

static const char *const kind_names[MPISHMEM_TRACE_KINDS] = {"put", "get", "amo", "signal",
                                                             "collective"};

static void count(int world_pe, int kind, size_t bytes)
{
    if (MPISHMEM_UNLIKELY((unsigned)world_pe >= (unsigned)mpishmem_rt.n_pes))
        return;
    cell_t *c = &table[(size_t)world_pe * MPISHMEM_TRACE_KINDS + (size_t)kind];
    __atomic_fetch_add(&c->ops, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&c->bytes, (uint64_t)bytes, __ATOMIC_RELAXED);
}

void mpishmem_trace_op(const char *routine, shmem_ctx_t ctx, int pe, int kind, size_t bytes)
{
    if (ctx == SHMEM_CTX_INVALID || bytes == 0 || table == NULL)
        return;
    if (MPISHMEM_DEBUG_ON) /* the message a bad handle gets, before we read it */
        mpishmem_check_ctx(routine, ctx);
    if (ctx->pe_map != NULL) {
        if ((unsigned)pe >= (unsigned)ctx->n_pes)
            return;
        pe = mpishmem_ctx_world_pe(ctx, pe);
    }
    count(pe, kind, bytes);
}

void mpishmem_trace_coll(MPI_Comm comm, int root, size_t bytes)
{
    if (table == NULL)
        return;
    int n, me;
    MPISHMEM_MPI(MPI_Comm_size(comm, &n));
    MPISHMEM_MPI(MPI_Comm_rank(comm, &me));
    int *ranks = malloc(2 * (size_t)n * sizeof(int));
    if (ranks == NULL)
        mpishmem_fatal("MPISHMEM_TRACE", "out of memory for a collective of %d PEs", n);
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    MPI_Group g;
    MPISHMEM_MPI(MPI_Comm_group(comm, &g));
    MPISHMEM_MPI(MPI_Group_translate_ranks(g, n, ranks, world_group, ranks + n));
    MPISHMEM_MPI(MPI_Group_free(&g));
    size_t mine = root < 0 || root == me ? bytes : 0;
    for (int i = 0; i < n; i++) {
        if (i == me || ranks[n + i] == MPI_UNDEFINED)
            continue;
        cell_t *c = &table[(size_t)ranks[n + i] * MPISHMEM_TRACE_KINDS + MPISHMEM_TRACE_COLL];
        __atomic_fetch_add(&c->ops, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&c->bytes, (uint64_t)mine, __ATOMIC_RELAXED);
    }
    free(ranks);
}

/* PE 0: creates tmp_path, .BASE.mpishmem-XXXXXX in FILE's directory, and
 * opens tmp_file on it.  Returns 0, or -1 with errno set. */
static int create_temporary(void)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0; /* with the '/' */
    const char *base = path + dir_len;
    struct stat st;
    if (*base == '\0' || (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
        errno = EISDIR; /* rename could not put a file there */
        return -1;
    }
    static const char suffix[] = ".mpishmem-XXXXXX";
    size_t len = dir_len + 1 + strlen(base) + sizeof suffix;
    if ((tmp_path = malloc(len)) == NULL)
        return -1;
    snprintf(tmp_path, len, "%.*s.%s%s", (int)dir_len, path, base, suffix);
    char *x = tmp_path + len - 7; /* the six X */
    static const char letters[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t r = (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 20) ^
                 ((uint64_t)getpid() << 40) ^ (uintptr_t)&now;
    for (int attempt = 0; attempt < 100; attempt++) {
        for (int i = 0; i < 6; i++) {
            r ^= r << 13; /* xorshift64: names only need to differ */
            r ^= r >> 7;
            r ^= r << 17;
            x[i] = letters[r % (sizeof letters - 1)];
        }
        int fd = open(tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0) {
            if (errno == EEXIST)
                continue;
            return -1;
        }
        if ((tmp_file = fdopen(fd, "w")) == NULL) {
            int e = errno;
            close(fd);
            unlink(tmp_path);
            errno = e;
            return -1;
        }
        return 0;
    }
    errno = EEXIST;
    return -1;
}

void mpishmem_trace_init(void)
{
    /* PE 0 writes the file, so its setting decides for every PE (the
     * gather at finalize must be made by all of them).  The verdict:
     * 0 off, 1 on, -1 PE 0 cannot create the file. */
    int on = 0, err = 0;
    if (mpishmem_rt.my_pe == 0) {
        const char *v = mpishmem_env("MPISHMEM_TRACE");
        on = v != NULL && v[0] != '\0'; /* empty counts as unset (docs/environment.md) */
        if (on && (path = strdup(v)) == NULL)
            mpishmem_fatal("shmem_init", "out of memory for MPISHMEM_TRACE");
        if (on && create_temporary() != 0) {
            err = errno;
            on = -1;
        }
    }
    MPISHMEM_MPI(MPI_Bcast(&on, 1, MPI_INT, 0, mpishmem_rt.world));
    if (on < 0) {
        if (mpishmem_rt.my_pe == 0)
            mpishmem_fatal("shmem_init", "cannot write trace file %s (MPISHMEM_TRACE): %s",
                           mpishmem_env_shown(path), strerror(err));
        /* PE 0's message and abort normally end this PE first. */
        struct timespec wait = {5, 0};
        nanosleep(&wait, NULL);
        mpishmem_fatal("shmem_init", "PE 0 cannot write the MPISHMEM_TRACE file");
    }
    if (!on)
        return;
    table = calloc((size_t)mpishmem_rt.n_pes * MPISHMEM_TRACE_KINDS, sizeof *table);
    if (table == NULL)
        mpishmem_fatal("shmem_init", "out of memory for the MPISHMEM_TRACE table of %d PEs",
                       mpishmem_rt.n_pes);
    MPISHMEM_MPI(MPI_Comm_group(mpishmem_rt.world, &world_group));
    mpishmem_trace_on = 1;
}

static void write_failed(void)
{
    int e = errno;
    unlink(tmp_path);
    mpishmem_fatal("shmem_finalize", "cannot write trace file %s (MPISHMEM_TRACE): %s",
                   mpishmem_env_shown(path), strerror(e));
}

/* PE 0: every row of the matrix from the gathered non-zero cells, which
 * arrive ordered by source PE and, within a source, by target and kind. */
static void write_csv(FILE *f, const uint64_t *cells, const int *counts)
{
    int n = mpishmem_rt.n_pes;
    size_t row = (size_t)n * MPISHMEM_TRACE_KINDS;
    cell_t *dense = malloc(row * sizeof *dense);
    if (dense == NULL)
        mpishmem_fatal("shmem_finalize", "out of memory writing the trace of %d PEs", n);
    if (fprintf(f, "source_pe,target_pe,kind,ops,bytes\n") < 0)
        write_failed();
    for (int src = 0; src < n; src++) {
        memset(dense, 0, row * sizeof *dense);
        for (int i = 0; i < counts[src] / 3; i++, cells += 3)
            dense[cells[0]] = (cell_t){cells[1], cells[2]};
        for (size_t k = 0; k < row; k++)
            if (fprintf(f, "%d,%zu,%s,%llu,%llu\n", src, k / MPISHMEM_TRACE_KINDS,
                        kind_names[k % MPISHMEM_TRACE_KINDS], (unsigned long long)dense[k].ops,
                        (unsigned long long)dense[k].bytes) < 0)
                write_failed();
    }
    free(dense);
}

void mpishmem_trace_finalize(void)
{
    mpishmem_trace_on = 0; /* finalize's own barrier is not the program's */
    int n = mpishmem_rt.n_pes, me = mpishmem_rt.my_pe;
    FILE *f = tmp_file; /* PE 0: opened at shmem_init */

    /* This PE's non-zero cells as (target * KINDS + kind, ops, bytes). */
    size_t row = (size_t)n * MPISHMEM_TRACE_KINDS, used = 0;
    for (size_t k = 0; k < row; k++)
        used += table[k].ops != 0;
    if (used * 3 > INT32_MAX)
        mpishmem_fatal("shmem_finalize", "too many trace cells to gather (%zu)", used);
    uint64_t *mine = malloc((used * 3 + 1) * sizeof *mine);
    if (mine == NULL)
        mpishmem_fatal("shmem_finalize", "out of memory for the trace");
    for (size_t k = 0, j = 0; k < row; k++)
        if (table[k].ops != 0) {
            mine[j++] = k;
            mine[j++] = table[k].ops;
            mine[j++] = table[k].bytes;
        }
    int sendcount = (int)(used * 3);
    int *counts = NULL, *displs = NULL;
    uint64_t *all = NULL;
    if (me == 0) {
        counts = malloc((size_t)n * sizeof *counts);
        displs = malloc((size_t)n * sizeof *displs);
        if (counts == NULL || displs == NULL)
            mpishmem_fatal("shmem_finalize", "out of memory for the trace");
    }
    MPISHMEM_MPI(MPI_Gather(&sendcount, 1, MPI_INT, counts, 1, MPI_INT, 0, mpishmem_rt.world));
    if (me == 0) {
        long long total = 0;
        for (int i = 0; i < n; i++) {
            if (total > INT32_MAX)
                mpishmem_fatal("shmem_finalize", "too many trace cells to gather");
            displs[i] = (int)total;
            total += counts[i];
        }
        if ((all = malloc(((size_t)total + 1) * sizeof *all)) == NULL)
            mpishmem_fatal("shmem_finalize", "out of memory for the trace");
    }
    MPISHMEM_MPI(MPI_Gatherv(mine, sendcount, MPI_UINT64_T, all, counts, displs, MPI_UINT64_T, 0,
                             mpishmem_rt.world));
    if (me == 0) {
        write_csv(f, all, counts);
        tmp_file = NULL;
        if (fclose(f) != 0 || rename(tmp_path, path) != 0)
            write_failed();
    }
    free(all);
    free(counts);
    free(displs);
    free(mine);
    free(table);
    table = NULL;
    free(path);
    path = NULL;
    free(tmp_path);
    tmp_path = NULL;
    MPISHMEM_MPI(MPI_Group_free(&world_group));
}
