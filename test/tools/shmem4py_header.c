/*
 * include/mpishmem/shmem4py.h gives what shmem4py's C layer expects,
 * compiled the way its build compiles against us (meson adds
 * -include mpishmem/shmem4py.h, as OSHCC="oshcc -include mpishmem/shmem4py.h"
 * does there).
 *
 * shmem4py picks the routines it binds from macros of the vendor's shmem.h,
 * tried in this order: OSHMEM_MAJOR_VERSION (Open MPI), OSHMPI_NUMVERSION
 * (OSHMPI), SHMEM_DEF_H together with SHMEM_FUNCTION_ATTRIBUTES (Sandia
 * OpenSHMEM, the set with every 1.5+ routine and no stand-ins).  So: the
 * first two must stay undefined, the Sandia pair defined, and every routine
 * of that set declared with its 1.5/1.6 signature (a missing one stops this
 * file compiling) and working on every PE (checked below, each failure
 * named).  A preprocessor failure is reported at run time, so a header that
 * stops defining a macro fails this test by name rather than the build.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <shmem.h>

#ifndef MPISHMEM_SHMEM4PY_H
#error "build with -include mpishmem/shmem4py.h (test/tools/meson.build)"
#endif

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "tools_shmem4py: PE %d: %s\n", shmem_my_pe(), what);
        failures++;
    }
}

/* The vendor shmem4py would recognise, by its order of tests. */
static const char *vendor(void)
{
#if defined(OSHMEM_MAJOR_VERSION)
    return "Open MPI (OSHMEM_MAJOR_VERSION is defined)";
#elif defined(OSHMPI_NUMVERSION)
    return "OSHMPI (OSHMPI_NUMVERSION is defined)";
#elif defined(SHMEM_DEF_H) && defined(SHMEM_FUNCTION_ATTRIBUTES)
    return NULL;
#elif defined(SHMEM_DEF_H)
    return "none: SHMEM_FUNCTION_ATTRIBUTES is not defined";
#else
    return "none: SHMEM_DEF_H is not defined";
#endif
}

#if defined(SHMEM_FUNCTION_ATTRIBUTES)
/* Sandia's header puts it before every declaration; it must expand to
 * something a declaration accepts. */
SHMEM_FUNCTION_ATTRIBUTES int shmem4py_header_attr_probe(void);
#endif

/* The Sandia set's routines with their 1.6 signatures; an undeclared name
 * or a different signature does not compile. */
