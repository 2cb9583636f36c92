/*
 * rma_delayed: ordering and completion checked against an MPI that delays
 * and reorders, as MPI may.
 *
 * On one machine MPI delivers puts at once and in order, so a missing
 * fence, quiet or flush goes unseen (test/mutation.sh showed every such
 * mutant of the library surviving rma_ordering and amo_types).  Here the
 * program interposes on MPI (the profiling interface): MPI_Put and
 * MPI_Accumulate with predefined datatypes are not issued but held back,
 * and issued only when the library asks for their completion
 * (MPI_Win_flush, flush_all, flush_local, flush_local_all, unlock,
 * unlock_all, free of their window), newest first, each completed before
 * the next, with a pause after the first.  Everything MPI allows:
 * operations between two flushes are unordered and need not progress
 * before the flush.  So a flag put without a completion between it and
 * its data arrives first and the data 20 ms later, and the receiver, which
 * checks the data as soon as it sees the flag, finds it stale.
 *
 * A held put keeps a pointer to its origin buffer, not a copy: MPI may
 * read the origin until local completion, so a library that reuses an
 * origin buffer (the bounce buffer of small blocking puts) before
 * MPI_Win_flush_local delivers the wrong bytes here.  Accumulate operands
 * are copied (they are a few bytes).
 *
 * Cases (argv[1]: a comma-separated list, default all), each a few rounds:
 *   fence, ctx_fence   data; fence; flag            (receiver: flag, data)
 *   quiet, ctx_quiet   data (nbi); quiet; flag
 *   pe_quiet           data (nbi); pe_quiet; flag
 *   barrier            data; barrier_all            (receiver: data)
 *   put_signal         putmem_signal_nbi; barrier   (receiver: signal, data)
 *   bounce             192 small blocking puts from one reused source
 *                      buffer (the bounce buffer recycles), barrier
 *   get                p then g of the same word: g sees the p
 * Even PE 2k sends to 2k+1.  The paths are the MPI ones with
 * MPISHMEM_SHM=0 or across nodes; on the load/store path the cases pass
 * trivially (the suite runs them there too, the interposer must not hurt).
 * test/mutation.sh names the cases that kill each mutant.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <shmem.h>

/* ---- the interposer ---- */

#define HELD_MAX 4096
#define OPERAND_MAX 32
typedef struct held {
    int is_acc;
    const void *origin; /* puts: the caller's buffer */
    char operand[OPERAND_MAX]; /* accumulates: a copy */
    int ocount, tcount, rank;
    MPI_Datatype otype, ttype;
    MPI_Aint disp;
    MPI_Op op;
    MPI_Win win;
} held_t;

static held_t held[HELD_MAX];
static int n_held;
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long n_delayed; /* operations held back, for the report */

static int named(MPI_Datatype t)
{
    int ni, na, nd, combiner;
    PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
    return combiner == MPI_COMBINER_NAMED;
}

/* Issue the held operations of win (to rank, or every rank for rank < 0),
 * newest first, each complete before the next. */
static void drain(MPI_Win win, int rank)
{
    pthread_mutex_lock(&held_lock);
    int issued = 0;
    for (int i = n_held - 1; i >= 0; i--) {
        held_t *h = &held[i];
        if (h->win != win || (rank >= 0 && h->rank != rank))
            continue;
        if (h->is_acc)
            PMPI_Accumulate(h->operand, h->ocount, h->otype, h->rank, h->disp, h->tcount,
                            h->ttype, h->op, win);
        else
            PMPI_Put(h->origin, h->ocount, h->otype, h->rank, h->disp, h->tcount, h->ttype,
                     win);
        PMPI_Win_flush(h->rank, win);
        if (issued++ == 0 && i > 0)
            usleep(20000); /* the receiver sees this one alone */
        h->win = MPI_WIN_NULL;
    }
    int k = 0;
    for (int i = 0; i < n_held; i++)
        if (held[i].win != MPI_WIN_NULL)
            held[k++] = held[i];
    n_held = k;
    pthread_mutex_unlock(&held_lock);
}

/* Room for one more: when full, the oldest window's operations go out. */
static held_t *hold(MPI_Win win)
{
    for (;;) {
        pthread_mutex_lock(&held_lock);
        if (n_held < HELD_MAX) {
            held_t *h = &held[n_held++];
            h->win = win;
            n_delayed++;
            return h; /* locked */
        }
        MPI_Win w = held[0].win;
        pthread_mutex_unlock(&held_lock);
        drain(w, -1);
    }
}

int MPI_Put(const void *origin, int ocount, MPI_Datatype otype, int rank, MPI_Aint disp,
            int tcount, MPI_Datatype ttype, MPI_Win win)
{
    if (!named(otype) || !named(ttype))
        return PMPI_Put(origin, ocount, otype, rank, disp, tcount, ttype, win);
    held_t *h = hold(win);
    *h = (held_t){.is_acc = 0, .origin = origin, .ocount = ocount, .tcount = tcount,
                  .rank = rank, .otype = otype, .ttype = ttype, .disp = disp, .win = win};
    pthread_mutex_unlock(&held_lock);
    return MPI_SUCCESS;
}

