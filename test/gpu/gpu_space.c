/*
 * The predefined GPU space at work (SHMEM_ENABLE_GPU_SPACE=1, the CPU space
 * the default): RMA of every form and size between GPU-space buffers and
 * across spaces, with device and host local buffers; AMOs, waits,
 * signals, a lock and collectives on GPU-space memory.  Run by meson with
 * MPI GPU-aware and not, shm on and off, on one node and on two pretend
 * nodes: IPC copies, the agents, staged MPI and MPI on device memory each
 * carry part of it.  Device memory is written and read only with the
 * runtime's copies (under the stand-in a CPU access would stop the test).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu_common.h"

static int me, npes, right, left;
static size_t big; /* several agent / staging chunks, not a multiple of one */

static unsigned char *host_buf(size_t n)
{
    unsigned char *h = malloc(n);
    if (h == NULL)
        gpu_die("out of memory");
    return h;
}

/* dest (on this PE, any memory) holds pattern(who) over n bytes. */
static void expect_pattern(const char *what, const void *dest, int who, size_t n)
{
    unsigned char *h = host_buf(n);
    if (gpu_device_of(dest) >= 0)
        from_dev(h, dest, n);
    else
        memcpy(h, dest, n);
    size_t w = first_wrong(h, who, n);
    EXPECT(w == n, "%s: %zu bytes from PE %d: byte %zu is %u, not %u", what, n, who, w,
           w < n ? h[w] : 0, w < n ? pattern(who, w) : 0);
    free(h);
}

static void set_pattern(void *buf, int who, size_t n)
{
    unsigned char *h = host_buf(n);
    fill(h, who, n);
    if (gpu_device_of(buf) >= 0)
        to_dev(buf, h, n);
    else
        memcpy(buf, h, n);
    free(h);
}

/* Every put and get form from src (local) into dst (symmetric) of right. */
static void rma_between(const char *what, void *dst, void *src, size_t n)
{
    set_pattern(src, me, n);
    shmem_barrier_all();
    shmem_putmem(dst, src, n, right);
    shmem_barrier_all();
    expect_pattern(what, dst, left, n);
    shmem_barrier_all();
    set_pattern(src, me + 100, n);
    shmem_putmem_nbi(dst, src, n, right);
    shmem_quiet();
    shmem_barrier_all();
    expect_pattern(what, dst, left + 100, n);
    /* get: dst of the right neighbour holds pattern(me + 100). */
    shmem_barrier_all();
    shmem_getmem(src, dst, n, right);
    expect_pattern(what, src, me + 100, n);
    set_pattern(src, 7, n);
    shmem_getmem_nbi(src, dst, n, right);
    shmem_quiet();
    expect_pattern(what, src, me + 100, n);
    shmem_barrier_all();
}