static void (*const routines[])(void) = {
    (void (*)(void))(void *(*)(size_t, long))shmem_malloc_with_hints,
    (void (*)(void))(int (*)(shmem_team_t, int, int, int, const shmem_team_config_t *, long,
                     shmem_team_t *))shmem_team_split_strided,
    (void (*)(void))(int (*)(shmem_team_t, int, const shmem_team_config_t *, long, shmem_team_t *,
                     const shmem_team_config_t *, long, shmem_team_t *))shmem_team_split_2d,
    (void (*)(void))(int (*)(shmem_team_t, long, shmem_team_config_t *))shmem_team_get_config,
    (void (*)(void))(int (*)(shmem_team_t, int, shmem_team_t))shmem_team_translate_pe,
    (void (*)(void))(int (*)(shmem_team_t, long, shmem_ctx_t *))shmem_team_create_ctx,
    (void (*)(void))(int (*)(shmem_ctx_t, shmem_team_t *))shmem_ctx_get_team,
    (void (*)(void))(int (*)(shmem_team_t))shmem_team_sync,
    (void (*)(void))(void (*)(shmem_team_t))shmem_team_destroy,
    (void (*)(void))(void (*)(int *, int *, int, int, int))shmem_int_atomic_compare_swap_nbi,
    (void (*)(void))(void (*)(shmem_ctx_t, long *, long *, int))shmem_ctx_long_atomic_fetch_inc_nbi,
    (void (*)(void))(void (*)(double *, const double *, int))shmem_double_atomic_fetch_nbi,
    (void (*)(void))(void (*)(float *, float *, float, int))shmem_float_atomic_swap_nbi,
    (void (*)(void))(void (*)(uint64_t *, uint64_t *, uint64_t, int))shmem_uint64_atomic_fetch_xor_nbi,
    (void (*)(void))(void (*)(shmem_ctx_t, void *, const void *, size_t, uint64_t *, uint64_t, int,
                      int))shmem_ctx_putmem_signal_nbi,
    (void (*)(void))(void (*)(void *, const void *, size_t, uint64_t *, uint64_t, int,
                      int))shmem_put128_signal,
    (void (*)(void))(void (*)(long double *, const long double *, size_t, uint64_t *, uint64_t, int,
                      int))shmem_longdouble_put_signal,
    (void (*)(void))(uint64_t (*)(const uint64_t *))shmem_signal_fetch,
    (void (*)(void))(uint64_t (*)(uint64_t *, int, uint64_t))shmem_signal_wait_until,
    (void (*)(void))(int (*)(shmem_team_t, void *, const void *, size_t, int))shmem_broadcastmem,
    (void (*)(void))(int (*)(shmem_team_t, void *, const void *, size_t))shmem_collectmem,
    (void (*)(void))(int (*)(shmem_team_t, void *, const void *, size_t))shmem_fcollectmem,
    (void (*)(void))(int (*)(shmem_team_t, void *, const void *, size_t))shmem_alltoallmem,
    (void (*)(void))(int (*)(shmem_team_t, void *, const void *, ptrdiff_t, ptrdiff_t,
                     size_t))shmem_alltoallsmem,
    (void (*)(void))(int (*)(shmem_team_t, int *, const int *, ptrdiff_t, ptrdiff_t,
                     size_t))shmem_int_alltoalls,
    (void (*)(void))(int (*)(shmem_team_t, long *, const long *, size_t))shmem_long_prod_reduce,
    (void (*)(void))(int (*)(shmem_team_t, unsigned char *, const unsigned char *,
                     size_t))shmem_uchar_xor_reduce,
    (void (*)(void))(size_t (*)(int *, size_t, const int *, int, int))shmem_int_wait_until_any,
    (void (*)(void))(size_t (*)(long *, size_t, size_t *, const int *, int,
                        const long *))shmem_long_wait_until_some_vector,
    (void (*)(void))(int (*)(uint64_t *, size_t, const int *, int, uint64_t))shmem_uint64_test_all,
    (void (*)(void))(void (*)(int))shmem_pcontrol,
};

/* Constants its stand-ins and pSync arrays use even for this set. */
static const long constants[] = {
    SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE, SHMEM_TEAM_NUM_CONTEXTS,
    SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD, SHMEM_SYNC_SIZE, SHMEM_SYNC_VALUE,
    SHMEM_REDUCE_MIN_WRKDATA_SIZE,
};

static int counter, vals[64], status[64];
static uint64_t sig;
static long got[64];

/* put-with-signal round: each PE puts to its right and signals, then
 * waits for its left's signal. */
static void signal_ring(int me, int n)
{
    static long slot;
    long mine = 1000 + me;
    int right = (me + 1) % n, left = (me + n - 1) % n;
    shmem_long_put_signal(&slot, &mine, 1, &sig, (uint64_t)me + 1, SHMEM_SIGNAL_SET, right);
    uint64_t s = shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, (uint64_t)left + 1);
    expect(s == (uint64_t)left + 1, "shmem_signal_wait_until returned another value");
    expect(slot == 1000 + left, "put_signal's data did not arrive with its signal");
    expect(shmem_signal_fetch(&sig) == (uint64_t)left + 1, "shmem_signal_fetch");
    shmem_barrier_all();
}

