/*
 * team_basic: team queries and every way to make a team.
 *   - WORLD and SHARED agree with shmem_my_pe/n_pes and shmem_ptr;
 *   - split_strided: positive, negative and zero strides, start > 0,
 *     full/partial/single-PE teams, invalid triplets (nonzero everywhere);
 *   - split_2d: coordinates, ragged last row, xrange > n;
 *   - translate_pe in every direction, get_config, is_valid, destroy;
 *   - SHMEM_TEAM_INVALID answers -1 / nonzero as the spec says;
 *   - splits of splits, and parents destroyed before their children.
 */
#include <shmem.h>
#include <shmem_check.h>

static int me, npes;

static void setup(void)
{
    me = shmem_my_pe();
    npes = shmem_n_pes();
}

START_TEST(predefined_teams)
{
    ck_assert_int_eq(shmem_team_my_pe(SHMEM_TEAM_WORLD), me);
    ck_assert_int_eq(shmem_team_n_pes(SHMEM_TEAM_WORLD), npes);
    ck_assert(shmem_team_is_valid(SHMEM_TEAM_WORLD));
    ck_assert(shmem_team_is_valid(SHMEM_TEAM_SHARED));
    ck_assert(!shmem_team_is_valid(SHMEM_TEAM_INVALID));
    ck_assert_int_eq(shmem_team_my_pe(SHMEM_TEAM_INVALID), -1);
    ck_assert_int_eq(shmem_team_n_pes(SHMEM_TEAM_INVALID), -1);

    /* SHARED holds exactly the PEs shmem_ptr reaches, in world order. */
    long *word = shmem_malloc(sizeof *word); /* heap: globals of others are not mapped */
    int n = shmem_team_n_pes(SHMEM_TEAM_SHARED), seen = 0, prev = -1;
    for (int pe = 0; pe < npes; pe++) {
        int t = shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED);
        ck_assert_int_eq(t >= 0, shmem_ptr(word, pe) != NULL);
        if (t >= 0) {
            ck_assert_int_gt(t, prev);
            prev = t;
            seen++;
            ck_assert_int_eq(shmem_team_translate_pe(SHMEM_TEAM_SHARED, t, SHMEM_TEAM_WORLD),
                             pe);
            ck_assert_ptr_eq(shmem_team_ptr(SHMEM_TEAM_SHARED, word, t), shmem_ptr(word, pe));
        }
    }
    ck_assert_int_eq(seen, n);
    ck_assert_int_eq(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, SHMEM_TEAM_SHARED),
                     shmem_team_my_pe(SHMEM_TEAM_SHARED));
    shmem_free(word);
}
END_TEST

/* Split (start, stride, size) from parent and check membership, numbering
 * and translation against the definition. */
static void check_strided(shmem_team_t parent, int start, int stride, int size)
{
    shmem_team_t t = (shmem_team_t)&t; /* anything but INVALID */
    shmem_team_config_t cfg = {.num_contexts = 3};
    ck_assert_int_eq(shmem_team_split_strided(parent, start, stride, size, &cfg,
                                              SHMEM_TEAM_NUM_CONTEXTS, &t), 0);
    int pme = shmem_team_my_pe(parent), idx = -1;
    for (int i = 0; i < size; i++)
        if (start + i * stride == pme)
            idx = i;
    if (idx < 0) {
        ck_assert_ptr_eq(t, SHMEM_TEAM_INVALID);
        ck_assert(!shmem_team_is_valid(t));
        return;
    }
    ck_assert(shmem_team_is_valid(t));
    ck_assert_int_eq(shmem_team_my_pe(t), idx);
    ck_assert_int_eq(shmem_team_n_pes(t), size);
    for (int i = 0; i < size; i++) {
        ck_assert_int_eq(shmem_team_translate_pe(t, i, parent), start + i * stride);
        ck_assert_int_eq(shmem_team_translate_pe(parent, start + i * stride, t), i);
    }
    ck_assert_int_eq(shmem_team_translate_pe(t, size, parent), -1);
    ck_assert_int_eq(shmem_team_translate_pe(t, -1, parent), -1);
    shmem_team_config_t got = {.num_contexts = -7};
    ck_assert_int_eq(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
    ck_assert_int_eq(got.num_contexts, 3);
    shmem_team_destroy(t);
    ck_assert(!shmem_team_is_valid(t));
}

START_TEST(split_strided_shapes)
{
    check_strided(SHMEM_TEAM_WORLD, 0, 1, npes);             /* the whole world */
    check_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes);     /* reversed */
    check_strided(SHMEM_TEAM_WORLD, npes - 1, 0, 1);         /* stride 0 */
    check_strided(SHMEM_TEAM_WORLD, 0, 1, 1);                /* team of one */
    if (npes >= 3) {
        check_strided(SHMEM_TEAM_WORLD, 1, 2, (npes - 1 + 1) / 2); /* start > 0, stride 2 */
        check_strided(SHMEM_TEAM_WORLD, npes - 1, -2, (npes + 1) / 2);
    }
    if (npes >= 4)
        check_strided(SHMEM_TEAM_WORLD, 1, 3, (npes - 2) / 3 + 1);
}
END_TEST

