/*
 * Memory spaces on every PE: the predefined handles, queries, invalid
 * handles, dynamic CPU spaces (creation success and failure paths),
 * allocation and its synchronization, exhaustion, RMA and AMOs on space
 * memory, and destroy refused while teams made from the space team live.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <shmemx.h>
#include "spaces_common.h"

#define MiB ((size_t)1 << 20)

START_TEST(predefined_handles)
{
    SP_BEGIN();
    /* No spaces variables: the CPU space is enabled and is the default. */
    EXPECT(SHMEM_SPACE_DEFAULT != SHMEM_SPACE_INVALID, "default space invalid");
    EXPECT(SHMEM_SPACE_DEFAULT == SHMEM_SPACE_CPU, "default is not the CPU space");
    EXPECT(SHMEM_SPACE_GPU == SHMEM_SPACE_INVALID, "GPU space valid on a machine with no GPU");
    EXPECT(SHMEM_TEAM_GPU == SHMEM_TEAM_INVALID, "GPU team valid with no GPU");
    EXPECT(SHMEM_TEAM_CPU == SHMEM_TEAM_WORLD, "CPU team of the default space is not WORLD");
    EXPECT(shmem_team_is_valid(SHMEM_TEAM_CPU), "SHMEM_TEAM_CPU not valid");
    EXPECT(!shmem_team_is_valid(SHMEM_TEAM_GPU), "SHMEM_TEAM_GPU valid");
    EXPECT(shmem_space_is_available(SHMEM_SPACE_DEFAULT) == 0, "default not available");
    EXPECT(shmem_space_is_available(SHMEM_SPACE_CPU) == 0, "CPU not available");
    EXPECT(shmem_space_is_available(SHMEM_SPACE_GPU) != 0, "GPU available");
    EXPECT(shmem_space_is_available(SHMEM_SPACE_INVALID) != 0, "INVALID available");

    shmem_team_t t = SHMEM_TEAM_INVALID;
    EXPECT(shmem_space_get_team(SHMEM_SPACE_DEFAULT, &t) == 0 && t == SHMEM_TEAM_WORLD,
           "default space team is not SHMEM_TEAM_WORLD");
    shmem_device_type_t d = SHMEM_DEVICE_GPU;
    EXPECT(shmem_space_get_device_type(SHMEM_SPACE_CPU, &d) == 0 && d == SHMEM_DEVICE_CPU,
           "CPU space device type %d", (int)d);
    shmem_space_cap_t caps = 0;
    EXPECT(shmem_space_get_caps(SHMEM_SPACE_DEFAULT, &caps) == 0, "get_caps failed");
    shmem_space_cap_t want = SHMEM_SPACE_CAP_RMA | SHMEM_SPACE_CAP_ATOMICS |
                             SHMEM_SPACE_CAP_COLLECTIVES | SHMEM_SPACE_CAP_DIRECT_ACCESS |
                             SHMEM_SPACE_CAP_WORLD_ACCESS;
    EXPECT(caps == want, "default caps 0x%llx, expected 0x%llx", (unsigned long long)caps,
           (unsigned long long)want);
    EXPECT(!(caps & SHMEM_SPACE_CAP_IDENT_ADDR), "IDENT_ADDR advertised");
    /* Predefined spaces live until shmem_finalize. */
    EXPECT(shmem_space_destroy(SHMEM_SPACE_CPU) != 0, "destroying SHMEM_SPACE_CPU succeeded");

    /* shmem_malloc allocates from the default space, and the default
     * space's routines from the same heap. */
    int *a = shmem_malloc(64), *b = shmem_space_malloc(SHMEM_SPACE_DEFAULT, 64);
    shmem_space_t s = SHMEM_SPACE_INVALID;
    EXPECT(a && b, "allocations failed");
    EXPECT(shmemx_get_space(a, &s) == 0 && s == SHMEM_SPACE_DEFAULT, "shmem_malloc memory "
           "not in the default space");
    EXPECT(shmemx_get_space(b, &s) == 0 && s == SHMEM_SPACE_DEFAULT, "space_malloc memory "
           "not in the default space");
    static int global_var;
    EXPECT(shmemx_get_space(&global_var, &s) != 0, "global data has a space");
    EXPECT(shmemx_get_space(NULL, &s) != 0, "NULL has a space");
    EXPECT(shmemx_team_get_space(SHMEM_TEAM_WORLD, &s) == 0 && s == SHMEM_SPACE_DEFAULT,
           "world team not in the default space");
    EXPECT(shmemx_team_get_space(SHMEM_TEAM_INVALID, &s) != 0, "INVALID team has a space");
    EXPECT(shmemx_space_ptr(SHMEM_SPACE_DEFAULT, a, shmem_my_pe()) == a, "space_ptr to self");
    EXPECT(shmemx_space_ptr(SHMEM_SPACE_INVALID, a, shmem_my_pe()) == NULL,
           "space_ptr with INVALID");
    shmem_free(a);
    shmem_space_free(SHMEM_SPACE_DEFAULT, b);
    SP_END();
}
END_TEST

