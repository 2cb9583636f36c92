/*
 * Helpers shared by the collective tests.
 *
 * A test that calls collectives must not stop half-way on one PE (the
 * others would wait for it forever), so mismatches are recorded with
 * coll_fail() and asserted once, after the test's last collective:
 * COLL_BEGIN() first, COLL_END() last.
 *
 * Values are made from small integer codes, so every result (real and
 * complex ones included) is exact and can be computed on each PE.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_TEST_COLL_COMMON_H
#define MPISHMEM_TEST_COLL_COMMON_H

#include <complex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "shmem_check.h"

static struct {
    long count;
    char first[512];
} coll_errors;

static inline void __attribute__((format(printf, 1, 2))) coll_fail(const char *fmt, ...)
{
    if (coll_errors.count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(coll_errors.first, sizeof coll_errors.first, fmt, ap);
        va_end(ap);
    }
}

#define COLL_BEGIN() (coll_errors.count = 0, coll_errors.first[0] = '\0')
#define COLL_END()                                                                         \
    ck_assert_msg(coll_errors.count == 0, "PE %d: %ld mismatch(es), first: %s",            \
                  shmem_my_pe(), coll_errors.count, coll_errors.first)

/* A value of type T from an integer code (and, for complex types, a second
 * code for the imaginary part).  The complex branches are valid C for
 * every T, though selected only for complex T. */
#define COLL_VAL2(T, re, im)                                                               \
    _Generic((T *)0, float _Complex *: (T)(re) + (T)(im) * (T)I,                           \
             double _Complex *: (T)(re) + (T)(im) * (T)I, default: (T)(re))
#define COLL_VAL(T, code) COLL_VAL2(T, code, 0)

/* For messages: the real part of any table type. */
#define COLL_REAL(x) ((long double)creall((long double _Complex)(x)))

/* The teams every team test runs on.  Not every PE is in every team; a
 * PE outside a team holds SHMEM_TEAM_INVALID for it. */
enum { COLL_MAX_TEAMS = 8 };
typedef struct {
    shmem_team_t team[COLL_MAX_TEAMS];
    const char *name[COLL_MAX_TEAMS];
    int count;
    shmem_team_t made[COLL_MAX_TEAMS]; /* to destroy */
    int n_made;
} coll_teams_t;

static inline void coll_teams_add(coll_teams_t *t, const char *name, shmem_team_t team,
                                  int made)
{
    t->name[t->count] = name;
    t->team[t->count++] = team;
    if (made && team != SHMEM_TEAM_INVALID)
        t->made[t->n_made++] = team;
}

/* World; a strided team (start 1, stride 2); both axes of a 2D split with
 * rows of 2; singleton teams (the x axis of a split with rows of 1).  With
 * `all`, also the full-size y axis of that split (a created team holding
 * every PE) and SHMEM_TEAM_SHARED.  Collective over the world. */
static inline void coll_teams_make(coll_teams_t *t, int all)
{
    int n = shmem_n_pes();
    shmem_team_t s = SHMEM_TEAM_INVALID, x2, y2, x1, y1;
    memset(t, 0, sizeof *t);
    coll_teams_add(t, "world", SHMEM_TEAM_WORLD, 0);
    if (n >= 2) {
        ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &s),
                         0);
        coll_teams_add(t, "strided(1,2)", s, 1);
    }
    ck_assert_int_eq(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &x2, NULL, 0, &y2), 0);
    coll_teams_add(t, "2d-x(2)", x2, 1);
    coll_teams_add(t, "2d-y(2)", y2, 1);
    ck_assert_int_eq(shmem_team_split_2d(SHMEM_TEAM_WORLD, 1, NULL, 0, &x1, NULL, 0, &y1), 0);
    coll_teams_add(t, "single", x1, 1);
    if (all) {
        coll_teams_add(t, "2d-y(1)", y1, 1);
        coll_teams_add(t, "shared", SHMEM_TEAM_SHARED, 0);
    } else {
        shmem_team_destroy(y1);
    }
}

static inline void coll_teams_free(coll_teams_t *t)
{
    shmem_barrier_all();
    while (t->n_made > 0)
        shmem_team_destroy(t->made[--t->n_made]);
}

/* World PE of team PE k. */
static inline int coll_world(shmem_team_t team, int k)
{
    return shmem_team_translate_pe(team, k, SHMEM_TEAM_WORLD);
}

/* Global (static) buffers are sized for this many PEs; with more, the
 * tests use heap buffers only. */
#define COLL_GLOBAL_PES 16

/* The test cases of each file, put in one suite by coll_team.c. */
TCase *coll_data_tcase(void);
TCase *coll_reduce_tcase(void);

/* The C11 macros of <shmem.h> expand the type tables, and code made per
 * type is made inside an expansion of those same tables, where they may
 * not expand again.  So such code calls a generic macro as
 * COLL_DEFER(name)(args), and the instantiation is wrapped in
 * COLL_EVAL(...), which rescans it once the table expansion is done. */
#define COLL_NOTHING()
#define COLL_DEFER(id) id COLL_NOTHING()
#define COLL_EVAL(...) __VA_ARGS__

#endif
