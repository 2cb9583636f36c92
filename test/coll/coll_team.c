/*
 * coll_team: the team-based collectives, every routine x type x calling
 * form x team shape (coll_data.c, coll_reduce.c), in one launch.
 */
#include "coll_common.h"

static Suite *make_suite(void)
{
    Suite *s = suite_create("coll_team");
    suite_add_tcase(s, coll_data_tcase());
    suite_add_tcase(s, coll_reduce_tcase());
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