START_TEST(invalid_handles)
{
    SP_BEGIN();
    shmem_team_t t;
    shmem_device_type_t d;
    shmem_space_cap_t c;
    EXPECT(shmem_space_get_team(SHMEM_SPACE_INVALID, &t) != 0, "get_team(INVALID) == 0");
    EXPECT(shmem_space_get_device_type(SHMEM_SPACE_INVALID, &d) != 0, "get_device_type");
    EXPECT(shmem_space_get_caps(SHMEM_SPACE_INVALID, &c) != 0, "get_caps(INVALID) == 0");
    EXPECT(shmem_space_malloc(SHMEM_SPACE_INVALID, 128) == NULL, "malloc(INVALID)");
    EXPECT(shmem_space_calloc(SHMEM_SPACE_INVALID, 4, 32) == NULL, "calloc(INVALID)");
    int x;
    shmem_space_free(SHMEM_SPACE_INVALID, &x); /* no operation */
    EXPECT(shmem_space_destroy(SHMEM_SPACE_INVALID) == 0, "destroy(INVALID) not a no-op");
    SP_END();
}
END_TEST

/* Creation that must fail on every PE with invalid handles everywhere. */
static void expect_create_fails(shmem_space_config_t c, const char *what)
{
    shmem_space_t s = (shmem_space_t)&c; /* garbage the routine must overwrite */
    shmem_team_t t = SHMEM_TEAM_WORLD;
    EXPECT(shmem_space_create(&c, &s, &t) != 0, "%s: create returned 0", what);
    EXPECT(s == SHMEM_SPACE_INVALID, "%s: space handle not INVALID", what);
    EXPECT(t == SHMEM_TEAM_INVALID, "%s: team handle not INVALID", what);
}

START_TEST(create_failures)
{
    SP_BEGIN();
    expect_create_fails(sp_config((shmem_device_type_t)42, MiB), "unknown device type");
    expect_create_fails(sp_config(SHMEM_DEVICE_CPU, 0), "size 0");
    shmem_space_config_t c = sp_config(SHMEM_DEVICE_CPU, MiB);
    c.flags = 0x40;
    expect_create_fails(c, "unknown flag");
    expect_create_fails(sp_config(SHMEM_DEVICE_GPU, MiB), "GPU without a GPU");
    expect_create_fails(sp_config(SHMEM_DEVICE_FPGA, MiB), "FPGA");
    expect_create_fails(sp_config(SHMEM_DEVICE_CPU, (size_t)1 << 50), "1 PiB per PE");
    shmem_space_t s = SHMEM_SPACE_DEFAULT;
    shmem_team_t t = SHMEM_TEAM_WORLD;
    EXPECT(shmem_space_create(NULL, &s, &t) != 0 && s == SHMEM_SPACE_INVALID &&
           t == SHMEM_TEAM_INVALID, "NULL config");
    SP_END();
}
END_TEST

