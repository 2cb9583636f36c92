/*
 * Teams made after shmem_init, for plan_info.sh: under SHMEM_INFO each
 * prints its plan line (teams/team_plan.h) as it is made.  A strided
 * split (the even PEs) and a 2D split (xrange 2), each then synchronized.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <shmem.h>

int main(void)
{
    shmem_init();
    int npes = shmem_n_pes();
    shmem_team_t evens = SHMEM_TEAM_INVALID, row = SHMEM_TEAM_INVALID, col = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
    shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &row, NULL, 0, &col);
    shmem_team_sync(row);
    shmem_team_sync(col);
    if (evens != SHMEM_TEAM_INVALID) {
        shmem_team_sync(evens);
        shmem_team_destroy(evens);
    }
    shmem_team_destroy(row);
    shmem_team_destroy(col);
    shmem_finalize();
    return 0;
}
