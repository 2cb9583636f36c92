/*
 * ctx_rate: message rate of 8-byte puts and fetch_adds from 1, 2 and 4
 * threads of PE 0 to PE 1, each thread with its own SHMEM_CTX_PRIVATE
 * context ("private") or all threads on SHMEM_CTX_DEFAULT ("default").
 * Each thread issues BENCH_ITERS operations then quiets its context; the
 * rate is total operations / wall time, median of BENCH_REPS.  The wall
 * time runs from the first worker's start to the last worker's end, read
 * by the workers themselves: the main thread's clock is no use when the
 * threads outnumber the cores (it may not run again until the workers are
 * done, and it once measured 14,260 M puts/s that way).  Printed
 * next to the single-thread private rate (scaling).  Run it with
 * MPISHMEM_SHM=0 to measure the MPI path, as between nodes.
 *   mpiexec -n 2 ./ctx_rate
 */
#include <pthread.h>
#include <stdint.h>
#include <shmem.h>
#include "bench_util.h"

#define MAX_THREADS 4

static long *target;
static int iters;
static int use_private;
static int op_put;
static pthread_barrier_t go;
static double t_start[MAX_THREADS], t_end[MAX_THREADS];

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    shmem_ctx_t c = SHMEM_CTX_DEFAULT;
    if (use_private && shmem_ctx_create(SHMEM_CTX_PRIVATE, &c) != 0)
        c = SHMEM_CTX_DEFAULT;
    pthread_barrier_wait(&go);
    t_start[id] = bench_now_ns();
    for (int i = 0; i < iters; i++) {
        if (op_put)
            shmem_ctx_long_p(c, &target[0], i, 1);
        else
            (void)shmem_ctx_long_atomic_fetch_add(c, &target[1], 1, 1);
    }
    shmem_ctx_quiet(c);
    t_end[id] = bench_now_ns();
    pthread_barrier_wait(&go);
    if (c != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(c);
    return NULL;
}

/* Operations per microsecond with `threads` threads on PE 0. */
static double run(int threads, int reps)
{
    double samples[BENCH_MAX_REPS];
    for (int r = 0; r < reps; r++) {
        shmem_barrier_all();
        if (shmem_my_pe() == 0) {
            pthread_t th[MAX_THREADS];
            pthread_barrier_init(&go, NULL, (unsigned)threads + 1);
            for (int t = 0; t < threads; t++)
                pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t);
            pthread_barrier_wait(&go);
            pthread_barrier_wait(&go);
            double t0 = t_start[0], t1 = t_end[0];
            for (int t = 1; t < threads; t++) {
                t0 = t_start[t] < t0 ? t_start[t] : t0;
                t1 = t_end[t] > t1 ? t_end[t] : t1;
            }
            for (int t = 0; t < threads; t++)
                pthread_join(th[t], NULL);
            pthread_barrier_destroy(&go);
            samples[r] = (double)threads * iters / ((t1 - t0) / 1e3);
        }
        shmem_barrier_all();
    }
    return shmem_my_pe() == 0 ? bench_median(samples, reps) : 0;
}

int main(void)
{
    int provided;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    if (provided != SHMEM_THREAD_MULTIPLE || shmem_n_pes() < 2) {
        if (shmem_my_pe() == 0)
            fprintf(stderr, "ctx_rate: needs SHMEM_THREAD_MULTIPLE and 2+ PEs\n");
        shmem_finalize();
        return 1;
    }
    iters = bench_env_int("BENCH_ITERS", 20000);
    int reps = bench_env_int("BENCH_REPS", 7);
    if (reps > BENCH_MAX_REPS)
        reps = BENCH_MAX_REPS;
    target = shmem_calloc(2, sizeof(long));
    const char *shm = getenv("MPISHMEM_SHM");
    use_private = 1;
    op_put = 1;
    (void)run(2, 1); /* warm-up: first-touch of every lane and connection */
    op_put = 0;
    (void)run(2, 1);
    for (op_put = 1; op_put >= 0; op_put--) {
        double base = 0;
        for (use_private = 1; use_private >= 0; use_private--)
            for (int threads = 1; threads <= MAX_THREADS; threads *= 2) {
                double rate = run(threads, reps);
                if (use_private && threads == 1)
                    base = rate;
                if (shmem_my_pe() == 0)
                    printf("{\"bench\":\"ctx_rate\",\"op\":\"%s\",\"contexts\":\"%s\","
                           "\"threads\":%d,\"shm\":\"%s\",\"mops_per_s\":%.3f,"
                           "\"vs_1_thread_private\":%.2f}\n",
                           op_put ? "put8" : "fetch_add", use_private ? "private" : "default",
                           threads, shm ? shm : "1", rate, base > 0 ? rate / base : 0);
            }
    }
    shmem_free(target);
    shmem_finalize();
    return 0;
}
