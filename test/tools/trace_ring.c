/*
 * Traffic with a known communication map, for test/tools/trace.sh.
 *
 *   trace_ring N B          every PE puts B bytes to its right neighbour
 *                           N times, then one shmem_barrier_all
 *   trace_ring N B mixed    the same puts from 2 threads (2N puts), then a
 *                           barrier, a get of B bytes from the left
 *                           neighbour, an atomic add on PE 0, a put-with-
 *                           signal of B bytes to the right, a broadcast of
 *                           8 bytes from PE 0, a sum reduction, fcollect
 *                           and alltoall of one long, a team sync and a
 *                           closing barrier
 *
 * The data is checked too (exit 1 on a wrong value); the counts are checked
 * by trace.sh from the MPISHMEM_TRACE file.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>

static size_t n_puts, nbytes;
static char *inbox, *outbox;
static int right;

static void *put_many(void *arg)
{
    (void)arg;
    for (size_t i = 0; i < n_puts; i++)
        shmem_putmem(inbox, outbox, nbytes, right);
    return NULL;
}

static int check(const char *what, const char *buf, int from)
{
    for (size_t i = 0; i < nbytes; i++)
        if (buf[i] != (char)(from * 7 + (int)i)) {
            fprintf(stderr, "trace_ring: %s byte %zu is %d, expected %d\n", what, i, buf[i],
                    (char)(from * 7 + (int)i));
            return 0;
        }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: trace_ring N B [mixed]\n");
        return 2;
    }
    n_puts = strtoul(argv[1], NULL, 10);
    nbytes = strtoul(argv[2], NULL, 10);
    int mixed = argc > 3 && strcmp(argv[3], "mixed") == 0;
    int provided = SHMEM_THREAD_SINGLE;
    shmem_init_thread(mixed ? SHMEM_THREAD_MULTIPLE : SHMEM_THREAD_SINGLE, &provided);
    int me = shmem_my_pe(), n = shmem_n_pes(), left = (me + n - 1) % n;
    printf("trace_ring: PE %d past shmem_init\n", me); /* trace.sh: an unwritable
                                                        * path stops before this */
    right = (me + 1) % n;
    inbox = shmem_malloc(nbytes);
    outbox = shmem_malloc(nbytes);
    long *counter = shmem_calloc(1, sizeof(long));
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    long *bcast = shmem_calloc(1, sizeof(long));
    char *got = malloc(nbytes);
    if (!inbox || !outbox || !counter || !sig || !bcast || !got)
        return 1;
    for (size_t i = 0; i < nbytes; i++)
        outbox[i] = (char)(me * 7 + (int)i);
    shmem_barrier_all();

    if (mixed && provided == SHMEM_THREAD_MULTIPLE) {
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            pthread_create(&t[i], NULL, put_many, NULL);
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
    } else {
        for (int i = 0; i < (mixed ? 2 : 1); i++)
            put_many(NULL); /* the same counts without threads */
    }
    shmem_barrier_all();
    int ok = check("put", inbox, left);
    if (mixed) {
        shmem_getmem(got, outbox, nbytes, left);
        ok &= check("get", got, left);
        shmem_long_atomic_add(counter, 1, 0);
        shmem_putmem_signal(inbox, outbox, nbytes, sig, 1, SHMEM_SIGNAL_ADD, right);
        shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
        ok &= check("put_signal", inbox, left);
        long v = 42;
        shmem_long_broadcast(SHMEM_TEAM_WORLD, bcast, &v, 1, 0);
        /* One of each other collective family, 8 bytes per peer each. */
        long *one = shmem_malloc(sizeof(long)), *sum = shmem_malloc(sizeof(long));
        long *all = shmem_malloc((size_t)n * sizeof(long));
        long *mine = shmem_malloc((size_t)n * sizeof(long));
        *one = me;
        for (int i = 0; i < n; i++)
            mine[i] = me * 100 + i;
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, sum, one, 1);
        shmem_long_fcollect(SHMEM_TEAM_WORLD, all, one, 1);
        ok &= *sum == (long)n * (n - 1) / 2 && all[n - 1] == n - 1;
        shmem_long_alltoall(SHMEM_TEAM_WORLD, all, mine, 1);
        ok &= all[left] == left * 100 + me;
        shmem_team_sync(SHMEM_TEAM_WORLD);
        shmem_barrier_all();
        ok &= *bcast == 42;
        if (me == 0 && *counter != n) {
            fprintf(stderr, "trace_ring: counter %ld, expected %d\n", *counter, n);
            ok = 0;
        }
    }
    free(got);
    shmem_finalize();
    return ok ? 0 : 1;
}