static void test_rma(void)
{
    static const size_t sizes[] = {8, 1000};
    unsigned char *gsrc = shmem_space_malloc(SHMEM_SPACE_GPU, big);
    unsigned char *gdst = shmem_space_malloc(SHMEM_SPACE_GPU, big);
    unsigned char *hdst = shmem_malloc(big);
    unsigned char *user = gpu_alloc(big);          /* the program's own device memory */
    unsigned char *stack_like = host_buf(big);     /* private host memory */
    EXPECT(gsrc && gdst && hdst, "allocation failed");
    EXPECT(gpu_device_of(gsrc) >= 0 && gpu_device_of(hdst) < 0, "memory kinds");
    for (int k = 0; k < 3; k++) {
        size_t n = k < 2 ? sizes[k] : big;
        rma_between("GPU space <- GPU space", gdst, gsrc, n);
        rma_between("CPU heap <- GPU space", hdst, gsrc, n);
        rma_between("GPU space <- cudaMalloc", gdst, user, n);
        rma_between("CPU heap <- cudaMalloc", hdst, user, n);
        rma_between("GPU space <- host memory", gdst, stack_like, n);
    }
    /* To oneself and single elements. */
    long *gl = shmem_space_malloc(SHMEM_SPACE_GPU, 4 * sizeof(long));
    shmem_long_p(&gl[1], 1000 + me, right);
    shmem_long_p(&gl[2], 2000 + me, me);
    shmem_barrier_all();
    EXPECT(shmem_long_g(&gl[1], me) == 1000 + left, "p/g through a neighbour");
    EXPECT(shmem_long_g(&gl[2], me) == 2000 + me, "p/g to oneself");
    EXPECT(shmem_long_g(&gl[1], right) == 1000 + me, "g from the right");
    shmem_barrier_all();
    /* Strided: every other long of 64, both ways. */
    long *gs = shmem_space_malloc(SHMEM_SPACE_GPU, 128 * sizeof(long));
    long host[128], got[128];
    for (int i = 0; i < 128; i++)
        host[i] = me * 1000 + i;
    long *dev = gpu_alloc(sizeof host);
    to_dev(dev, host, sizeof host);
    to_dev(gs, host, sizeof host);
    shmem_barrier_all();
    shmem_long_iput(gs, dev, 2, 1, 64, right);    /* dst stride 2, src stride 1 */
    shmem_barrier_all();
    from_dev(got, gs, sizeof got);
    for (int i = 0; i < 64; i++)
        EXPECT(got[2 * i] == left * 1000 + i && got[2 * i + 1] == me * 1000 + 2 * i + 1,
               "iput element %d: %ld", i, got[2 * i]);
    shmem_barrier_all();
    long hget[64];
    shmem_long_iget(hget, gs, 1, 2, 64, right);   /* every other element of the right's */
    for (int i = 0; i < 64; i++)
        EXPECT(hget[i] == me * 1000 + i, "iget element %d: %ld", i, hget[i]);
    shmem_barrier_all();
    shmem_free(hdst);
    shmem_space_free(SHMEM_SPACE_GPU, gs);
    shmem_space_free(SHMEM_SPACE_GPU, gl);
    shmem_space_free(SHMEM_SPACE_GPU, gdst);
    shmem_space_free(SHMEM_SPACE_GPU, gsrc);
    gpu.free_(user);
    gpu.free_(dev);
    free(stack_like);
}

static void test_amo(void)
{
    enum { ROUNDS = 20 };
    long *w = shmem_space_calloc(SHMEM_SPACE_GPU, 4, sizeof(long));
    int *w32 = shmem_space_calloc(SHMEM_SPACE_GPU, 2, sizeof(int));
    for (int r = 0; r < ROUNDS; r++) {
        shmem_long_atomic_add(&w[0], 1, 0);
        shmem_long_atomic_fetch_inc(&w[1], 0);
        shmem_int_atomic_add(&w32[0], 2, right);
    }
    shmem_barrier_all();
    if (me == 0) {
        EXPECT(shmem_long_atomic_fetch(&w[0], 0) == (long)ROUNDS * npes, "add on PE 0: %ld",
               shmem_long_atomic_fetch(&w[0], 0));
        EXPECT(shmem_long_atomic_fetch(&w[1], 0) == (long)ROUNDS * npes, "fetch_inc on PE 0");
    }
    EXPECT(shmem_int_atomic_fetch(&w32[0], me) == 2 * ROUNDS, "int add from the left");
    shmem_barrier_all();
    /* One winner of a compare-and-swap race on PE 0; swap, and/or/xor. */
    long won = shmem_long_atomic_compare_swap(&w[2], 0, me + 1, 0);
    static long winners, mine;
    mine = won == 0;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &winners, &mine, 1);
    EXPECT(winners == 1, "%ld PEs won the compare-and-swap", winners);
    shmem_barrier_all();
    if (me == 0) {
        long old = shmem_long_atomic_swap(&w[3], 0x0f0, right);
        EXPECT(old == 0, "swap returned %ld", old);
        shmem_ulong_atomic_or((unsigned long *)&w[3], 0x00f, right);
        shmem_ulong_atomic_and((unsigned long *)&w[3], 0x0ff, right);
        shmem_ulong_atomic_xor((unsigned long *)&w[3], 0x101, right);
        unsigned long v = shmem_ulong_atomic_fetch((unsigned long *)&w[3], right);
        EXPECT(v == (((0x0f0ul | 0x00f) & 0x0ff) ^ 0x101), "bitwise AMOs: %lx", v);
        shmem_long_atomic_set(&w[3], -5, right);
        EXPECT(shmem_long_atomic_fetch(&w[3], right) == -5, "set");
    }
    shmem_barrier_all();
    shmem_space_free(SHMEM_SPACE_GPU, w32);
    shmem_space_free(SHMEM_SPACE_GPU, w);
}

