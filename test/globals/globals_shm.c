/*
 * Global data on the load/store path (spaces/globals/globals_shm.c).
 *
 * - other PEs' globals are directly reachable (shmem_ptr) exactly when
 *   their heap is: same node, MPISHMEM_SHM on (and MPISHMEM_SHM_GLOBALS not
 *   0, in which case they never are);
 * - data written before shmem_init (initialised .data, .bss written in a
 *   constructor and in main) survives the remap and is seen by peers;
 * - AMO totals from every PE on a global and a heap counter are exact,
 *   with put/get traffic on the same segment in between;
 * - a fork()ed child gets a private copy: its writes reach neither its
 *   parent nor the parent's peers.
 * - the data path is the one shmem_ptr promises: MPI RMA calls (counted by
 *   interposing them) for exactly the PEs without a direct pointer, none
 *   for the others; under MPISHMEM_TEST_NODES=2 at 4 PEs, both kinds occur
 *   in the same run.
 * Built as PIE and non-PIE, and with MPI_Init before shmem_init (-DMPI_FIRST).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <shmem.h>

#define CHECK(c, ...)                                                                      \
    do {                                                                                   \
        if (!(c)) {                                                                        \
            fprintf(stderr, "PE %d: %s:%d: check failed: %s: ", shmem_my_pe(), __FILE__,   \
                    __LINE__, #c);                                                         \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fprintf(stderr, "\n");                                                         \
            shmem_global_exit(1);                                                          \
        }                                                                                  \
    } while (0)

#define ROUNDS 100

static long data_init[4] = {11, 22, 33, 44};     /* .data */
static long bss_ctor;                             /* .bss, written in a constructor */
static long bss_main;                             /* .bss, written before shmem_init */
static uint64_t g_counter;                        /* AMO target */
static uint32_t g_counter32;
static long g_slots[64];                          /* puts from every PE */
static long g_forked = 7;
static char g_big[1 << 22];                       /* a large .bss, mostly untouched */

__attribute__((constructor)) static void early(void) { bss_ctor = 1234; }

/* MPI RMA calls made by the library (PMPI interposition). */
static long mpi_rma_calls;
int MPI_Put(const void *o, int oc, MPI_Datatype ot, int t, MPI_Aint d, int tc, MPI_Datatype tt,
            MPI_Win w)
{
    mpi_rma_calls++;
    return PMPI_Put(o, oc, ot, t, d, tc, tt, w);
}
int MPI_Accumulate(const void *o, int oc, MPI_Datatype ot, int t, MPI_Aint d, int tc,
                   MPI_Datatype tt, MPI_Op op, MPI_Win w)
{
    mpi_rma_calls++;
    return PMPI_Accumulate(o, oc, ot, t, d, tc, tt, op, w);
}
int MPI_Fetch_and_op(const void *o, void *r, MPI_Datatype dt, int t, MPI_Aint d, MPI_Op op,
                     MPI_Win w)
{
    mpi_rma_calls++;
    return PMPI_Fetch_and_op(o, r, dt, t, d, op, w);
}
int MPI_Compare_and_swap(const void *o, const void *c, void *r, MPI_Datatype dt, int t,
                         MPI_Aint d, MPI_Win w)
{
    mpi_rma_calls++;
    return PMPI_Compare_and_swap(o, c, r, dt, t, d, w);
}

