/* Parsing of environment variable values (mpi_backend/settings/env_parse.c, env_check.c), without MPI. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include "mpi_backend/settings/env_parse.h"
#include "mpi_backend/settings/env_check.h"
#include "mpi_backend/settings/env_read.h"

/* A value that must parse to `want`. */
static void accept(const char *text, size_t want)
{
    size_t got = 12345;
    ck_assert_msg(mpishmem_parse_size(text, &got) == 0, "'%s' was rejected", text);
    ck_assert_msg(got == want, "'%s' parsed to %zu, expected %zu", text, got, want);
}

/* A value that must be rejected without touching the output. */
static void reject(const char *text)
{
    size_t got = 12345;
    const char *shown = text ? text : "(NULL)";
    ck_assert_msg(mpishmem_parse_size(text, &got) == -1, "'%s' was accepted as %zu", shown,
                  got);
    ck_assert_msg(got == 12345, "'%s' was rejected but changed the output", shown);
}

/* Well formed, but more than size_t holds. */
static void reject_large(const char *text)
{
    size_t got = 12345;
    ck_assert_msg(mpishmem_parse_size(text, &got) == -2, "'%s' was not refused as too large",
                  text);
    ck_assert_msg(got == 12345, "'%s' was rejected but changed the output", text);
}

START_TEST(test_size_plain)
{
    accept("0", 0);
    accept("1", 1);
    accept("1024", 1024);
    accept("007", 7);
    accept("268435456", (size_t)256 << 20);
}
END_TEST

START_TEST(test_size_suffixes)
{
    accept("512k", (size_t)512 << 10);
    accept("512K", (size_t)512 << 10);
    accept("1m", (size_t)1 << 20);
    accept("1M", (size_t)1 << 20);
    accept("3g", (size_t)3 << 30);
    accept("2t", (size_t)2 << 40);
    accept("2T", (size_t)2 << 40);
    accept("0k", 0);
    /* A B after the suffix is tolerated, in either case. */
    accept("512MB", (size_t)512 << 20);
    accept("512mb", (size_t)512 << 20);
    accept("4kB", 4096);
}
END_TEST

START_TEST(test_size_decimals)
{
    accept("1.5G", (size_t)3 << 29);
    accept("0.5k", 512);
    accept(".5k", 512);
    accept("0.25m", (size_t)256 << 10);
    accept("2.", 2);
    accept("2.0", 2);
    accept("1.0k", 1024);
    /* Fractions round up to a whole byte. */
    accept("1.5", 2);
    accept("0.1", 1);
    accept("0.001k", 2);           /* 1.024 bytes */
    accept("0.1k", 103);           /* 102.4 bytes */
    accept("0.0", 0);
}
END_TEST

START_TEST(test_size_whitespace)
{
    accept(" 64M ", (size_t)64 << 20);
    accept("\t64M\n", (size_t)64 << 20);
    accept("  12", 12);
    accept("12  ", 12);
}
END_TEST

START_TEST(test_size_limits)
{
    /* The largest values that fit, with and without a suffix. */
    accept("16777215t", (((size_t)1 << 24) - 1) << 40);
    accept("18446744073709551609", SIZE_MAX - 6);
    /* One past: 2^64 bytes. */
    reject_large("16777216t");
    reject_large("17179869184g");
    reject_large("18446744073709551616");
}
END_TEST

/* SIZE_MAX itself fits in size_t, so it must be accepted (env.h). */
START_TEST(test_size_max_exact)
{
    accept("18446744073709551615", SIZE_MAX);
    accept("18446744073709551610", SIZE_MAX - 5);
}
END_TEST

START_TEST(test_size_malformed)
{
    reject(NULL);
    reject("");
    reject("   ");
    reject("abc");
    reject("k");
    reject(".");
    reject(".k");
    reject("-5");
    reject("+5");
    reject("1x");
    reject("12x");
    reject("1.2.3");
    reject("0x10");
    reject("1e6");
    reject("1E6");
    reject("inf");
    reject("nan");
    reject("1kk");
    reject("1kb5");
    reject("1B");                  /* B only after a k/m/g/t suffix */
    reject("64 M");
    reject("1 2");
    reject("5p");                  /* no peta suffix */
}
END_TEST