static void test_sync(void)
{
    long *data = shmem_space_calloc(SHMEM_SPACE_GPU, 64, sizeof(long));
    long *flag = shmem_space_calloc(SHMEM_SPACE_GPU, 4, sizeof(long));
    uint64_t *sig = shmem_space_calloc(SHMEM_SPACE_GPU, 1, sizeof(uint64_t));
    long src[64], got[64];
    for (int i = 0; i < 64; i++)
        src[i] = me * 100 + i;
    /* Data, fence, flag: the neighbour waits on the flag in device memory. */
    shmem_long_put(data, src, 64, right);
    shmem_fence();
    shmem_long_atomic_set(&flag[0], 1, right);
    shmem_long_wait_until(&flag[0], SHMEM_CMP_EQ, 1);
    from_dev(got, data, sizeof got);
    for (int i = 0; i < 64; i++)
        EXPECT(got[i] == left * 100 + i, "data before the flag, element %d: %ld", i, got[i]);
    EXPECT(shmem_long_test(&flag[0], SHMEM_CMP_EQ, 1) == 1, "test");
    shmem_long_p(&flag[2], 7, right);
    size_t i = shmem_long_wait_until_any(flag, 4, (int[]){1, 1, 0, 1}, SHMEM_CMP_EQ, 7);
    EXPECT(i == 2, "wait_until_any found %zu", i);
    shmem_barrier_all();
    /* put_signal: the signal in device memory says the data is there. */
    for (int k = 0; k < 64; k++)
        src[k] = me * 100 + 50 + k;
    shmem_long_put_signal(data, src, 64, sig, 1, SHMEM_SIGNAL_ADD, right);
    uint64_t s = shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
    EXPECT(s == 1, "signal %llu", (unsigned long long)s);
    from_dev(got, data, sizeof got);
    EXPECT(got[0] == left * 100 + 50 && got[63] == left * 100 + 113, "put_signal data");
    EXPECT(shmem_signal_fetch(sig) == 1, "signal_fetch");
    shmem_barrier_all();
    shmem_space_free(SHMEM_SPACE_GPU, sig);
    shmem_space_free(SHMEM_SPACE_GPU, flag);
    shmem_space_free(SHMEM_SPACE_GPU, data);
}