START_TEST(split_strided_invalid)
{
    struct { int start, stride, size; } bad[] = {
        {0, 1, 0}, {0, 1, -1}, {-1, 1, 1}, {npes, 1, 1}, {0, 1, npes + 1},
        {npes - 1, 1, 2}, {0, -1, 2}, {0, 0, 2}, {1, 2, npes},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        shmem_team_t t = SHMEM_TEAM_WORLD;
        ck_assert_int_ne(shmem_team_split_strided(SHMEM_TEAM_WORLD, bad[i].start, bad[i].stride,
                                                  bad[i].size, NULL, 0, &t), 0);
        ck_assert_ptr_eq(t, SHMEM_TEAM_INVALID);
    }
    shmem_team_t t = SHMEM_TEAM_WORLD;
    ck_assert_int_ne(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t), 0);
    ck_assert_ptr_eq(t, SHMEM_TEAM_INVALID);
    shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
    ck_assert_int_ne(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, NULL, 0, &x, NULL, 0, &y), 0);
    ck_assert_ptr_eq(x, SHMEM_TEAM_INVALID);
    ck_assert_ptr_eq(y, SHMEM_TEAM_INVALID);
    ck_assert_int_ne(shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, NULL, 0, &x, NULL, 0, &y), 0);
    ck_assert_int_eq(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD), -1);
    ck_assert_int_eq(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID), -1);
    shmem_team_config_t c;
    ck_assert_int_ne(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &c), 0);
    shmem_team_destroy(SHMEM_TEAM_INVALID); /* no-op */
}
END_TEST

static void check_2d(shmem_team_t parent, int xrange)
{
    shmem_team_t x, y;
    ck_assert_int_eq(shmem_team_split_2d(parent, xrange, NULL, 0, &x, NULL, 0, &y), 0);
    int n = shmem_team_n_pes(parent), p = shmem_team_my_pe(parent);
    int xr = xrange > n ? n : xrange;
    int yrange = (n + xr - 1) / xr;
    ck_assert_int_eq(shmem_team_my_pe(x), p % xr);
    ck_assert_int_eq(shmem_team_my_pe(y), p / xr);
    int row = p / xr, col = p % xr;
    int row_len = row == yrange - 1 ? n - row * xr : xr;
    int col_len = col < n - (yrange - 1) * xr ? yrange : yrange - 1;
    ck_assert_int_eq(shmem_team_n_pes(x), row_len);
    ck_assert_int_eq(shmem_team_n_pes(y), col_len);
    for (int i = 0; i < row_len; i++)
        ck_assert_int_eq(shmem_team_translate_pe(x, i, parent), row * xr + i);
    for (int j = 0; j < col_len; j++)
        ck_assert_int_eq(shmem_team_translate_pe(y, j, parent), j * xr + col);
    shmem_team_destroy(x);
    shmem_team_destroy(y);
}

START_TEST(split_2d_shapes)
{
    for (int xr = 1; xr <= npes + 1; xr++)
        check_2d(SHMEM_TEAM_WORLD, xr);
}
END_TEST

/* A split of a split, translated back to the world; the parent destroyed
 * first leaves the child working. */
START_TEST(nested_and_orphaned)
{
    shmem_team_t rev, sub;
    ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0,
                                              &rev), 0);
    int rme = shmem_team_my_pe(rev);
    ck_assert_int_eq(rme, npes - 1 - me);
    /* Every second PE of the reversed team, starting with its PE 0 (= world npes-1). */
    int size = (npes + 1) / 2;
    ck_assert_int_eq(shmem_team_split_strided(rev, 0, 2, size, NULL, 0, &sub), 0);
    shmem_team_destroy(rev);
    if (rme % 2 == 0) {
        ck_assert(shmem_team_is_valid(sub));
        ck_assert_int_eq(shmem_team_my_pe(sub), rme / 2);
        for (int i = 0; i < size; i++)
            ck_assert_int_eq(shmem_team_translate_pe(sub, i, SHMEM_TEAM_WORLD),
                             npes - 1 - 2 * i);
        /* 2D split of a created team. */
        check_2d(sub, 2);
        shmem_team_destroy(sub);
    } else {
        ck_assert_ptr_eq(sub, SHMEM_TEAM_INVALID);
    }
}
END_TEST

/* Team PE numbers given to shmem_team_ptr. */
START_TEST(team_ptr)
{
    int *cell = shmem_malloc(sizeof *cell);
    shmem_team_t t;
    ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0,
                                              &t), 0);
    for (int i = 0; i < npes; i++)
        ck_assert_ptr_eq(shmem_team_ptr(t, cell, i), shmem_ptr(cell, npes - 1 - i));
    ck_assert_ptr_null(shmem_team_ptr(t, cell, npes));
    shmem_team_destroy(t);
    shmem_free(cell);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("team_basic");
    TCase *tc = tcase_create("teams");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, predefined_teams);
    tcase_add_test(tc, split_strided_shapes);
    tcase_add_test(tc, split_strided_invalid);
    tcase_add_test(tc, split_2d_shapes);
    tcase_add_test(tc, nested_and_orphaned);
    tcase_add_test(tc, team_ptr);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