int main(void)
{
    bss_main = 5678;
    g_big[12345] = 9;
#ifdef MPI_FIRST
    MPI_Init(NULL, NULL);
#endif
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    const char *sg = getenv("MPISHMEM_SHM_GLOBALS");
    int globals_off = sg && !strcmp(sg, "0");
    uint64_t *h_counter = shmem_calloc(1, sizeof *h_counter);

    CHECK(data_init[2] == 33 && bss_ctor == 1234 && bss_main == 5678 && g_big[12345] == 9,
          "data written before shmem_init was lost");
    int direct = 0;
    for (int pe = 0; pe < n; pe++) {
        if (pe == me)
            continue;
        int heap_direct = shmem_ptr(h_counter, pe) != NULL;
        int glob_direct = shmem_ptr(&g_counter, pe) != NULL;
        CHECK(glob_direct == (heap_direct && !globals_off),
              "PE %d: globals direct %d, heap direct %d", pe, glob_direct, heap_direct);
        direct += glob_direct;
        if (glob_direct) {
            long *p = shmem_ptr(data_init, pe);
            CHECK(p[1] == 22, "peer's .data through shmem_ptr reads %ld", p[1]);
            CHECK(((long *)shmem_ptr(&bss_main, pe))[0] == 5678, "peer's .bss");
            CHECK(((char *)shmem_ptr(g_big, pe))[12345] == 9, "peer's big .bss");
        }
    }

    /* Puts to every PE: MPI only for the PEs without a direct pointer. */
    const char *shm = getenv("MPISHMEM_SHM");
    int shm_on = !(shm && !strcmp(shm, "0"));
    long want_mpi = 0;
    for (int t = 0; t < n; t++)
        want_mpi += t == me ? !shm_on : shmem_ptr(g_slots, t) == NULL;
    shmem_barrier_all();
    long before = mpi_rma_calls;
    for (int t = 0; t < n; t++)
        shmem_long_p(&g_slots[63], 1, t);
    long puts_mpi = mpi_rma_calls - before;
    CHECK(puts_mpi == want_mpi, "%ld MPI calls for %d puts, expected %ld", puts_mpi, n,
          want_mpi);
    const char *nodes = getenv("MPISHMEM_TEST_NODES");
    if (nodes && atoi(nodes) == 2 && n == 4)
        CHECK(direct == 1 && want_mpi == 2, "2 nodes x 2 PEs: %d direct, %ld through MPI",
              direct, want_mpi);

    /* AMOs and RMA mixed: everyone adds to everyone's counters. */
    shmem_barrier_all();
    before = mpi_rma_calls;
    for (int r = 0; r < ROUNDS; r++) {
        for (int pe = 0; pe < n; pe++) {
            int t = (me + pe) % n;
            if (r & 1)
                shmem_uint64_atomic_add(&g_counter, 1, t);
            else
                (void)shmem_uint64_atomic_fetch_add(&g_counter, 1, t);
            shmem_uint64_atomic_add(h_counter, 1, t);
            (void)shmem_uint32_atomic_fetch_inc(&g_counter32, t);
            shmem_long_p(&g_slots[me % 64], (long)r, t);
        }
    }
    uint64_t old = shmem_uint64_atomic_compare_swap(&g_counter, 0, 1, (me + 1) % n);
    (void)old;
    long amo_mpi = mpi_rma_calls - before;
    /* CPU atomics exactly when every PE maps every other. */
    int all_direct = shm_on && direct == n - 1 && (!globals_off || n == 1);
    CHECK((amo_mpi == 0) == all_direct, "%ld MPI calls in the AMO phase, all direct %d",
          amo_mpi, all_direct);
    shmem_barrier_all();
    CHECK(g_counter == (uint64_t)ROUNDS * n, "global total %llu, expected %llu",
          (unsigned long long)g_counter, (unsigned long long)ROUNDS * n);
    CHECK(*h_counter == (uint64_t)ROUNDS * n, "heap total %llu",
          (unsigned long long)*h_counter);
    CHECK(g_counter32 == (uint32_t)ROUNDS * (uint32_t)n, "32-bit global total %u",
          g_counter32);
    for (int pe = 0; pe < n && pe < 64; pe++)
        CHECK(g_slots[pe] == ROUNDS - 1, "slot %d holds %ld", pe, g_slots[pe]);
    long got = shmem_long_g(&data_init[3], (me + 1) % n);
    CHECK(got == 44, "g of a peer's .data: %ld", got);

    /* fork: the child's writes stay in the child. */
    shmem_barrier_all();
    pid_t c = fork();
    if (c == 0) {
        g_forked = 99;
        bss_main = 1;
        _exit(g_forked == 99 ? 0 : 3);
    }
    int st = 0;
    CHECK(c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "child failed");
    CHECK(g_forked == 7 && bss_main == 5678, "the child's writes reached the parent");
    shmem_barrier_all();
    long peer_forked = shmem_long_g(&g_forked, (me + 1) % n);
    CHECK(peer_forked == 7, "the child's writes reached a peer: %ld", peer_forked);

    if (me == 0)
        printf("globals_shm: %d PEs, %d peers direct from PE 0: ok\n", n, direct);
    shmem_free(h_counter);
    shmem_finalize();
#ifdef MPI_FIRST
    MPI_Finalize();
#endif
    return 0;
}
