/*
 * shmem_init_thread with the level named on the command line (single,
 * funneled, serialized, multiple).  First, levels outside the four must be
 * refused with a non-zero return, leaving the library uninitialized; then
 * the named level must succeed with provided <= requested, as
 * shmem_query_thread reports.  One init per process, so meson runs this
 * program once per level.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <shmem.h>

static int failures;

#define EXPECT(cond)                                                                      \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)

static const char *const names[] = {"single", "funneled", "serialized", "multiple"};
static const int levels[] = {SHMEM_THREAD_SINGLE, SHMEM_THREAD_FUNNELED,
                             SHMEM_THREAD_SERIALIZED, SHMEM_THREAD_MULTIPLE};

/* Under SHMEM_THREAD_MULTIPLE two threads put at once, each to its own slot. */
#define NTHREADS 2
#define NPUTS 100
static int slots[NTHREADS][NPUTS];

static void *putter(void *arg)
{
    int t = (int)(long)arg, me = shmem_my_pe(), right = (me + 1) % shmem_n_pes();
    for (int i = 0; i < NPUTS; i++)
        shmem_int_p(&slots[t][i], me * 1000 + t * NPUTS + i, right);
    shmem_quiet();
    return NULL;
}

static void use_threads(void)
{
    int n = shmem_n_pes(), left = (shmem_my_pe() + n - 1) % n;
    pthread_t th[NTHREADS];
    for (long t = 0; t < NTHREADS; t++)
        EXPECT(pthread_create(&th[t], NULL, putter, (void *)t) == 0);
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
    for (int t = 0; t < NTHREADS; t++)
        for (int i = 0; i < NPUTS; i++)
            EXPECT(slots[t][i] == left * 1000 + t * NPUTS + i);
}

int main(int argc, char **argv)
{
    int requested = -1, provided = -99, init = -1;
    if (argc != 2) {
        fprintf(stderr, "usage: %s single|funneled|serialized|multiple\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < 4; i++)
        if (strcmp(argv[1], names[i]) == 0)
            requested = levels[i];
    if (requested < 0) {
        fprintf(stderr, "unknown level '%s'\n", argv[1]);
        return 2;
    }

    /* Invalid levels are refused (the library prints why). */
    EXPECT(shmem_init_thread(SHMEM_THREAD_MULTIPLE + 1, &provided) != 0);
    EXPECT(shmem_init_thread(-1, &provided) != 0);
    EXPECT(shmem_query_initialized(&init) == 0 && init == 0);

    EXPECT(shmem_init_thread(requested, &provided) == 0);
    EXPECT(shmem_query_initialized(&init) == 0 && init == 1);
    EXPECT(provided >= SHMEM_THREAD_SINGLE && provided <= requested);
    int queried = -99;
    shmem_query_thread(&queried);
    EXPECT(queried == provided);
    if (provided == SHMEM_THREAD_MULTIPLE)
        use_threads();
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("setup_thread %s: requested %d, provided %d: %s\n", argv[1], requested,
               provided, failures ? "FAILED" : "ok");
    shmem_finalize();
    return failures ? 1 : 0;
}