int MPI_Accumulate(const void *origin, int ocount, MPI_Datatype otype, int rank,
                   MPI_Aint disp, int tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win)
{
    int size = 0;
    if (named(otype) && named(ttype))
        PMPI_Type_size(otype, &size);
    if (size == 0 || (size_t)size * (size_t)ocount > OPERAND_MAX)
        return PMPI_Accumulate(origin, ocount, otype, rank, disp, tcount, ttype, op, win);
    held_t *h = hold(win);
    *h = (held_t){.is_acc = 1, .ocount = ocount, .tcount = tcount, .rank = rank,
                  .otype = otype, .ttype = ttype, .disp = disp, .op = op, .win = win};
    memcpy(h->operand, origin, (size_t)size * (size_t)ocount);
    pthread_mutex_unlock(&held_lock);
    return MPI_SUCCESS;
}

int MPI_Win_flush(int rank, MPI_Win win)
{
    drain(win, rank);
    return PMPI_Win_flush(rank, win);
}

int MPI_Win_flush_local(int rank, MPI_Win win)
{
    drain(win, rank);
    return PMPI_Win_flush_local(rank, win);
}

int MPI_Win_flush_all(MPI_Win win)
{
    drain(win, -1);
    return PMPI_Win_flush_all(win);
}

int MPI_Win_flush_local_all(MPI_Win win)
{
    drain(win, -1);
    return PMPI_Win_flush_local_all(win);
}

int MPI_Win_unlock(int rank, MPI_Win win)
{
    drain(win, rank);
    return PMPI_Win_unlock(rank, win);
}

int MPI_Win_unlock_all(MPI_Win win)
{
    drain(win, -1);
    return PMPI_Win_unlock_all(win);
}

int MPI_Win_free(MPI_Win *win)
{
    drain(*win, -1);
    return PMPI_Win_free(win);
}

/* ---- the cases ---- */

#define ROUNDS 3
#define BYTES 256           /* data of a flag case: bounce-buffer sized */
#define BOUNCE_PUTS 192     /* x BOUNCE_PIECE: 3 x the 32 KiB bounce buffer */
#define BOUNCE_PIECE 512

static int me, npes, failures;
static uint8_t *data;       /* symmetric heap */
static long *flag;
static uint64_t *sig;
static long *word;

static uint8_t pattern(int round, size_t i, int salt)
{
    /* i >> 8 too: pieces 512 bytes apart must differ */
    return (uint8_t)(round * 37 + (int)i * 7 + (int)(i >> 8) * 29 + salt * 101 + 1);
}

static void check_data(const char *name, int round, size_t n, int salt)
{
    for (size_t i = 0; i < n; i++)
        if (data[i] != pattern(round, i, salt)) {
            fprintf(stderr, "PE %d: %s, round %d: byte %zu is %u, expected %u "
                    "(stale: delivered late, or read from a reused buffer)\n",
                    me, name, round, i, data[i], pattern(round, i, salt));
            failures++;
            return;
        }
}

enum how { FENCE, CTX_FENCE, QUIET, CTX_QUIET, PE_QUIET };

/* data; order; flag (put); the receiver waits for the flag, then checks. */
static void flag_case(const char *name, enum how how, int sender, int peer)
{
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    if ((how == CTX_FENCE || how == CTX_QUIET) && shmem_ctx_create(0, &ctx) != 0) {
        fprintf(stderr, "PE %d: %s: shmem_ctx_create failed\n", me, name);
        failures++;
        ctx = SHMEM_CTX_DEFAULT;
    }
    uint8_t src[BYTES];
    for (int r = 1; r <= ROUNDS; r++) {
        if (sender) {
            for (size_t i = 0; i < BYTES; i++)
                src[i] = pattern(r, i, how);
            switch (how) {
            case FENCE:
                shmem_putmem(data, src, BYTES, peer);
                shmem_fence();
                shmem_long_p(flag, r, peer);
                break;
            case CTX_FENCE:
                shmem_ctx_putmem(ctx, data, src, BYTES, peer);
                shmem_ctx_fence(ctx);
                shmem_ctx_long_p(ctx, flag, r, peer);
                break;
            case QUIET:
                shmem_putmem_nbi(data, src, BYTES, peer);
                shmem_quiet();
                shmem_long_p(flag, r, peer);
                break;
            case CTX_QUIET:
                shmem_ctx_putmem_nbi(ctx, data, src, BYTES, peer);
                shmem_ctx_quiet(ctx);
                shmem_ctx_long_p(ctx, flag, r, peer);
                break;
            case PE_QUIET:
                shmem_putmem_nbi(data, src, BYTES, peer);
                shmem_pe_quiet(&peer, 1);
                shmem_long_p(flag, r, peer);
                break;
            }
        } else if (peer >= 0) {
            shmem_long_wait_until(flag, SHMEM_CMP_GE, r);
            check_data(name, r, BYTES, how);
        }
        /* Completes the flag (and, after a broken ordering call, the data
         * behind it); the receiver is done with this round's data. */
        shmem_barrier_all();
    }
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    *flag = 0;
    shmem_barrier_all();
}