START_TEST(dynamic_space)
{
    SP_BEGIN();
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_space_config_t c = sp_config(SHMEM_DEVICE_CPU, 4 * MiB);
    shmem_space_t s;
    shmem_team_t t;
    EXPECT(shmem_space_create(&c, &s, &t) == 0, "create failed");
    EXPECT(s != SHMEM_SPACE_INVALID && shmem_team_is_valid(t), "invalid handles");
    EXPECT(s != SHMEM_SPACE_DEFAULT, "a new space is the default one");
    EXPECT(shmem_team_n_pes(t) == n && shmem_team_my_pe(t) == me, "team %d/%d",
           shmem_team_my_pe(t), shmem_team_n_pes(t));
    shmem_team_t t2;
    EXPECT(shmem_space_get_team(s, &t2) == 0 && t2 == t, "get_team");
    shmem_device_type_t d;
    EXPECT(shmem_space_get_device_type(s, &d) == 0 && d == SHMEM_DEVICE_CPU, "device type");
    shmem_space_cap_t caps;
    EXPECT(shmem_space_get_caps(s, &caps) == 0 &&
           caps == (SHMEM_SPACE_CAP_RMA | SHMEM_SPACE_CAP_ATOMICS | SHMEM_SPACE_CAP_COLLECTIVES |
                    SHMEM_SPACE_CAP_DIRECT_ACCESS | SHMEM_SPACE_CAP_WORLD_ACCESS),
           "caps 0x%llx", (unsigned long long)caps);
    EXPECT(shmem_space_is_available(s) == 0, "dynamic space not available");
    shmem_space_t back;
    EXPECT(shmemx_team_get_space(t, &back) == 0 && back == s, "team_get_space");

    /* Zero sizes: NULL, and no synchronization (PE 0 alone calls them). */
    if (me == 0) {
        EXPECT(shmem_space_malloc(s, 0) == NULL, "malloc(0)");
        EXPECT(shmem_space_calloc(s, 0, 8) == NULL, "calloc(0, 8)");
        EXPECT(shmem_space_calloc(s, 8, 0) == NULL, "calloc(8, 0)");
        shmem_space_free(s, NULL);
    }

    /* RMA ring and AMOs on space memory. */
    long *buf = shmem_space_calloc(s, (size_t)n, sizeof(long));
    uint64_t *counter = shmem_space_calloc(s, 1, sizeof(uint64_t));
    EXPECT(buf && counter, "calloc failed");
    EXPECT(shmemx_get_space(buf, &back) == 0 && back == s, "get_space of space memory");
    EXPECT(shmem_addr_accessible(buf, (me + 1) % n), "addr_accessible");
    EXPECT(shmemx_space_ptr(s, buf, me) == buf, "space_ptr self");
    EXPECT(shmemx_space_ptr(s, buf, (me + 1) % n) == shmem_ptr(buf, (me + 1) % n),
           "space_ptr disagrees with shmem_ptr");
    for (int i = 0; i < n; i++)
        EXPECT(buf[i] == 0, "calloc memory not zero");
    shmem_barrier_all(); /* everyone has looked before anyone writes */
    int right = (me + 1) % n;
    long mine[2] = {1000 + me, 2000 + me};
    shmem_long_put(&buf[me], &mine[0], 1, right);
    shmem_uint64_atomic_add(counter, (uint64_t)me + 1, 0);
    shmem_barrier_all();
    int left = (me + n - 1) % n;
    EXPECT(buf[left] == 1000 + left, "put: %ld", buf[left]);
    long got = shmem_long_g(&buf[me], right);
    EXPECT(got == 1000 + me, "get back own put: %ld", got);
    if (me == 0)
        EXPECT(*counter == (uint64_t)n * (n + 1) / 2, "atomic sum %llu",
               (unsigned long long)*counter);
    shmem_barrier_all(); /* everyone has checked the first round */
    uint64_t before = shmem_uint64_atomic_fetch_inc(counter, 0);
    EXPECT(before >= (uint64_t)n * (n + 1) / 2 && before < (uint64_t)n * (n + 3) / 2,
           "fetch_inc returned %llu", (unsigned long long)before);
    shmem_long_put_nbi(&buf[me], &mine[1], 1, right);
    shmem_quiet();
    shmem_barrier_all();
    EXPECT(buf[left] == 2000 + left, "put_nbi: %ld", buf[left]);
    shmem_space_free(s, counter);
    shmem_space_free(s, buf);

    /* The space is its own heap: exhausting it leaves the default alone. */
    EXPECT(shmem_space_malloc(s, 8 * MiB) == NULL, "8 MiB fit in a 4 MiB space");
    void *big = shmem_space_malloc(s, 3 * MiB);
    EXPECT(big != NULL, "3 MiB did not fit after a failed allocation");
    void *more = shmem_space_malloc(s, 2 * MiB);
    EXPECT(more == NULL, "exhaustion not reported");
    void *dflt = shmem_malloc(2 * MiB);
    EXPECT(dflt != NULL, "default heap affected by the space");
    shmem_free(dflt);
    shmem_space_free(s, big);

    EXPECT(shmem_space_destroy(s) != 0, "destroy succeeded while the space team lives");
    shmem_team_destroy(t);
    EXPECT(shmem_space_get_team(s, &t2) != 0 && t2 == SHMEM_TEAM_INVALID,
           "get_team after the team was destroyed");
    EXPECT(shmem_space_destroy(s) == 0, "destroy failed");
    SP_END();
}
END_TEST