/* A team like the world, its context, and the calls shmem4py makes on them. */
static void team_and_ctx(int me, int n)
{
    shmem_team_t team;
    shmem_team_config_t conf = {.num_contexts = 1};
    int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, &conf,
                                      SHMEM_TEAM_NUM_CONTEXTS, &team);
    expect(rc == 0 && team != SHMEM_TEAM_INVALID, "shmem_team_split_strided");
    if (rc != 0)
        return;
    expect(shmem_team_my_pe(team) == me && shmem_team_n_pes(team) == n, "team my_pe/n_pes");
    shmem_team_config_t back;
    expect(shmem_team_get_config(team, SHMEM_TEAM_NUM_CONTEXTS, &back) == 0 &&
           back.num_contexts == 1, "shmem_team_get_config");
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    expect(shmem_team_create_ctx(team, 0, &ctx) == 0 && ctx != SHMEM_CTX_INVALID,
           "shmem_team_create_ctx");
    shmem_team_t of = SHMEM_TEAM_INVALID;
    expect(shmem_ctx_get_team(ctx, &of) == 0 && of == team, "shmem_ctx_get_team");
    int fetched = -1;
    shmem_ctx_int_atomic_fetch_add_nbi(ctx, &fetched, &counter, 1, 0);
    shmem_ctx_quiet(ctx);
    expect(fetched >= 0 && fetched < n, "shmem_ctx_int_atomic_fetch_add_nbi's fetched value");
    expect(shmem_team_sync(team) == 0, "shmem_team_sync");
    shmem_ctx_destroy(ctx);
    shmem_team_destroy(team);
    shmem_barrier_all();
    if (me == 0)
        expect(counter == n, "the nbi fetch-adds did not all land");
}

/* The team collectives shmem4py calls with the world team. */
static void collectives(int me, int n)
{
    int *src = shmem_malloc_with_hints(64 * sizeof(int), SHMEM_MALLOC_ATOMICS_REMOTE);
    int *dst = shmem_malloc(64 * sizeof(int));
    long *one = shmem_malloc(sizeof(long)), *sum = shmem_malloc(sizeof(long));
    expect(src && dst && one && sum, "symmetric allocation");
    if (!(src && dst && one && sum))
        return;
    for (int i = 0; i < n; i++)
        src[i] = me * 100 + i;
    shmem_barrier_all();
    expect(shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, sizeof(int)) == 0, "alltoallmem");
    for (int i = 0; i < n; i++)
        expect(dst[i] == i * 100 + me, "alltoallmem's data");
    expect(shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, n * sizeof(int), 0) == 0,
           "broadcastmem");
    expect(dst[n - 1] == n - 1, "broadcastmem's data");
    *one = me + 1;
    expect(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, sum, one, 1) == 0, "long_sum_reduce");
    expect(*sum == (long)n * (n + 1) / 2, "long_sum_reduce's value");
    expect(shmem_fcollectmem(SHMEM_TEAM_WORLD, got, one, sizeof(long)) == 0, "fcollectmem");
    expect(got[n - 1] == n, "fcollectmem's data");
    shmem_barrier_all();
    shmem_free(sum);
    shmem_free(one);
    shmem_free(dst);
    shmem_free(src);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    const char *v = vendor();
    if (v)
        expect(0, v); /* shmem4py would not choose its Sandia feature set */
    expect(SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION >= 5, "a 1.5+ shmem.h");
    for (size_t i = 0; i < sizeof routines / sizeof routines[0]; i++)
        expect(routines[i] != NULL, "a routine of the set has no address");
    expect(constants[0] != constants[1], "SHMEM_MALLOC_* hints are distinct");
    expect(SHMEM_CTX_INVALID != SHMEM_CTX_DEFAULT, "SHMEM_CTX_INVALID is SHMEM_CTX_DEFAULT");
    if (n <= 64) {
        signal_ring(me, n);
        team_and_ctx(me, n);
        collectives(me, n);
        vals[me] = 1;
        shmem_int_atomic_set(&vals[me], 2, 0);
        shmem_barrier_all();
        if (me == 0) {
            memset(status, 0, sizeof status);
            size_t i = shmem_int_wait_until_any(vals, (size_t)n, status, SHMEM_CMP_EQ, 2);
            expect(i < (size_t)n, "shmem_int_wait_until_any");
        }
    }
    shmem_pcontrol(1);
    if (me == 0 && failures == 0)
        printf("tools_shmem4py: ok on %d PEs (%zu routines, %zu constants)\n", n,
               sizeof routines / sizeof routines[0], sizeof constants / sizeof constants[0]);
    int bad = failures;
    shmem_finalize();
    return bad ? 1 : 0;
}