/* data; barrier_all; the receiver checks. */
static void barrier_case(int sender, int peer)
{
    uint8_t src[BYTES];
    for (int r = 1; r <= ROUNDS; r++) {
        if (sender) {
            for (size_t i = 0; i < BYTES; i++)
                src[i] = pattern(r, i, 10);
            shmem_putmem(data, src, BYTES, peer);
        }
        shmem_barrier_all();
        if (!sender && peer >= 0)
            check_data("barrier", r, BYTES, 10);
        shmem_barrier_all();
    }
}

/* putmem_signal_nbi; the receiver waits for the signal, then checks. */
static void put_signal_case(int sender, int peer)
{
    uint8_t src[BYTES];
    for (int r = 1; r <= ROUNDS; r++) {
        if (sender) {
            for (size_t i = 0; i < BYTES; i++)
                src[i] = pattern(r, i, 11);
            shmem_putmem_signal_nbi(data, src, BYTES, sig, (uint64_t)r, SHMEM_SIGNAL_SET, peer);
        } else if (peer >= 0) {
            shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)r);
            check_data("put_signal", r, BYTES, 11);
        }
        shmem_barrier_all();
    }
    *sig = 0;
    shmem_barrier_all();
}

/* Small blocking puts, one source buffer rewritten after each: the bounce
 * buffer fills and recycles three times. */
static void bounce_case(int sender, int peer)
{
    uint8_t src[BOUNCE_PIECE];
    for (int r = 1; r <= ROUNDS; r++) {
        if (sender)
            for (size_t p = 0; p < BOUNCE_PUTS; p++) {
                for (size_t i = 0; i < BOUNCE_PIECE; i++)
                    src[i] = pattern(r, p * BOUNCE_PIECE + i, 12);
                shmem_putmem(data + p * BOUNCE_PIECE, src, BOUNCE_PIECE, peer);
            }
        shmem_barrier_all();
        if (!sender && peer >= 0)
            check_data("bounce", r, (size_t)BOUNCE_PUTS * BOUNCE_PIECE, 12);
        shmem_barrier_all();
    }
}

/* A blocking get sees this PE's earlier put to the same word. */
static void get_case(int sender, int peer)
{
    for (int r = 1; r <= ROUNDS; r++) {
        if (sender) {
            shmem_long_p(word, 1000 + r, peer);
            long v = shmem_long_g(word, peer);
            if (v != 1000 + r) {
                fprintf(stderr, "PE %d: get, round %d: read %ld after putting %d\n", me, r,
                        v, 1000 + r);
                failures++;
            }
        }
        shmem_barrier_all();
    }
}

static int wanted(const char *list, const char *name)
{
    if (list == NULL || strcmp(list, "all") == 0)
        return 1;
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    const char *list = argc > 1 ? argv[1] : NULL;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    data = shmem_calloc((size_t)BOUNCE_PUTS * BOUNCE_PIECE, 1);
    flag = shmem_calloc(1, sizeof *flag);
    sig = shmem_calloc(1, sizeof *sig);
    word = shmem_calloc(1, sizeof *word);
    /* Pairs (2k, 2k+1); an odd PE out only joins the barriers. */
    int sender = me % 2 == 0 && me + 1 < npes;
    int peer = sender ? me + 1 : (me % 2 == 1 ? me - 1 : -1);
    shmem_barrier_all();

    static const struct {
        const char *name;
        enum how how;
    } flags[] = {{"fence", FENCE}, {"ctx_fence", CTX_FENCE}, {"quiet", QUIET},
                 {"ctx_quiet", CTX_QUIET}, {"pe_quiet", PE_QUIET}};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (wanted(list, flags[i].name))
            flag_case(flags[i].name, flags[i].how, sender, peer);
    if (wanted(list, "barrier"))
        barrier_case(sender, peer);
    if (wanted(list, "put_signal"))
        put_signal_case(sender, peer);
    if (wanted(list, "bounce"))
        bounce_case(sender, peer);
    if (wanted(list, "get"))
        get_case(sender, peer);

    if (me == 0)
        printf("rma_delayed: %s: %lu operations held back on PE 0\n", list ? list : "all",
               n_delayed);
    shmem_free(word);
    shmem_free(sig);
    shmem_free(flag);
    shmem_free(data);
    shmem_finalize();
    return failures != 0;
}
