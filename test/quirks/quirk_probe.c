/*
 * mpishmem test: does this MPI have the defect behind one of the library's
 * workarounds (docs/mpi-quirks.md)?  Plain MPI, no SHMEM; run with the
 * workaround off.  Prints "defect NAME: yes" or "defect NAME: no"; a crash
 * or an MPI error also means yes (quirks_applied.sh reads the exit status).
 * usage: quirk_probe minmax | rcache | cas_self | win_align | needs_target | bitwise
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* MPI_MAX and MPI_MIN of unsigned integers with the top bit set. */
static int minmax_wrong(void)
{
    MPI_Datatype dts[4] = {MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T};
    MPI_Op ops[2] = {MPI_MAX, MPI_MIN};
    int wrong = 0;
    for (int t = 0; t < 4; t++)
        for (int o = 0; o < 2; o++) {
            uint64_t a[64], b[64];
            unsigned char *pa = (unsigned char *)a, *pb = (unsigned char *)b;
            int size;
            MPI_Type_size(dts[t], &size);
            /* a: all ones but the lowest bit; b: 1 */
            for (int i = 0; i < 64; i++)
                for (int k = 0; k < size; k++) {
                    pa[i * size + k] = k == 0 ? 0xfe : 0xff;
                    pb[i * size + k] = k == 0 ? 1 : 0;
                }
            MPI_Reduce_local(a, b, 64, dts[t], ops[o]);
            int want_big = ops[o] == MPI_MAX;
            if ((pb[0] == 0xfe) != want_big) {
                char name[MPI_MAX_OBJECT_NAME];
                int len;
                MPI_Type_get_name(dts[t], name, &len);
                printf("  %s %s: wrong\n", name, o ? "min" : "max");
                wrong = 1;
            }
        }
    return wrong;
}

/* A window inside an older window's memory: does it keep its own base,
 * and does a put through it land there? */
static int rcache_wrong(void)
{
    static char mem[2 * 4096] __attribute__((aligned(4096)));
    MPI_Win outer, inner;
    void *base = NULL;
    int flag = 0;
    MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL, MPI_COMM_SELF, &outer);
    MPI_Win_create(mem + 4096 + 64, 64, 1, MPI_INFO_NULL, MPI_COMM_SELF, &inner);
    MPI_Win_get_attr(inner, MPI_WIN_BASE, &base, &flag);
    long v = 42;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, inner);
    MPI_Put(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, inner);
    MPI_Win_unlock(0, inner);
    long got;
    memcpy(&got, mem + 4096 + 64, sizeof got);
    MPI_Win_free(&inner);
    MPI_Win_free(&outer);
    return (flag && base != (void *)(mem + 4096 + 64)) || got != 42;
}

/* Every process: 64-bit compare-and-swap on its own window memory. */
static int cas_self_wrong(void)
{
    static int64_t x = 5;
    int64_t swap = 7, cmp = 5, old = 0;
    int me;
    MPI_Win win;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Win_create(&x, sizeof x, sizeof x, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    MPI_Compare_and_swap(&swap, &cmp, &old, MPI_INT64_T, me, 0, win);
    MPI_Win_flush(me, win);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    return old != 5 || x != 7;
}

/* A window whose base is 8 bytes past a 16-byte boundary: does a put from
 * the next process land at displacement 0? */
static int win_align_wrong(void)
{
    static int64_t mem[8] __attribute__((aligned(64)));
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Win win;
    MPI_Win_create(&mem[1], 6 * sizeof(int64_t), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int64_t v = 1000 + me;
    MPI_Win_lock_all(0, win);
    MPI_Put(&v, 1, MPI_INT64_T, (me + 1) % n, 0, 1, MPI_INT64_T, win);
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    int wrong = mem[1] != 1000 + (me + n - 1) % n, all = 0;
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    MPI_Win_free(&win);
    return all;
}

/* Does a get from a process that computes (makes no MPI call for 2 s)
 * wait for it?  Yes when it takes over 1 s. */
static int needs_target(void)
{
    static int64_t mem[8];
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    int slow = 0;
    double t0 = MPI_Wtime();
    if (me == 1) {
        while (MPI_Wtime() - t0 < 2.0)
            ;
    } else if (me == 0) {
        int64_t v;
        MPI_Get(&v, 1, MPI_INT64_T, 1, 0, 1, MPI_INT64_T, win);
        MPI_Win_flush(1, win);
        slow = MPI_Wtime() - t0 > 1.0;
    }
    MPI_Win_unlock_all(win);
    MPI_Bcast(&slow, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Win_free(&win);
    return slow;
}

/* Every process ORs 8 bits of its own into one word of process 0 at once
 * (MPI_Fetch_and_op, MPI_BOR, on an MPI_Win_create window as the library
 * makes), then reads it back: are all bits there? */
static int bitwise_lost(void)
{
    static uint64_t word[8];
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Win win;
    MPI_Win_create(word, sizeof word, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    uint64_t bits = (uint64_t)0xff << (8 * (me % 8)), old, all = 0, want = 0;
    for (int r = 0; r < 100; r++) {
        uint64_t zero = 0;
        if (me == 0)
            MPI_Accumulate(&zero, 1, MPI_UINT64_T, 0, 0, 1, MPI_UINT64_T, MPI_REPLACE, win);
        MPI_Win_flush(0, win);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Fetch_and_op(&bits, &old, MPI_UINT64_T, 0, 0, MPI_BOR, win);
        MPI_Win_flush(0, win);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Fetch_and_op(NULL, &all, MPI_UINT64_T, 0, 0, MPI_NO_OP, win);
        MPI_Win_flush(0, win);
        MPI_Barrier(MPI_COMM_WORLD);
        want = 0;
        for (int i = 0; i < n; i++)
            want |= (uint64_t)0xff << (8 * (i % 8));
        if (all != want)
            break;
    }
    MPI_Win_unlock_all(win);
    int wrong = all != want, any = 0;
    MPI_Allreduce(&wrong, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    MPI_Win_free(&win);
    return any;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    const char *q = argc > 1 ? argv[1] : "";
    int wrong = -1, me;
    if (strcmp(q, "minmax") == 0)
        wrong = minmax_wrong();
    else if (strcmp(q, "rcache") == 0)
        wrong = rcache_wrong();
    else if (strcmp(q, "cas_self") == 0)
        wrong = cas_self_wrong();
    else if (strcmp(q, "win_align") == 0)
        wrong = win_align_wrong();
    else if (strcmp(q, "needs_target") == 0)
        wrong = needs_target();
    else if (strcmp(q, "bitwise") == 0)
        wrong = bitwise_lost();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (wrong < 0)
        fprintf(stderr, "quirk_probe: unknown probe '%s'\n", q);
    else if (me == 0)
        printf("defect %s: %s\n", q, wrong ? "yes" : "no");
    MPI_Finalize();
    return wrong < 0 ? 2 : 0;
}