static void test_lock(void)
{
    long *lock = shmem_space_calloc(SHMEM_SPACE_GPU, 1, sizeof(long));
    long *count = shmem_space_calloc(SHMEM_SPACE_GPU, 1, sizeof(long));
    for (int r = 0; r < 5; r++) {
        shmem_set_lock(lock);
        long c = shmem_long_g(count, 0); /* a non-atomic read-modify-write */
        shmem_long_p(count, c + 1, 0);
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
    EXPECT(shmem_long_g(count, 0) == 5L * npes, "lock-protected count %ld",
           shmem_long_g(count, 0));
    shmem_barrier_all();
    shmem_space_free(SHMEM_SPACE_GPU, count);
    shmem_space_free(SHMEM_SPACE_GPU, lock);
}

static void test_coll(void)
{
    shmem_team_t t = SHMEM_TEAM_GPU;
    int n = npes;
    long *a = shmem_space_malloc(SHMEM_SPACE_GPU, (size_t)(8 * n) * sizeof(long));
    long *b = shmem_space_malloc(SHMEM_SPACE_GPU, (size_t)(8 * n) * sizeof(long));
    long *h = malloc((size_t)(8 * n) * sizeof(long));
    for (int i = 0; i < 8; i++)
        h[i] = me * 10 + i;
    to_dev(a, h, 8 * sizeof(long));
    shmem_barrier_all();
    /* broadcast from the last PE, into dest on every PE (root too). */
    shmem_long_broadcast(t, b, a, 8, n - 1);
    from_dev(h, b, 8 * sizeof(long));
    EXPECT(h[0] == (n - 1) * 10 && h[7] == (n - 1) * 10 + 7, "broadcast: %ld", h[0]);
    /* fcollect: PE i's 8 longs at 8 * i. */
    shmem_long_fcollect(t, b, a, 8);
    from_dev(h, b, (size_t)(8 * n) * sizeof(long));
    for (int p = 0; p < n; p++)
        EXPECT(h[8 * p] == p * 10 && h[8 * p + 7] == p * 10 + 7, "fcollect block %d", p);
    /* collect, in place: this PE's block already sits in dest. */
    shmem_long_collect(t, b, b + 8 * me, 8);
    from_dev(h, b, (size_t)(8 * n) * sizeof(long));
    EXPECT(h[8 * (n - 1) + 3] == (n - 1) * 10 + 3, "collect in place");
    /* sum reduce; unsigned max (MPICH runs it as our own operation). */
    shmem_long_sum_reduce(t, b, a, 8);
    from_dev(h, b, 8 * sizeof(long));
    EXPECT(h[1] == 10L * n * (n - 1) / 2 + n, "sum reduce: %ld", h[1]);
    unsigned long *u = (unsigned long *)a;
    unsigned long uh = me == 0 ? ~0ul - 3 : (unsigned long)me;
    to_dev(u, &uh, sizeof uh);
    shmem_barrier_all();
    shmem_ulong_max_reduce(t, (unsigned long *)b, u, 1);
    from_dev(&uh, b, sizeof uh);
    EXPECT(uh == ~0ul - 3, "unsigned max reduce: %lx", uh);
    /* exscan: PE 0 gets 0. */
    for (int i = 0; i < 8; i++)
        h[i] = 1;
    to_dev(a, h, 8 * sizeof(long));
    shmem_barrier_all();
    shmem_long_sum_exscan(t, b, a, 8);
    from_dev(h, b, 8 * sizeof(long));
    EXPECT(h[0] == me && h[7] == me, "exscan: %ld", h[0]);
    /* alltoall: block j of PE i goes to PE j's block i. */
    for (int j = 0; j < n; j++)
        h[j] = me * 100 + j;
    to_dev(a, h, (size_t)n * sizeof(long));
    shmem_barrier_all();
    shmem_long_alltoall(t, b, a, 1);
    from_dev(h, b, (size_t)n * sizeof(long));
    for (int j = 0; j < n; j++)
        EXPECT(h[j] == j * 100 + me, "alltoall from %d: %ld", j, h[j]);
    shmem_barrier_all();
    free(h);
    shmem_space_free(SHMEM_SPACE_GPU, b);
    shmem_space_free(SHMEM_SPACE_GPU, a);
}

int main(void)
{
    gpu_start(&me, &npes, &right, &left);
    big = (size_t)(1 << 20) + 333 * 1024 + 5; /* 3 chunks of 512 KiB, the last partial */
    if (SHMEM_SPACE_GPU == SHMEM_SPACE_INVALID)
        gpu_die("no GPU space (run with the stand-in runtime: MPISHMEM_CUDART)");
    shmem_space_cap_t caps = 0;
    shmem_space_get_caps(SHMEM_SPACE_GPU, &caps);
    EXPECT((caps & (SHMEM_SPACE_CAP_RMA | SHMEM_SPACE_CAP_ATOMICS | SHMEM_SPACE_CAP_COLLECTIVES)) ==
               (SHMEM_SPACE_CAP_RMA | SHMEM_SPACE_CAP_ATOMICS | SHMEM_SPACE_CAP_COLLECTIVES),
           "capabilities %llx", (unsigned long long)caps);
    EXPECT(!(caps & SHMEM_SPACE_CAP_DIRECT_ACCESS), "device memory offers direct access");
    test_rma();
    test_amo();
    test_sync();
    test_lock();
    test_coll();
    return gpu_finish("gpu_space");
}
