/*
 * One misuse of the library per run: `debug_errors CASE`.
 *
 * The last PE makes the mistake while the others wait in a barrier (the
 * abort must stop them too); cases about collectives or about the library's
 * state are made by every PE.  If the library misses the mistake, the
 * program finishes normally and exits 0, which the driving script
 * (debug_errors.sh) reports as a failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>
#include "misuse_case.h"

#define BAD_PE 7

static long global_var;

/* Keeps the compiler from reasoning about a stack address. */
static void *launder(void *p)
{
    __asm__ volatile("" : "+r"(p));
    return p;
}

/* Misuses made by the last PE after shmem_init. */
static int misuse_running(const char *c, long *heap, long *local)
{
    long stack_var = 0;
    long *stack = launder(&stack_var);
    int pe = BAD_PE;

    if (!strcmp(c, "put_pe_range"))
        shmem_long_put(heap, local, 1, BAD_PE);
    else if (!strcmp(c, "get_pe_range"))
        shmem_long_get(local, heap, 1, BAD_PE);
    else if (!strcmp(c, "p_pe_range"))
        shmem_long_p(heap, 1, BAD_PE);
    else if (!strcmp(c, "p_pe_negative"))
        shmem_long_p(&global_var, 1, -1);
    else if (!strcmp(c, "g_pe_range"))
        local[0] = shmem_long_g(heap, BAD_PE);
    else if (!strcmp(c, "iput_pe_range"))
        shmem_long_iput(heap, local, 1, 1, 2, BAD_PE);
    else if (!strcmp(c, "pe_quiet_range"))
        shmem_pe_quiet(&pe, 1);
    else if (!strcmp(c, "put_stack"))
        shmem_long_put(stack, local, 1, 0);
    else if (!strcmp(c, "get_stack"))
        shmem_long_get(local, stack, 1, 0);
    else if (!strcmp(c, "put_malloc")) {
        long *m = malloc(sizeof(long));
        shmem_long_put(m, local, 1, 0);
        free(m);
    } else if (!strcmp(c, "put_past_heap") || !strcmp(c, "get_past_heap")) {
        /* Twice the heap size set by the script (SHMEM_SYMMETRIC_SIZE=1M). */
        size_t n = ((size_t)2 << 20) / sizeof(long);
        long *big = calloc(n, sizeof(long));
        if (c[0] == 'p')
            shmem_long_put(heap, big, n, 0);
        else
            shmem_long_get(big, heap, n, 0);
        free(big);
    } else if (!strcmp(c, "put_negative_count"))
        shmem_long_put(heap, local, (size_t)-1, 0);
    else if (!strcmp(c, "getmem_negative_count"))
        shmem_getmem(local, heap, (size_t)-1, 0);
    else if (!strcmp(c, "wait_bad_cmp"))
        shmem_long_wait_until(heap, 99, 0);
    else if (!strcmp(c, "test_bad_cmp"))
        (void)shmem_int_test((int *)heap, -1, 0);
    else if (!strcmp(c, "iput_span_wrap")) /* (nelems - 1) * dst wraps to 2 */
        shmem_long_iput(heap, local, (ptrdiff_t)((((__uint128_t)1 << 64) + 2) / 3), 1, 4, 0);
    else if (!strcmp(c, "iput_stride_2_61")) /* dst * 8 bytes wraps to 0 */
        shmem_long_iput(heap, local, (ptrdiff_t)1 << 61, 1, 9, 0);
    else if (!strcmp(c, "iget_local_wrap")) /* the local dest array wraps */
        shmem_long_iget(local, heap, (ptrdiff_t)1 << 61, 1, 9, 0);
    else if (!strcmp(c, "ibget_bsize_wrap"))
        shmem_long_ibget(local, heap, 1, 1, SIZE_MAX / 4, 2, 0);
    else if (!strcmp(c, "iputmem_negative_count"))
        shmem_iput8(heap, local, 1, 1, (size_t)-1, 0);
    else if (!strcmp(c, "put_signal_negative_count"))
        shmem_long_put_signal(heap, local, (size_t)-1, (uint64_t *)heap + 3, 1,
                              SHMEM_SIGNAL_SET, 0);
    else if (!strcmp(c, "test_all_huge"))
        (void)shmem_long_test_all(heap, (size_t)1 << 62, NULL, SHMEM_CMP_EQ, 0);
    else if (!strcmp(c, "iput_stride0"))
        shmem_long_iput(heap, local, 0, 1, 2, 0);
    else if (!strcmp(c, "iget_stride0"))
        shmem_long_iget(local, heap, 1, 0, 2, 0);
    else
        return -1;
    return 0;
}