/* shmem_space_calloc synchronizes on exit: a put right after it cannot be
 * wiped by a slower PE's zeroing. */
START_TEST(alloc_synchronizes)
{
    SP_BEGIN();
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_space_config_t c = sp_config(SHMEM_DEVICE_CPU, MiB);
    shmem_space_t s;
    shmem_team_t t;
    EXPECT(shmem_space_create(&c, &s, &t) == 0, "create");
    for (int round = 0; round < 3; round++) {
        if (me == round % n)
            usleep(100000);
        int *x = shmem_space_calloc(s, (size_t)n, sizeof(int));
        shmem_int_p(&x[me], me + 1, (me + 1) % n);
        shmem_barrier_all();
        int left = (me + n - 1) % n;
        EXPECT(x[left] == left + 1, "round %d: put lost to calloc's zeroing (%d)", round,
               x[left]);
        /* free synchronizes on entry: after it returns here, a slow PE's
         * put issued before its own free is complete. */
        int *flag = shmem_space_calloc(s, 1, sizeof(int));
        if (me == round % n) {
            usleep(100000);
            shmem_int_p(flag, 7, (me + 1) % n);
        }
        shmem_space_free(s, x);
        if (me == (round % n + 1) % n)
            EXPECT(*flag == 7, "round %d: free returned before a slow PE entered it",
                   round);
        shmem_space_free(s, flag);
    }
    shmem_team_destroy(t);
    EXPECT(shmem_space_destroy(s) == 0, "destroy");
    SP_END();
}
END_TEST

/* Destroy is refused while any team made from the space team lives, even
 * one that exists on a single member. */
START_TEST(destroy_refused_with_teams)
{
    SP_BEGIN();
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_space_config_t c = sp_config(SHMEM_DEVICE_CPU, MiB);
    shmem_space_t s;
    shmem_team_t t, only0, x, y;
    EXPECT(shmem_space_create(&c, &s, &t) == 0, "create");
    EXPECT(shmem_team_split_strided(t, 0, 1, 1, NULL, 0, &only0) == 0, "split_strided");
    EXPECT((me == 0) == shmem_team_is_valid(only0), "strided team membership");
    EXPECT(shmem_team_split_2d(t, 2, NULL, 0, &x, NULL, 0, &y) == 0, "split_2d");
    shmem_space_t back;
    EXPECT(shmemx_team_get_space(x, &back) == 0 && back == s, "2d team's space");
    /* RMA inside a team made from the space team, by team PE numbers. */
    int *v = shmem_space_calloc(s, 1, sizeof(int));
    int xn = shmem_team_n_pes(x), xme = shmem_team_my_pe(x);
    int to = shmem_team_translate_pe(x, (xme + 1) % xn, SHMEM_TEAM_WORLD);
    shmem_int_atomic_add(v, 1, to);
    shmem_barrier_all();
    EXPECT(*v == 1, "x-team ring AMO: %d", *v);
    shmem_space_free(s, v);

    EXPECT(shmem_space_destroy(s) != 0, "destroy with 4 live teams");
    shmem_team_destroy(only0);
    shmem_team_destroy(x);
    EXPECT(shmem_space_destroy(s) != 0, "destroy with y and the space team live");
    shmem_team_destroy(t); /* the space team first: y must still count */
    EXPECT(shmem_space_destroy(s) != 0, "destroy with y live");
    EXPECT(shmemx_team_get_space(y, &back) == 0 && back == s, "y's space after its "
           "parent went");
    shmem_team_destroy(y);
    EXPECT(shmem_space_destroy(s) == 0, "destroy with no team left");
    (void)n;
    SP_END();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("spaces_api");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, predefined_handles);
    tcase_add_test(tc, invalid_handles);
    tcase_add_test(tc, create_failures);
    tcase_add_test(tc, dynamic_space);
    tcase_add_test(tc, alloc_synchronizes);
    tcase_add_test(tc, destroy_refused_with_teams);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