START_TEST(test_size_overflow)
{
    reject_large("99999999999999999999");
    reject_large("999999999999999999999999999999");
    reject_large("20000000t");
    reject("1e20");                /* malformed, however large */
    reject("1e30");
    reject("20E");                 /* no exa suffix */
    reject("99999999999999999999x");
    reject_large("16777216.5t");
}
END_TEST

START_TEST(test_bool)
{
    static const char *const yes[] = {"1", "y", "Y", "yes", "YES", "Yes", "true", "TRUE",
                                      "on", "On"};
    static const char *const no[] = {"0", "n", "N", "no", "NO", "false", "False", "off",
                                     "OFF", ""};
    static const char *const bad[] = {"maybe", "2", "-1", "yess", "tru", " 1", "1 ",
                                      "o", "10", "nope", "enable"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        ck_assert_msg(mpishmem_parse_bool(yes[i]) == 1, "'%s' is not true", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        ck_assert_msg(mpishmem_parse_bool(no[i]) == 0, "'%s' is not false", no[i]);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_msg(mpishmem_parse_bool(bad[i]) == -1, "'%s' was accepted", bad[i]);
}
END_TEST

/* The first variable of the list that is set wins, even when it is empty. */
START_TEST(test_getenv_first)
{
    static const char *const names[] = {"SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE", NULL};
    const char *which = "untouched";
    unsetenv("SHMEM_SYMMETRIC_SIZE");
    unsetenv("SMA_SYMMETRIC_SIZE");
    ck_assert_ptr_null(mpishmem_getenv_first(names, &which));
    ck_assert_str_eq(which, "untouched");
    setenv("SMA_SYMMETRIC_SIZE", "2M", 1);
    ck_assert_str_eq(mpishmem_getenv_first(names, &which), "2M");
    ck_assert_str_eq(which, "SMA_SYMMETRIC_SIZE");
    setenv("SHMEM_SYMMETRIC_SIZE", "", 1);
    ck_assert_str_eq(mpishmem_getenv_first(names, &which), "");
    ck_assert_str_eq(which, "SHMEM_SYMMETRIC_SIZE");
    ck_assert_str_eq(mpishmem_getenv_first(names, NULL), "");
    unsetenv("SHMEM_SYMMETRIC_SIZE");
    unsetenv("SMA_SYMMETRIC_SIZE");
}
END_TEST

/* The settings table: every read goes through it (Check forks each test,
 * so a freeze here does not leak into the next). */
START_TEST(test_env_unlisted_stops)
{
    (void)mpishmem_env("MPISHMEM_NOT_A_SETTING"); /* aborts: not in the table */
}
END_TEST

START_TEST(test_env_freeze)
{
    setenv("MPISHMEM_BARRIER", "mpi", 1);
    setenv("MPI_LOCALNRANKS", "2", 1);
    ck_assert_str_eq(mpishmem_env("MPISHMEM_BARRIER"), "mpi");
    mpishmem_env_freeze();
    setenv("MPISHMEM_BARRIER", "shm", 1);
    unsetenv("SHMEM_DEBUG");
    setenv("SHMEM_DEBUG", "1", 1);
    setenv("MPI_LOCALNRANKS", "3", 1);
    /* Ours: what the freeze saw.  The launcher's: live. */
    ck_assert_str_eq(mpishmem_env("MPISHMEM_BARRIER"), "mpi");
    ck_assert_ptr_null(mpishmem_env("SHMEM_DEBUG"));
    ck_assert_str_eq(mpishmem_env("MPI_LOCALNRANKS"), "3");
}
END_TEST

START_TEST(test_env_prefix_rows)
{
    setenv("MPIR_CVAR_UT_SOMETHING", "7", 1);
    ck_assert_str_eq(mpishmem_env("MPIR_CVAR_UT_SOMETHING"), "7");
    ck_assert_ptr_nonnull(mpishmem_env_row("MPICH_ANYTHING"));
    ck_assert_ptr_null(mpishmem_env_row("MPIR_CVA"));
}
END_TEST

START_TEST(test_env_table_complete)
{
    for (const mpishmem_env_var_t *v = mpishmem_env_vars; v->name; v++) {
        ck_assert_msg(v->dflt && v->layer && v->meaning && *v->meaning, "%s: a field is empty",
                      v->name);
        ck_assert_msg(strcmp(v->layer, "lib") == 0 || strcmp(v->layer, "spaces") == 0 ||
                          strcmp(v->layer, "teams") == 0 || strcmp(v->layer, "mpi_backend") == 0,
                      "%s: layer '%s' is not one of the four", v->name, v->layer);
        for (const mpishmem_env_var_t *w = v + 1; w->name; w++)
            ck_assert_msg(strcmp(v->name, w->name) != 0, "%s is listed twice", v->name);
        ck_assert_ptr_eq(mpishmem_env_row(v->name), v);
    }
}
END_TEST

/* Every row of ours refuses its bad example with a message naming it and
 * what it allows, and takes empty as unset; an int row takes its bounds
 * and refuses one past them; a choice row takes its words in any case. */
START_TEST(test_env_rows_check)
{
    char why[512], allowed[200];
    for (const mpishmem_env_var_t *v = mpishmem_env_vars; v->name; v++) {
        ck_assert(mpishmem_env_value_ok(v, "", why, sizeof why));
        const char *bad = mpishmem_env_bad_example(v);
        if (bad == NULL) {
            ck_assert_msg(v->scope == MPISHMEM_ENV_OUTSIDE || v->type == MPISHMEM_ENV_PATH,
                          "%s: no value it refuses", v->name);
            continue;
        }
        ck_assert_msg(!mpishmem_env_value_ok(v, bad, why, sizeof why), "%s took '%s'",
                      v->name, bad);
        ck_assert_msg(strstr(why, v->name) && strstr(why, bad) &&
                          strstr(why, mpishmem_env_allowed(v, allowed, sizeof allowed)),
                      "%s: message '%s'", v->name, why);
    }
    const mpishmem_env_var_t *lanes = mpishmem_env_row("MPISHMEM_CTX_LANES");
    char n[16];
    snprintf(n, sizeof n, "%d", lanes->hi);
    ck_assert(mpishmem_env_value_ok(lanes, n, why, sizeof why));
    snprintf(n, sizeof n, "%d", lanes->hi + 1);
    ck_assert(!mpishmem_env_value_ok(lanes, n, why, sizeof why));
    ck_assert(!mpishmem_env_value_ok(lanes, "-1", why, sizeof why));
    const mpishmem_env_var_t *barrier = mpishmem_env_row("MPISHMEM_BARRIER");
    ck_assert(mpishmem_env_value_ok(barrier, "SHM-Central", why, sizeof why));
    ck_assert(!mpishmem_env_value_ok(barrier, "shm-centra", why, sizeof why));
    ck_assert(!mpishmem_env_value_ok(barrier, "shm|mpi", why, sizeof why));
    ck_assert(!mpishmem_env_value_ok(mpishmem_env_row("SHMEM_SYMMETRIC_SIZE"), "99999999t",
                                     why, sizeof why));
    ck_assert_msg(strstr(why, "is too large"), "%s", why);
}
END_TEST

static Suite *env_suite(void)
{
    Suite *s = suite_create("env");
    TCase *size = tcase_create("parse_size");
    tcase_add_test(size, test_size_plain);
    tcase_add_test(size, test_size_suffixes);
    tcase_add_test(size, test_size_decimals);
    tcase_add_test(size, test_size_whitespace);
    tcase_add_test(size, test_size_limits);
    tcase_add_test(size, test_size_max_exact);
    tcase_add_test(size, test_size_malformed);
    tcase_add_test(size, test_size_overflow);
    suite_add_tcase(s, size);
    TCase *other = tcase_create("bool_and_lookup");
    tcase_add_test(other, test_bool);
    tcase_add_test(other, test_getenv_first);
    suite_add_tcase(s, other);
    TCase *table = tcase_create("settings_table");
    tcase_add_test_raise_signal(table, test_env_unlisted_stops, SIGABRT);
    tcase_add_test(table, test_env_freeze);
    tcase_add_test(table, test_env_prefix_rows);
    tcase_add_test(table, test_env_table_complete);
    tcase_add_test(table, test_env_rows_check);
    suite_add_tcase(s, table);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(env_suite());
    /* Forked, whatever CK_FORK says: the settings-table tests abort or
     * freeze the environment, each in its own process. */
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