/* Waits and tests on memory no other PE can update, made by the last PE:
 * they would wait forever, so they stop at once, SHMEM_DEBUG or not. */
static int misuse_wait(const char *c)
{
    long stack_var[4] = {0, 0, 0, 0}, vals[4] = {1, 1, 1, 1};
    long *stack = launder(stack_var);
    uint64_t *sig = launder(&(uint64_t){0});
    size_t idx[4];
    if (!strcmp(c, "wait_stack"))
        shmem_long_wait_until(stack, SHMEM_CMP_EQ, 1);
    else if (!strcmp(c, "wait_generic_stack"))
        shmem_wait_until(stack, SHMEM_CMP_EQ, 1);
    else if (!strcmp(c, "wait_deprecated_stack"))
        shmem_wait(stack, 0);
    else if (!strcmp(c, "wait_all_stack"))
        shmem_long_wait_until_all(stack, 4, NULL, SHMEM_CMP_EQ, 1);
    else if (!strcmp(c, "wait_any_malloc")) {
        long *m = launder(calloc(4, sizeof(long)));
        (void)shmem_long_wait_until_any(m, 4, NULL, SHMEM_CMP_EQ, 1);
    } else if (!strcmp(c, "wait_some_vector_stack"))
        (void)shmem_long_wait_until_some_vector(stack, 4, idx, NULL, SHMEM_CMP_EQ, vals);
    else if (!strcmp(c, "test_stack"))
        (void)shmem_long_test(stack, SHMEM_CMP_EQ, 1);
    else if (!strcmp(c, "test_any_vector_stack"))
        (void)shmem_long_test_any_vector(stack, 4, NULL, SHMEM_CMP_EQ, vals);
    else if (!strcmp(c, "signal_wait_stack"))
        (void)shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
    else
        return -1;
    return 0;
}

/* Misuses of collective routines, made by every PE. */
static int misuse_collective(const char *c, long *heap)
{
    long stack_var = 0;
    if (!strcmp(c, "free_stack"))
        shmem_free(launder(&stack_var));
    else if (!strcmp(c, "free_interior"))
        shmem_free(heap + 1);
    else if (!strcmp(c, "double_free")) {
        long *p = shmem_malloc(64);
        shmem_free(p);
        shmem_free(p);
    } else
        return -1;
    return 0;
}

int main(int argc, char **argv)
{
    const char *c = misuse_case(argc, argv);
    long junk = 0;

    /* Before shmem_init: every PE. */
    if (!strcmp(c, "p_before_init")) {
        shmem_long_p(&global_var, 1, 0);
        return 0;
    }
    if (!strcmp(c, "malloc_before_init")) {
        (void)shmem_malloc(64);
        return 0;
    }

    shmem_init();
    int me = shmem_my_pe(), last = shmem_n_pes() - 1;
    long *heap = shmem_malloc(4 * sizeof(long));
    long local[4] = {0, 0, 0, 0};
    shmem_barrier_all();

    if (!strncmp(c, "after_finalize_", 15)) {
        shmem_free(heap);
        shmem_finalize();
        const char *what = c + 15;
        if (!strcmp(what, "p"))
            shmem_long_p(&global_var, 1, 0);
        else if (!strcmp(what, "malloc"))
            (void)shmem_malloc(64);
        else if (!strcmp(what, "barrier_all"))
            shmem_barrier_all();
        else {
            fprintf(stderr, "unknown case %s\n", c);
            return 2;
        }
        return 0;
    }

    int rc = misuse_collective(c, heap);
    if (rc < 0 && me == last)
        rc = misuse_wait(c);
    if (rc < 0 && me == last)
        rc = misuse_running(c, heap, local);
    else if (rc < 0)
        rc = 0; /* the other PEs just wait */
    if (rc < 0) {
        fprintf(stderr, "unknown case %s\n", c);
        shmem_global_exit(2);
    }
    junk += local[0];
    shmem_barrier_all();
    shmem_free(heap);
    shmem_finalize();
    printf("case %s: no error was reported (%ld)\n", c, junk);
    return 0;
}
